/** The one temp-folder helper of the tests. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** A fresh temp folder (named after `prefix`), removed by `cleanup()`. */
export function tempDir(prefix = "agent-tree-test-"): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
