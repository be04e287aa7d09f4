// Runs the session listing's worker from its TypeScript source in tests: worker threads do not inherit tsx's loader.
import { register } from "tsx/esm/api";

register();
await import("../../src/core/session/list-worker.ts");
