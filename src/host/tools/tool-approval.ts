/**
 * Tool-call approval for the AgentSession: the workspace's rules (agentTree.tools.rules and Claude Code's files:
 * deny wins over everything, an allow rule approves), auto-approve from settings, "Allow always" remembered for
 * the session, otherwise ask the UI and wait for the answer (or the run's abort). A question offers "Always Allow
 * in This Workspace" with the rules it would add. A web_fetch of a loopback or private address always asks, says
 * so, and is never approved by a rule, the setting or "Allow always". Pure.
 */
import { errorText } from "../../core/error-text.js";
import { toolLabel } from "../../core/mcp/mcp-display.js";
import { judgeCall, suggestRules, type RuleSet } from "../../core/tools/rules/tool-rules.js";
import type { ReviewedFile } from "../../core/tools/reviewed-file.js";
import type { ToolApprovalDecision, ToolApprovalPolicy, ToolApprovalRequest } from "../../core/tools/types.js";
import { describeLocal } from "../../core/tools/web/address-kind.js";
import { hostOf, inspectTarget, type FetchTarget } from "../../core/tools/web/fetch-target.js";

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
    case "web_fetch": {
      let host = "";
      try {
        host = hostOf(new URL(s("url")));
      } catch {
        // Not a URL: the tool refuses it; the summary shows what was given.
      }
      return host ? `Fetch ${clip(s("url"))} from ${host}` : `Fetch ${clip(s("url"))}`;
    }
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

/** What a question offers besides Allow and Deny. */
export interface ApprovalOffer {
  /** The rules "Always Allow in This Workspace" adds (empty: that answer is not offered). */
  rules: string[];
  /**
   * The call reaches a loopback or private address ("127.0.0.1 is a loopback address (this computer)"): the
   * question says so, and offers no "always" answer.
   */
  local?: string;
}

/** A question waiting for its answer. */
export interface ApprovalPrompt {
  request: ToolApprovalRequest;
  summary: string;
  offer: ApprovalOffer;
}

/** The workspace's rules: read at each call, and where "Always Allow in This Workspace" writes. */
export interface ApprovalRules {
  /** The rules in force now. */
  current(): Promise<RuleSet>;
  /** Whether new rules can be kept (a trusted workspace with a folder). */
  canAdd(): boolean;
  /** Adds allow rules to the workspace's setting. */
  add(rules: readonly string[]): Promise<void>;
}

/** More of what the broker needs (all optional: without them, no rules and no address checks). */
export interface ApprovalBrokerOptions {
  rules?: ApprovalRules;
  /** The workspace folder: paths and patterns of rules are relative to it. */
  cwd?: string;
  /** Resolves a web_fetch URL's host (default: the system resolver, every address classified). */
  inspectUrl?: (url: URL) => Promise<FetchTarget>;
  /** A rule could not be read or written. */
  onError?: (message: string) => void;
}

