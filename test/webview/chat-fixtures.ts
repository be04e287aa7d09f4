/** Shared test data for the chat view's tests. */
import type { ChatMessageDto } from "../../src/shared/protocol.js";

/** A chat message as the host sends it (timestamp 1 unless `extra` says otherwise). */
export function msg(
  id: string,
  role: ChatMessageDto["role"],
  text: string,
  extra: Partial<ChatMessageDto> = {},
): ChatMessageDto {
  return { id, role, text, timestamp: 1, ...extra };
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
        out.push(
          msg(id, "assistant", `Looking at **${i}**`, { toolCalls: [{ id: `c${i}`, name: "bash", args: "{}" }] }),
        );
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
