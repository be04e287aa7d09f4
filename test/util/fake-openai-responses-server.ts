/**
 * A fake OpenAI Responses API server on 127.0.0.1 speaking its SSE wire format (`response.created`,
 * `response.output_item.added`, `response.output_text.delta`, `response.function_call_arguments.delta`,
 * `response.reasoning_summary_text.delta`, `response.output_item.done`, `response.completed`), for tests that drive
 * pi-ai's `openai-responses` API (the official `openai` SDK's `responses.create`). Scriptable like the other fake
 * servers (FakeReply); the default reply echoes, summarizes or calls `/tool`s.
 *
 *   const fake = await startFakeOpenAIResponses();
 *   // model: { provider: "fake-responses", api: "openai-responses", baseUrl: fake.baseURL, ... }
 */
import http from "node:http";
import * as fake from "./fake-provider-common.js";

type Item = Record<string, unknown>;

/** One SSE event of the Responses stream (its `type` is also the SSE event name). */
function event(res: http.ServerResponse, data: Item): void {
  fake.sse(res, JSON.stringify(data), String(data.type));
}

function view(body: fake.FakeRequestBody): fake.ConversationView {
  const input = Array.isArray(body.input) ? (body.input as Item[]) : [];
  const system = [
    typeof body.instructions === "string" ? body.instructions : "",
    ...input.filter((i) => i.role === "system" || i.role === "developer").map((i) => fake.textOf(i.content)),
  ]
    .filter(Boolean)
    .join("\n");
  const last = input[input.length - 1];
  const lastUser = [...input].reverse().find((i) => i.role === "user");
  const tools = Array.isArray(body.tools) ? (body.tools as { name?: string }[]) : [];
  let lastToolResult: fake.ConversationView["lastToolResult"];
  if (last?.type === "function_call_output") {
    const call = input.find((i) => i.type === "function_call" && i.call_id === last.call_id);
    lastToolResult = {
      toolName: typeof call?.name === "string" ? call.name : undefined,
      text: fake.textOf(last.output),
    };
  }
  return {
    system,
    lastUserText: last?.type === "function_call_output" ? "" : fake.textOf(lastUser?.content),
    allText: input.map((i) => fake.textOf(i.content ?? i.output)).join("\n"),
    toolNames: tools.map((t) => t.name ?? "").filter(Boolean),
    lastToolResult,
  };
}

/** `response.created` with an in-progress response. */
function created(res: http.ServerResponse, model: string): void {
  event(res, {
    type: "response.created",
    response: { id: "resp_fake", object: "response", model, status: "in_progress", output: [] },
  });
}

/** A text message item streamed at `index`, whole. */
async function messageItem(res: http.ServerResponse, index: number, pieces: string[], delay: number): Promise<Item> {
  const id = `msg_fake_${index}`;
  event(res, {
    type: "response.output_item.added",
    output_index: index,
    item: { type: "message", id, role: "assistant", status: "in_progress", content: [] },
  });
  await fake.paced(pieces, delay, (delta) =>
    event(res, { type: "response.output_text.delta", item_id: id, output_index: index, content_index: 0, delta }),
  );
  const item = {
    type: "message",
    id,
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: pieces.join(""), annotations: [] }],
  };
  event(res, { type: "response.output_item.done", output_index: index, item });
  return item;
}

