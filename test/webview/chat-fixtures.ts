/** Shared test data for the chat view's tests, and opening the chat view on it. */
import { kindIcon, kindTitle } from "../../src/core/entries/kind-words.js";
import { toolCallHint } from "../../src/core/entries/tool-summary.js";
import { toolLabel } from "../../src/core/mcp/mcp-display.js";
import { kindOf } from "../../src/core/session/entry-kinds.js";
import type { ChatMessageDto, ChatUsage, HostToWebview, ModelDto } from "../../src/shared/protocol.js";
import type { ViewOptions, ViewPage, WebviewRig } from "./harness.js";

/** The message that hands the chat view a path. */
export type ChatSnapshot = Extract<HostToWebview, { type: "chat/snapshot" }>;

/** The usage line of a path that has used nothing yet. */
export const NO_USAGE: ChatUsage = { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow: 0 };

/** An Anthropic model with a 200k context. */
export const CLAUDE: ModelDto = {
  key: "anthropic/claude",
  name: "Claude",
  provider: "anthropic",
  contextWindow: 200000,
};

/** An OpenAI model with a 128k context. */
export const GPT: ModelDto = { key: "openai/gpt", name: "GPT", provider: "openai", contextWindow: 128000 };

/** The snapshot of a chat holding `messages` from the path's first one: idle, no model, no usage unless `extra` says. */
export function chatSnapshot(messages: ChatMessageDto[], extra: Partial<ChatSnapshot> = {}): ChatSnapshot {
  return { type: "chat/snapshot", start: 0, keep: false, messages, streaming: false, usage: NO_USAGE, ...extra };
}

/** Open the chat view on `rig` and post it `snapshot`, as the host does when the view becomes visible. */
export async function openChatView(rig: WebviewRig, snapshot: ChatSnapshot, opts: ViewOptions = {}): Promise<ViewPage> {
  const vp = await rig.openView({ ...opts, view: "chat" });
  await vp.send(snapshot);
  return vp;
}

/**
 * A chat message as the host sends it (timestamp 1 unless `extra` says otherwise): its role's title and icon as the
 * entry view names the kind.
 */
export function msg(
  id: string,
  role: ChatMessageDto["role"],
  text: string,
  extra: Partial<ChatMessageDto> = {},
): ChatMessageDto {
  const kind = kindOf("message", role);
  return { id, role, title: kindTitle(kind), icon: kindIcon(kind), text, timestamp: 1, ...extra };
}

/** A turn with one tool call: the question, the call (`bash` running `ls`), its result and `answer`. */
export function toolTurn(answer: string): ChatMessageDto[] {
  return [
    msg("u1", "user", "Question"),
    msg("a1", "assistant", "Looking", { toolCalls: [call("c1", "bash", '{"command":"ls"}')] }),
    msg("r1", "toolResult", "a.txt", { toolCallId: "c1", toolName: "bash" }),
    msg("a2", "assistant", answer),
  ];
}

/** A tool call of a chat message as the host sends it: named and summed up as the entry view does. */
export function call(id: string, name: string, args: string): NonNullable<ChatMessageDto["toolCalls"]>[number] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    parsed = undefined;
  }
  return { id, name, label: toolLabel(name), hint: toolCallHint(name, parsed), args };
}

/** About 10 KB of tool output. */
const BIG_OUTPUT = "output line of a tool\n".repeat(450); // ~10 KB

/** A long path: user, assistant with a tool call, its 10 KB result, assistant markdown; ids m0…m{n-1}. */
export function longPath(n: number): ChatMessageDto[] {
  const out: ChatMessageDto[] = [];
  for (let i = 0; i < n; i++) {
    const id = `m${i}`;
    switch (i % 4) {
      case 0:
        out.push(msg(id, "user", `Question ${i}: ${"why ".repeat(i % 7 === 0 ? 60 : 3)}`));
        break;
      case 1:
        out.push(msg(id, "assistant", `Looking at **${i}**`, { toolCalls: [call(`c${i}`, "bash", "{}")] }));
        break;
      case 2:
        out.push(msg(id, "toolResult", BIG_OUTPUT, { toolCallId: `c${i - 1}`, toolName: "bash" }));
        break;
      default:
        out.push(
          msg(id, "assistant", `Answer ${i}\n\n- point *one*\n- point two\n\n\`\`\`ts\nconst x = ${i};\n\`\`\``),
        );
    }
  }
  return out;
}
