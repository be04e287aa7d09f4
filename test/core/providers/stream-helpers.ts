/** Shared set-up of the provider stream tests (each against its fake server through the real SDK). */
import assert from "node:assert/strict";
import type { AssistantMessage, LlmMessage } from "../../../src/core/messages.js";
import { streamCompletion } from "../../../src/core/providers/stream-completion.js";
import type { StreamEvent, StreamRequest } from "../../../src/core/providers/types.js";

/** A user message with a fixed timestamp. */
export const user = (text: string): LlmMessage => ({ role: "user", content: text, timestamp: 1 });

/** Run one streamed completion to its end; it must end with exactly one `done` or `error` event. */
export async function collect(req: StreamRequest): Promise<{ events: StreamEvent[]; final: AssistantMessage }> {
  const events: StreamEvent[] = [];
  for await (const e of streamCompletion(req)) events.push(e);
  const last = events[events.length - 1];
  assert.ok(last.type === "done" || last.type === "error", "stream must end with done or error");
  assert.equal(events.filter((e) => e.type === "done" || e.type === "error").length, 1);
  return { events, final: last.message };
}
