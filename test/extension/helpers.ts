/** Shared helpers of the extension-host tests. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { AgentTreeApi } from "../../src/host/extension.js";

/** publisher.name from package.json. */
export const EXTENSION_ID = "agent-tree.agent-tree";

/** Activate the extension and return its API. */
export async function activateApi(): Promise<AgentTreeApi> {
  const ext = vscode.extensions.getExtension<AgentTreeApi>(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
  return ext.activate();
}

export { writeSession } from "./session-fixture.js";

/** A temp folder for session files. */
export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "agent-tree-ext-"));
}
