/**
 * Child process of the clean-up race test: another window making branch copies. It makes `count` copies of one
 * checkpoint one after another, printing `made <folder>` as each is started and `done` after the last, then stays
 * alive (holding its claims, as a window whose branches run) until the parent kills it.
 * argv: <workspace folder> <store folder> <checkpoint id> <copies folder> <count>
 */
import * as fs from "node:fs";
import { BranchCopy } from "../../../src/core/parallel/branch-copy.js";

async function main(): Promise<void> {
  const [folder, storeDir, checkpointId, copiesDir, count] = process.argv.slice(2);
  for (let i = 0; i < Number(count); i++) {
    const copy = await BranchCopy.materialize({ folder, storeDir, checkpointId, copiesDir });
    fs.writeSync(1, `made ${copy.root}\n`);
    await copy.ready;
  }
  fs.writeSync(1, "done\n");
  // Bounded: the parent kills it long before.
  setTimeout(() => process.exit(0), 60_000);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
