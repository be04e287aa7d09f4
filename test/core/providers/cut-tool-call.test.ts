/**
 * A stream cut in the middle of a tool call's arguments (the server resets the connection, or ends the
 * response early) must end in a clear error, and the half-received call must never pass for a whole one:
 * through the real `openai` and `@anthropic-ai/sdk` clients against the fake SSE servers, and through the
 * agent loop, which must not run it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runAgentLoop } from "../../../src/core/agent/agent-loop.js";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import type { AgentMessage, AssistantMessage, ToolCall } from "../../../src/core/messages.js";
import { ProviderError } from "../../../src/core/providers/provider-error.js";
import type { ModelInfo, StreamEvent, StreamRequest } from "../../../src/core/providers/types.js";
import type { AgentTool } from "../../../src/core/tools/types.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import { startFakeOpenAI } from "../../util/fake-openai-server.js";
import type { FakeCutReply, FakeServer } from "../../util/fake-provider-common.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { anthropicModel, openAIModel } from "../agent/helpers.js";
import { completeText, streamCompletion } from "./stream-helpers.js";

/** A write whose truncated arguments would still look plausible to a lenient parser. */
const ARGS = { path: "src/app.ts", content: "line one\nline two\nline three" };
const ARGS_JSON = JSON.stringify(ARGS);
/** Cut inside the "content" string: `{"path":"src/app.ts","content":"line one`. */
const SENT = ARGS_JSON.indexOf("\\nline two");

const PROVIDERS: { name: string; start: () => Promise<FakeServer>; model: (fake: FakeServer) => ModelInfo }[] = [
  { name: "openai", start: () => startFakeOpenAI(), model: (fake) => openAIModel(fake) },
  { name: "anthropic", start: () => startFakeAnthropic(), model: (fake) => anthropicModel(fake) },
];

const CUTS: { cutBy: NonNullable<FakeCutReply["cutBy"]>; errorKind: string; message: RegExp }[] = [
  { cutBy: "destroy", errorKind: "unreachable", message: /was lost mid-reply/ },
  { cutBy: "end", errorKind: "bad_response", message: /ended before the reply was complete/ },
];

function cutReply(cutBy: FakeCutReply["cutBy"]): FakeCutReply {
  return {
    cutAfterChunks: 2,
    text: "I will write the file now.",
    toolCall: { name: "write", args: ARGS, id: "call_cut" },
    sentArgChars: SENT,
    cutBy,
  };
}

const toolCalls = (m: AssistantMessage): ToolCall[] => m.content.filter((c): c is ToolCall => c.type === "toolCall");

/** A write tool that records whether it ever ran. */
function recordingWrite(ran: Record<string, unknown>[]): AgentTool {
  return {
    name: "write",
    description: "Write a file",
    mutates: true,
    parameters: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } } },
    async execute(args) {
      ran.push(args);
      return { content: [{ type: "text", text: "written" }] };
    },
  };
}

for (const provider of PROVIDERS) {
  describe(`${provider.name}: a stream cut in the middle of a tool call`, () => {
    const fake = fakeServerForSuite(provider.start);
    const req = (): StreamRequest => ({
      model: provider.model(fake),
      apiKey: "sk-test",
      messages: [{ role: "user", content: "write the file", timestamp: 1 }],
      maxRetries: 0,
      retryBaseDelayMs: 1,
    });

    for (const cut of CUTS) {
      it(`(${cut.cutBy}) ends with stopReason error and a clear message, the call marked incomplete`, async () => {
        fake.enqueue(cutReply(cut.cutBy));
        const events: StreamEvent[] = [];
        for await (const e of streamCompletion(req())) events.push(e);
        const last = events[events.length - 1];
        assert.equal(last.type, "error", `last event: ${last.type}`);
        assert.equal(events.filter((e) => e.type === "done" || e.type === "error").length, 1);
        assert.ok(last.type === "error");
        assert.equal(last.errorKind, cut.errorKind);
        const final = last.message;
        assert.equal(final.stopReason, "error");
        assert.match(final.errorMessage ?? "", cut.message);
        assert.match(final.errorMessage ?? "", /tool call "write" was cut off/);
        // The text before the call is kept; the part of the arguments that arrived was streamed as deltas.
        assert.ok(final.content.some((c) => c.type === "text" && c.text.length > 0));
        const streamedArgs = events
          .filter((e): e is Extract<StreamEvent, { type: "toolcall_delta" }> => e.type === "toolcall_delta")
          .map((e) => e.delta)
          .join("");
        assert.equal(streamedArgs, ARGS_JSON.slice(0, SENT), "the fake server really cut inside the arguments");
        // Never a half-parsed call that looks whole: the received text is kept only in argumentsError (pi-ai's
        // field for arguments that are not JSON), the arguments are empty.
        const calls = toolCalls(final);
        assert.equal(calls.length, 1);
        assert.equal(calls[0].name, "write");
        assert.deepEqual(calls[0].arguments, {});
        assert.equal(calls[0].argumentsError, `The arguments were cut off after: ${ARGS_JSON.slice(0, SENT)}`);
      });
    }

    it("completeText rejects with the same error instead of returning the partial call", async () => {
      fake.enqueue(cutReply("destroy"));
      await assert.rejects(completeText(req()), (e: unknown) => {
        assert.ok(e instanceof ProviderError);
        assert.equal(e.kind, "unreachable");
        assert.equal(e.partial?.stopReason, "error");
        return true;
      });
    });

    it("a call whose arguments all arrived before the cut is still not a finished reply", async () => {
      fake.enqueue({ ...cutReply("destroy"), sentArgChars: ARGS_JSON.length });
      const { errorKind, message } = await lastEvent(streamCompletion(req()));
      assert.equal(errorKind, "unreachable");
      assert.equal(message.stopReason, "error");
      assert.match(message.errorMessage ?? "", /was lost mid-reply/);
    });

    it("the agent loop never runs the cut call and answers it with a 'not run' result", async () => {
      fake.enqueue(cutReply("destroy"));
      const ran: Record<string, unknown>[] = [];
      const appended: AgentMessage[] = [];
      const events: AgentEvent[] = [];
      const ac = new AbortController();
      await runAgentLoop({
        signal: ac.signal,
        maxTurns: 3,
        tools: [recordingWrite(ran)],
        approve: async () => ({ approved: true }),
        cwd: ".",
        stream: streamCompletion,
        emit: (e) => events.push(e),
        redact: (r) => r,
        append: (m) => appended.push(m),
        flushQueued: () => {},
        hasTriggeredMessages: () => false,
        compactIfNeeded: async () => {},
        compactForOverflow: async () => false,
        canCompact: false,
        buildRequest: async () => ({ ...req(), tools: [recordingWrite(ran)] }),
      });
      assert.deepEqual(ran, [], "the tool never ran");
      assert.equal(appended.length, 2, "the failed reply, then one result for its call; no second model call");
      const [reply, result] = appended;
      assert.ok(reply.role === "assistant" && reply.stopReason === "error");
      assert.ok(result.role === "toolResult" && result.isError && result.toolCallId === "call_cut");
      assert.ok(events.some((e) => e.type === "error" && /tool call "write" was cut off/.test(e.error)));
    });
  });
}

async function lastEvent(
  stream: AsyncIterable<StreamEvent>,
): Promise<{ errorKind?: string; message: AssistantMessage; type: string }> {
  let last: StreamEvent | undefined;
  for await (const e of stream) last = e;
  assert.ok(last && (last.type === "done" || last.type === "error"));
  return { type: last.type, message: last.message, errorKind: last.type === "error" ? last.errorKind : undefined };
}