/** Where pending approvals are shown. */
export interface ApprovalUi {
  /** Show the question (chat/approval or a notification). */
  ask(request: ToolApprovalRequest, summary: string, offer: ApprovalOffer): void;
  /** The question is answered or moot (abort): hide it. */
  done(toolCallId: string): void;
  /**
   * What the diff of a pending write or edit showed (src/host/review/edit-review.ts), passed with its approval so the tool
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

interface Pending extends ApprovalPrompt {
  resolve(d: ToolApprovalDecision): void;
}

const NO_RULES: RuleSet = { allow: [], deny: [] };

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
    private readonly options: ApprovalBrokerOptions = {},
  ) {}

  /** The policy handed to AgentSession. */
  readonly policy: ToolApprovalPolicy = async (request, signal) => {
    const rules = await this.rulesNow();
    const call = { toolName: request.toolName, args: request.args, cwd: this.options.cwd ?? process.cwd() };
    const verdict = await judgeCall(call, rules);
    if (verdict.kind === "deny") return { approved: false, reason: `denied by the rule ${verdict.rule}` };
    const local = await this.localTarget(request);
    if (local === undefined) {
      const auto = this.autoApprove();
      if (!this.needsApproval(request.toolName)) return { approved: true };
      if (
        // A file that changed after its diff was accepted is asked about again whatever was allowed (a rule, the
        // setting, Allow always): the user's own change is at stake, and nothing was written.
        request.changed === undefined &&
        verdict.kind !== "ask" &&
        (auto === true ||
          (Array.isArray(auto) && auto.includes(request.toolName)) ||
          this.always.has(request.toolName) ||
          (this.editsAcceptedInRun && EDIT_TOOLS.includes(request.toolName)) ||
          verdict.kind === "allow")
      )
        return { approved: true };
    }
    const offer: ApprovalOffer = {
      // A local address is never allowed by a rule, so none is offered.
      rules: local === undefined && this.options.rules?.canAdd() === true ? await suggestRules(call, rules) : [],
      ...(local === undefined ? {} : { local }),
    };
    if (signal?.aborted) return { approved: false, reason: "aborted" };
    return new Promise<ToolApprovalDecision>((resolve) => {
      const onAbort = (): void => {
        this.settle(request.toolCallId, { approved: false, reason: "aborted" });
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const summary = approvalSummary(request);
      this.pending.set(request.toolCallId, {
        request,
        summary,
        offer,
        resolve: (d) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(d);
        },
      });
      this.ui.ask(request, summary, offer);
    });
  };

  /** The rules in force; unreadable ones are reported once per call and count as none. */
  private async rulesNow(): Promise<RuleSet> {
    if (!this.options.rules) return NO_RULES;
    try {
      return await this.options.rules.current();
    } catch (e) {
      this.options.onError?.(`Tool rules could not be read: ${errorText(e)}`);
      return NO_RULES;
    }
  }

  /** For a web_fetch of a loopback or private address, the words that say so; else undefined. */
  private async localTarget(request: ToolApprovalRequest): Promise<string | undefined> {
    if (request.toolName !== "web_fetch" || typeof request.args.url !== "string") return undefined;
    let url: URL;
    try {
      url = new URL(request.args.url);
    } catch {
      return undefined; // the tool refuses it without reaching anything
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    const target = await (this.options.inspectUrl ?? ((u: URL) => inspectTarget(u)))(url);
    if (!target.local) return undefined;
    return describeLocal(target.local.address, target.local.kind, target.host);
  }

  /**
   * An answer from the chat, a notification or the diff editor. `allInRun` (Accept All in This Run) also accepts
   * the other writes and edits waiting now and every one until the run ends; `inWorkspace` (Always Allow in This
   * Workspace) adds the offered rules to the workspace's setting. Returns false when nothing was waiting.
   */
  answer(toolCallId: string, approved: boolean, always = false, allInRun = false, inWorkspace = false): boolean {
    const p = this.pending.get(toolCallId);
    if (!p) return false;
    const local = p.offer.local !== undefined;
    // A local address is approved for this call only, whatever the answer asked for.
    if (approved && always && !local) this.always.add(p.request.toolName);
    if (approved && inWorkspace && !local && p.offer.rules.length > 0 && this.options.rules) {
      this.options.rules
        .add(p.offer.rules)
        .catch((e: unknown) => this.options.onError?.(`The rule could not be saved: ${errorText(e)}`));
    }
    const settled = this.settle(
      toolCallId,
      approved
        ? { approved: true, ...(local ? { localNetwork: true } : {}) }
        : { approved: false, reason: rejectionReason(p.request.toolName) },
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

  /** Pending questions with what they offer, oldest first. */
  pendingPrompts(): ApprovalPrompt[] {
    return [...this.pending.values()].map(({ request, summary, offer }) => ({ request, summary, offer }));
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
    p.resolve(reviewed && decision.approved ? { ...decision, reviewed } : decision);
    this.ui.done(toolCallId);
    return true;
  }
}
