/**
 * What the chat shows of the messages typed while an agent works: the queue as it changes, and when the run ends,
 * whatever it left undelivered (an abort, a failed model call) put back into the input so nothing typed is lost.
 * The end of a run also ends Accept All in This Run, and reports the run's first user message (the files it changed
 * are counted from there). One per running agent. Pure: no `vscode` import.
 */
import type { AgentSession } from "../../core/agent/agent-session.js";
import type { HostToWebview } from "../../shared/protocol.js";
import type { ApprovalBroker } from "../tools/tool-approval.js";

/** Queued messages put back into the input are separated like paragraphs. */
export const RESTORED_SEPARATOR = "\n\n";

/** Mirrors `agent`'s queue into the chat; returns the unsubscribe function. */
export function followRunInput(
  agent: AgentSession,
  broker: ApprovalBroker,
  post: (msg: HostToWebview) => void,
  onRunEnd: (firstUserId: string | undefined) => void = () => undefined,
): () => void {
  let firstUserId: string | undefined;
  return agent.subscribe((e) => {
    if (e.type === "agent_start") firstUserId = undefined;
    if (e.type === "message_end" && e.message.role === "user") firstUserId ??= e.entryId;
    if (e.type === "queue_update") post({ type: "chat/queue", items: [...e.items] });
    if (e.type !== "agent_end") return;
    broker.endRun();
    const left = agent.clearQueue();
    if (left.length > 0) post({ type: "chat/restoreInput", text: left.map((i) => i.text).join(RESTORED_SEPARATOR) });
    onRunEnd(firstUserId);
  });
}
