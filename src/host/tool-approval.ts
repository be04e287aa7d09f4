/**
 * Tool-call approval for the AgentSession: auto-approve from settings, "Allow always" remembered for
 * the session, otherwise ask the UI and wait for the answer (or the run's abort). Pure.
 */
import { toolLabel } from "../core/mcp/mcp-display.js";
import type { ReviewedFile } from "../core/tools/reviewed-file.js";
import type { ToolApprovalDecision, ToolApprovalPolicy, ToolApprovalRequest } from "../core/tools/types.js";

/** The setting `agentTree.tools.autoApprove`: every tool, or these tool names. */
export type AutoApprove = boolean | readonly string[];

/** Read the setting; anything malformed means "ask". */
export function parseAutoApprove(value: unknown): AutoApprove {
  if (value === true) return true;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === "string" && v.length > 0);
  return false;
}

/** One line telling the user what the tool is about to do. */
export function summarizeToolCall(toolName: string, args: Record<string, unknown>): string {
  const s = (k: string): string => (typeof args[k] === "string" ? (args[k] as string) : "");
  const clip = (t: string, n = 300): string => (t.length > n ? t.slice(0, n - 1) + "…" : t);
  switch (toolName) {
    case "bash":
      return `Run: ${clip(s("command"))}`;
    case "write":
      return `Write ${s("path")} (${s("content").length} characters)`;
    case "edit":
      return `Edit ${s("path")}`;
    default: {
      let json: string;
      try {
        json = JSON.stringify(args) ?? "";
      } catch {
        json = "";
      }
      // An MCP tool as server/tool, so the question says which server would run it.
      return clip(`${toolLabel(toolName)} ${json}`);
    }
  }
}

/**
 * The question's text: who asks when it is not the agent itself, what the tool will do, and first, when it is asked
 * again because its file changed after the diff was accepted, that (nothing was written).
 */
export function approvalSummary(request: ToolApprovalRequest): string {
  const call = summarizeToolCall(request.toolName, request.args);
  // A run off the leaf that shares the agent's approvals (a subagent) is named, so the user knows who asks.
  const what = request.asker === undefined ? call : `${request.asker}: ${call}`;
  return request.changed === undefined ? what : `${request.changed} Review the new diff.\n${what}`;
}

/** Tools whose calls are reviewed as a diff of the file (Accept, Reject, Accept All in This Run). */
export const EDIT_TOOLS: readonly string[] = ["write", "edit"];

/** Where pending approvals are shown. */
export interface ApprovalUi {
  /** Show the question (chat/approval or a notification). */
  ask(request: ToolApprovalRequest, summary: string): void;
  /** The question is answered or moot (abort): hide it. */
  done(toolCallId: string): void;
  /**
   * What the diff of a pending write or edit showed (src/host/edit-review.ts), passed with its approval so the tool
   * writes only onto that file; undefined when no diff was shown.
   */
  reviewed?(toolCallId: string): ReviewedFile | undefined;
}

/** What the model is told when the user refuses a call (a rejected edit wrote nothing). */
function rejectionReason(toolName: string): string {
  return EDIT_TOOLS.includes(toolName)
    ? "the user rejected this change after reviewing its diff; the file was not changed"
    : "denied by the user";
}

interface Pending {
  request: ToolApprovalRequest;
  resolve(d: ToolApprovalDecision): void;
}

/** Holds pending approvals of one session. */
export class ApprovalBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly always = new Set<string>();
  /** Accept All in This Run: writes and edits run without asking until the run ends. */
  private editsAcceptedInRun = false;

  /**
   * @param needsApproval false for tools that change nothing (the core asks about every call; reads
   *   such as `read`, `grep`, `ls` run without a question).
   */
  constructor(
    private readonly autoApprove: () => AutoApprove,
    private readonly ui: ApprovalUi,
    private readonly needsApproval: (toolName: string) => boolean = () => true,
  ) {}

  /** The policy handed to AgentSession. */
  readonly policy: ToolApprovalPolicy = (request, signal) => {
    const auto = this.autoApprove();
    if (
      !this.needsApproval(request.toolName) ||
      // A file that changed after its diff was accepted is asked about again whatever was allowed: the user's
      // own change is at stake, and nothing was written.
      (request.changed === undefined &&
        (auto === true ||
          (Array.isArray(auto) && auto.includes(request.toolName)) ||
          this.always.has(request.toolName) ||
          (this.editsAcceptedInRun && EDIT_TOOLS.includes(request.toolName))))
    ) {
      return Promise.resolve({ approved: true });
    }
    if (signal?.aborted) return Promise.resolve({ approved: false, reason: "aborted" });
    return new Promise<ToolApprovalDecision>((resolve) => {
      const onAbort = (): void => {
        this.settle(request.toolCallId, { approved: false, reason: "aborted" });
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(request.toolCallId, {
        request,
        resolve: (d) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(d);
        },
      });
      this.ui.ask(request, approvalSummary(request));
    });
  };

  /**
   * An answer from the chat, a notification or the diff editor. `allInRun` (Accept All in This Run) also accepts
   * the other writes and edits waiting now and every one until the run ends. Returns false when nothing was waiting.
   */
  answer(toolCallId: string, approved: boolean, always = false, allInRun = false): boolean {
    const p = this.pending.get(toolCallId);
    if (!p) return false;
    if (approved && always) this.always.add(p.request.toolName);
    const settled = this.settle(
      toolCallId,
      approved ? { approved: true } : { approved: false, reason: rejectionReason(p.request.toolName) },
    );
    if (approved && allInRun) {
      this.editsAcceptedInRun = true;
      for (const [id, other] of [...this.pending])
        if (EDIT_TOOLS.includes(other.request.toolName)) this.settle(id, { approved: true });
    }
    return settled;
  }

  /** The run ended: Accept All in This Run stops. */
  endRun(): void {
    this.editsAcceptedInRun = false;
  }

  /** Tool names allowed for the rest of this session. */
  alwaysAllowed(): string[] {
    return [...this.always];
  }

  /** Pending questions, oldest first (for re-showing after a webview reload). */
  pendingRequests(): ToolApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** Refuse everything still waiting (session switch, dispose). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { approved: false, reason: "session closed" });
  }

  private settle(toolCallId: string, decision: ToolApprovalDecision): boolean {
    const p = this.pending.get(toolCallId);
    if (!p) return false;
    this.pending.delete(toolCallId);
    // Accepted from its diff: the tool runs only on the file the diff showed.
    const reviewed = decision.approved ? this.ui.reviewed?.(toolCallId) : undefined;
    p.resolve(reviewed ? { approved: true, reviewed } : decision);
    this.ui.done(toolCallId);
    return true;
  }
}
