/**
 * Child process of the activation figures: reads one build of the extension (`require` of its dist/extension.js)
 * with `vscode` stood in for (vscode-stub.ts) and runs its `activate()`; prints the time of each part as JSON.
 * argv: <dist/extension.js> <workspace folder> <storage folder>
 */
import Module from "node:module";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { extensionContext, vscodeStub } from "./vscode-stub.js";

interface Loader {
  _load(request: string, parent: unknown, isMain: boolean): unknown;
}

async function main(): Promise<void> {
  const [bundle, workspace, storage] = process.argv.slice(2);
  const stub = vscodeStub(workspace);
  const loader = Module as unknown as Loader;
  const load = loader._load.bind(Module);
  loader._load = (request, parent, isMain) => (request === "vscode" ? stub : load(request, parent, isMain));
  const t0 = performance.now();
  // The extension host loads an extension with require(); so does this, through Module's own.
  const ext = Module.createRequire(__filename)(bundle) as { activate(context: unknown): Promise<unknown> };
  const t1 = performance.now();
  await ext.activate(extensionContext(path.dirname(path.dirname(bundle)), storage));
  const t2 = performance.now();
  process.stdout.write(
    `${JSON.stringify({ requireMs: t1 - t0, activateMs: t2 - t1, rss: process.memoryUsage().rss })}\n`,
  );
  // The activated extension keeps watchers and timers; the figures are out.
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