const writeMessage: fake.FakeStreamWriters["message"] = async (res, reply, body, delay) => {
  const model = String(body.model);
  created(res, model);
  const output: Item[] = [];
  let index = 0;
  if (reply.thinking) {
    const id = "rs_fake";
    event(res, {
      type: "response.output_item.added",
      output_index: index,
      item: { type: "reasoning", id, summary: [] },
    });
    await fake.paced(fake.splitChunks(reply.thinking, reply.chunks), delay, (delta) =>
      event(res, {
        type: "response.reasoning_summary_text.delta",
        item_id: id,
        output_index: index,
        summary_index: 0,
        delta,
      }),
    );
    const item = {
      type: "reasoning",
      id,
      summary: [{ type: "summary_text", text: reply.thinking }],
      encrypted_content: reply.signature ?? "enc-fake",
    };
    event(res, { type: "response.output_item.done", output_index: index, item });
    output.push(item);
    index++;
  }
  if (reply.text) output.push(await messageItem(res, index++, fake.splitChunks(reply.text, reply.chunks), delay));
  for (const [n, call] of (reply.toolCalls ?? []).entries()) {
    const args = fake.toolArgs(call);
    const id = `fc_fake_${n}`;
    const callId = call.id ?? `call_fake_${n}`;
    event(res, {
      type: "response.output_item.added",
      output_index: index,
      item: { type: "function_call", id, call_id: callId, name: call.name, arguments: "", status: "in_progress" },
    });
    await fake.paced(fake.argPieces(call), delay, (delta) =>
      event(res, { type: "response.function_call_arguments.delta", item_id: id, output_index: index, delta }),
    );
    event(res, { type: "response.function_call_arguments.done", item_id: id, output_index: index, arguments: args });
    const item = { type: "function_call", id, call_id: callId, name: call.name, arguments: args, status: "completed" };
    event(res, { type: "response.output_item.done", output_index: index, item });
    output.push(item);
    index++;
  }
  const input = reply.usage?.input ?? fake.estimateTokens(JSON.stringify(body.input ?? ""));
  const cached = reply.usage?.cacheRead ?? 0;
  const output_tokens = fake.outputTokens(reply);
  const incomplete = reply.stopReason === "length";
  event(res, {
    type: incomplete ? "response.incomplete" : "response.completed",
    response: {
      id: "resp_fake",
      object: "response",
      model,
      status: incomplete ? "incomplete" : "completed",
      ...(incomplete ? { incomplete_details: { reason: "max_output_tokens" } } : {}),
      output,
      usage: {
        input_tokens: input + cached,
        input_tokens_details: { cached_tokens: cached },
        output_tokens,
        output_tokens_details: { reasoning_tokens: reply.thinking ? fake.estimateTokens(reply.thinking) : 0 },
        total_tokens: input + cached + output_tokens,
      },
    },
  });
};

const protocol: fake.FakeProtocol = {
  basePath: "/v1",
  completionPath: "/v1/responses",
  keyFromHeaders: fake.bearerKey,
  writeError: fake.writeOpenAIError,
  stream: {
    message: writeMessage,
    async cut(res, sent, model, delay) {
      created(res, model);
      const id = "msg_cut";
      event(res, {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "message", id, role: "assistant", status: "in_progress", content: [] },
      });
      await fake.paced(sent.text, delay, (delta) =>
        event(res, { type: "response.output_text.delta", item_id: id, output_index: 0, content_index: 0, delta }),
      );
      if (sent.toolCall) {
        const { name, id: callId = "call_cut_0", args } = sent.toolCall;
        event(res, {
          type: "response.output_item.added",
          output_index: 1,
          item: { type: "function_call", id: "fc_cut", call_id: callId, name, arguments: "", status: "in_progress" },
        });
        await fake.paced(args, delay, (delta) =>
          event(res, { type: "response.function_call_arguments.delta", item_id: "fc_cut", output_index: 1, delta }),
        );
      }
    },
    stall(res, reply, model) {
      created(res, model);
      event(res, {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "message", id: "msg_stall", role: "assistant", status: "in_progress", content: [] },
      });
      event(res, {
        type: "response.output_text.delta",
        item_id: "msg_stall",
        output_index: 0,
        content_index: 0,
        delta: reply.text ?? "Thinking about it",
      });
    },
    streamError(res, reply, model) {
      created(res, model);
      event(res, { type: "error", code: reply.errorType ?? "server_error", message: reply.streamError, param: null });
    },
    malformed(res, reply, model) {
      created(res, model);
      res.write('event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"x"\n\n');
      void reply;
    },
  },
  view,
};

/** Start a fake Responses server; `baseURL` is `http://127.0.0.1:PORT/v1`. */
export const startFakeOpenAIResponses = fake.fakeServerStarter(protocol);

/** The conversation of a Responses request body, as the default reply sees it. */
export function responsesConversationView(body: fake.FakeRequestBody): fake.ConversationView {
  return view(body);
}
