/**
 * Child process for the branch deletion crash test: opens a session, and deletes a branch with the process
 * killed (SIGKILL, no clean-up of any kind) right before the temp file is renamed over the session.
 *   argv: <session file> <entry id of the branch>
 */
import { SessionManager } from "../../../src/core/index.js";

const [file, entryId] = process.argv.slice(2);
const kill = (): void => {
  process.kill(process.pid, "SIGKILL");
};
void (async () => {
  const sm = await SessionManager.open(file, { io: { beforeRename: kill } });
  await sm.deleteBranch(entryId);
  // Not reached: the kill comes first.
  process.stdout.write("rewritten\n");
})();
