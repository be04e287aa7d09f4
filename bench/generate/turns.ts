/**
 * One conversation turn as pi records it: a user message, assistant tool calls each followed by its tool
 * result, and a closing assistant text. Sizes come from a profile so the same code makes small everyday
 * sessions and the 300 MB one with 10 KB tool outputs.
 */
import { codeText, createRandom, opaque, Pool, prose } from "./text-pool.js";
import type { EntryBody, SessionWriter } from "./session-writer.js";

/** How big the parts of a turn are. */
export interface TurnProfile {
  /** Characters of a user prompt. */
  userChars: number;
  /** Characters of the assistant's closing text. */
  replyChars: number;
  /** Characters of visible thinking on each assistant message (0: none). */
  thinkingChars: number;
  /** Characters of each thinking signature (0: none). */
  signatureChars: number;
  /** Characters of each tool's output. */
  toolOutputChars: number;
  /** Characters of the `content` argument of write/edit calls. */
  toolArgChars: number;
  /** Tool calls per turn: min and max. */
  toolCalls: [number, number];
}

/** Everyday sessions: short prompts, 1 KB tool outputs. */
export const SMALL_PROFILE: TurnProfile = {
  userChars: 160,
  replyChars: 400,
  thinkingChars: 200,
  signatureChars: 0,
  toolOutputChars: 1000,
  toolArgChars: 300,
  toolCalls: [1, 3],
};

/** The heavy session: 10 KB tool outputs, Anthropic-style thinking with signatures, files written in full. */
export const HEAVY_PROFILE: TurnProfile = {
  userChars: 300,
  replyChars: 4000,
  thinkingChars: 4000,
  signatureChars: 2500,
  toolOutputChars: 10_000,
  toolArgChars: 4000,
  toolCalls: [5, 9],
};

const TOOLS = ["read", "bash", "edit", "grep", "write", "ls", "find"];
const USAGE = {
  input: 1200,
  output: 300,
  cacheRead: 9000,
  cacheWrite: 0,
  totalTokens: 10500,
  cost: { input: 0.0036, output: 0.0045, cacheRead: 0.0027, cacheWrite: 0, total: 0.0108 },
};

/** Makes turns with pooled text (so generating 300 MB is bound by JSON.stringify and the disk, not by text). */
export class TurnMaker {
  private readonly random: () => number;
  private readonly users: Pool;
  private readonly replies: Pool;
  private readonly thinking: Pool;
  private readonly signatures: Pool;
  private readonly outputs: Pool;
  private readonly args: Pool;
  private callCounter = 0;

  /** Pools are filled once from `seed`. */
  constructor(
    private readonly profile: TurnProfile,
    seed: number,
  ) {
    this.random = createRandom(seed);
    const r = this.random;
    const vary = (n: number) => Math.max(1, Math.round(n * (0.5 + r())));
    this.users = new Pool(97, () => prose(r, vary(profile.userChars)));
    this.replies = new Pool(89, () => prose(r, vary(profile.replyChars)));
    this.thinking = new Pool(83, () => prose(r, vary(profile.thinkingChars)));
    this.signatures = new Pool(13, () => opaque(r, profile.signatureChars));
    this.outputs = new Pool(61, () => codeText(r, vary(profile.toolOutputChars)));
    this.args = new Pool(41, () => codeText(r, vary(profile.toolArgChars)));
  }

  /** A user message body. */
  user(at: number): EntryBody {
    return { type: "message", message: { role: "user", content: this.users.take(), timestamp: at } };
  }

  /** An assistant message with text and optionally one tool call. */
  assistant(at: number, toolCall?: { id: string; name: string }): EntryBody {
    const content: Record<string, unknown>[] = [];
    if (this.profile.thinkingChars > 0) {
      const block: Record<string, unknown> = { type: "thinking", thinking: this.thinking.take() };
      if (this.profile.signatureChars > 0) block.thinkingSignature = this.signatures.take();
      content.push(block);
    }
    if (toolCall) {
      const args: Record<string, unknown> = { path: `src/core/session/file-${this.callCounter % 50}.ts` };
      if (toolCall.name === "write" || toolCall.name === "edit") args.content = this.args.take();
      if (toolCall.name === "bash") args.command = "npm test -- --grep session";
      content.push({ type: "toolCall", id: toolCall.id, name: toolCall.name, arguments: args });
    } else {
      content.push({ type: "text", text: this.replies.take() });
    }
    return {
      type: "message",
      message: {
        role: "assistant",
        content,
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: USAGE,
        stopReason: toolCall ? "toolUse" : "stop",
        timestamp: at,
      },
    };
  }

  /** A compaction keeping from `firstKeptEntryId` (pi's shape: a structured summary of a few KB). */
  compaction(firstKeptEntryId: string, tokensBefore: number): EntryBody {
    const summary = `## Goal\n${this.users.take()}\n\n## Progress\n${this.replies.take()}\n\n## Next steps\n${this.users.take()}`;
    return { type: "compaction", summary, firstKeptEntryId, tokensBefore };
  }

  /** A tool result body. */
  toolResult(at: number, toolCall: { id: string; name: string }): EntryBody {
    return {
      type: "message",
      message: {
        role: "toolResult",
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        content: [{ type: "text", text: this.outputs.take() }],
        isError: this.random() < 0.03,
        timestamp: at,
      },
    };
  }

  /**
   * Writes one whole turn under `parentId` and returns the id of its last entry.
   * `toolCalls` overrides the profile's random count.
   */
  writeTurn(writer: SessionWriter, parentId: string | null, toolCalls?: number): string {
    const [min, max] = this.profile.toolCalls;
    const calls = toolCalls ?? min + Math.floor(this.random() * (max - min + 1));
    let parent = writer.add(parentId, this.user(writer.nowMs()));
    for (let i = 0; i < calls; i++) {
      const call = { id: `toolu_${(this.callCounter++).toString(36).padStart(8, "0")}`, name: TOOLS[i % TOOLS.length] };
      parent = writer.add(parent, this.assistant(writer.nowMs(), call));
      parent = writer.add(parent, this.toolResult(writer.nowMs(), call));
    }
    return writer.add(parent, this.assistant(writer.nowMs()));
  }
}
