/** The one temp-folder helper of the tests. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, beforeEach } from "node:test";

/** A fresh temp folder (named after `prefix`), removed by `cleanup()`. */
export function tempDir(prefix = "agent-tree-test-"): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A fresh temp folder for each test of the enclosing suite (node:test `describe` or file): `dir` is the
 * current test's; each is removed when the next test starts, the last after the suite.
 */
export function tempDirPerTest(prefix = "agent-tree-test-"): { readonly dir: string } {
  let tmp: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    tmp?.cleanup();
    tmp = tempDir(prefix);
  });
  after(() => tmp?.cleanup());
  return {
    get dir() {
      if (!tmp) throw new Error("the per-test temp folder is only there inside a test");
      return tmp.dir;
    },
  };
}
