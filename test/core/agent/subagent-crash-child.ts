/**
 * Child process of the subagent crash tests: opens a session and sends a prompt whose reply starts two subagents
 * (subagentCrashReplies), printing `ack <id>` for every entry written — the parent's at the leaf and the subagents'
 * on their branches — after the append returned. The parent kills it mid-run.
 * argv: <session file> <fake server base URL> <tools folder>
 */
import { runCrashChild } from "../../util/crash-child.js";

runCrashChild({ subagents: {} }, async ({ session, ack }) => {
  session.subscribe((e) => {
    if (e.type === "message_end") ack(e.entryId);
  });
  session.runs.subscribe((c) => {
    if (c.type === "begin" && c.work.run?.kind === "subagent")
      c.work.run.subscribe((e) => {
        if (e.type === "branch_entry") ack(e.entryId);
      });
  });
  await session.prompt("PARENT crash");
});
