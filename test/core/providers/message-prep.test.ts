import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { emptyUsage, type LlmMessage, type ToolCall } from "../../../src/core/messages.js";
import { prepareMessages } from "../../../src/core/providers/message-prep.js";

const ids = ["a", "b", "c", "d"];
const messageArb: fc.Arbitrary<LlmMessage> = fc.oneof(
  fc.constant<LlmMessage>({ role: "user", content: "u", timestamp: 0 }),
  fc
    .record({
      calls: fc.uniqueArray(fc.constantFrom(...ids), { maxLength: 3 }),
      text: fc.boolean(),
      stop: fc.constantFrom("stop", "toolUse", "error", "aborted" as const),
    })
    .map(({ calls, text, stop }): LlmMessage => ({
      role: "assistant",
      content: [
        ...(text ? [{ type: "text" as const, text: "t" }] : []),
        ...calls.map((id): ToolCall => ({ type: "toolCall", id, name: "n", arguments: {} })),
      ],
      provider: "p",
      model: "m",
      usage: emptyUsage(),
      stopReason: stop,
      timestamp: 0,
    })),
  fc.constantFrom(...ids).map((id): LlmMessage => ({
    role: "toolResult",
    toolCallId: id,
    toolName: "n",
    content: [],
    isError: false,
    timestamp: 0,
  })),
);

describe("prepareMessages", () => {
  it("always pairs every tool call with exactly one result right after it, and drops orphans and failed replies", () => {
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 25 }), (messages) => {
        const out = prepareMessages(messages);
        for (let i = 0; i < out.length; i++) {
          const m = out[i];
          if (m.role === "assistant") {
            assert.ok(m.content.length > 0, "no empty assistant messages");
            assert.ok(m.stopReason !== "error" && m.stopReason !== "aborted", "failed replies are not replayed (pi)");
            const calls = m.content.filter((c) => c.type === "toolCall").map((c) => (c as ToolCall).id);
            const results: string[] = [];
            for (let j = i + 1; j < out.length && out[j].role === "toolResult"; j++) {
              const r = out[j];
              if (r.role === "toolResult") results.push(r.toolCallId);
            }
            assert.deepEqual([...results].sort(), [...calls].sort());
          }
          if (m.role === "toolResult") {
            let k = i - 1;
            while (k >= 0 && out[k].role === "toolResult") k--;
            assert.equal(out[k]?.role, "assistant", "a result follows its assistant turn");
          }
        }
        // Nothing else is dropped: every user message and every replayable reply is sent, in order.
        const kept = (list: readonly LlmMessage[]): LlmMessage[] =>
          list.filter(
            (m) =>
              m.role === "user" ||
              (m.role === "assistant" &&
                m.stopReason !== "error" &&
                m.stopReason !== "aborted" &&
                m.content.length > 0),
          );
        assert.deepEqual(kept(out), kept(messages));
      }),
    );
  });
});
