/**
 * One compaction: prepare, let hooks cancel or supply the summary, summarize (model or extractive),
 * append the compaction entry, notify. Nothing is written on cancel, failure or abort.
 */
import type { AgentEvent } from "../agent/events.js";
import type { Usage } from "../messages.js";
import type { CompactionPreparation } from "../hooks/hook-events.js";
import type { SummarySource } from "../agent/summary-source.js";
import type { HookRunner } from "../hooks/hook-runner.js";
import type { ModelInfo } from "../providers/types.js";
import type { SessionManager } from "../session/session-manager.js";
import type { CompactionEntry, SessionEntry } from "../session/types.js";
import { SummaryAbortedError, summarize } from "../summary/summarize.js";
import { prepareCompaction, type PreparedCompaction } from "./prepare.js";
import type { CompactionSettings } from "./settings.js";
import { errorText } from "../error-text.js";

/** What a compaction needs from the session. */
export interface CompactionEnv {
  sessionManager: SessionManager;
  hooks: HookRunner;
  model?: ModelInfo;
  settings: CompactionSettings;
  summarySource: () => Promise<SummarySource>;
  emit: (event: AgentEvent) => void;
}

/** Outcome of {@link runCompaction}. */
export type CompactionOutcome =
  | { status: "done"; entry: CompactionEntry }
  | { status: "nothing" | "cancelled" | "aborted" }
  | { status: "failed"; error: string };

/** Thrown by AgentSession.compact() when compaction fails. */
export class CompactionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CompactionError";
  }
}

/** Runs a compaction and reports it through compaction_start / compaction_end. Never throws. */
export async function runCompaction(
  env: CompactionEnv,
  reason: "manual" | "threshold" | "overflow",
  customInstructions: string | undefined,
  signal: AbortSignal,
): Promise<CompactionOutcome> {
  const sm = env.sessionManager;
  let path: SessionEntry[];
  let prepared: PreparedCompaction | undefined;
  try {
    path = sm.getPath();
    prepared = prepareCompaction(path, sm.buildSessionContext().messages, env.settings.keepRecentTokens);
  } catch (err) {
    const error = errorText(err);
    env.emit({ type: "error", error: `Compaction failed: ${error}`, source: "compaction" });
    return { status: "failed", error };
  }
  if (!prepared) {
    // Automatic checks repeat before every model call: only a manual request is told there is nothing to do.
    if (reason === "manual") {
      env.emit({ type: "compaction_start", reason });
      env.emit({
        type: "compaction_end",
        error: "Nothing to compact yet: the conversation is shorter than what is kept",
      });
    }
    return { status: "nothing" };
  }
  env.emit({ type: "compaction_start", reason });
  try {
    const preparation: CompactionPreparation = {
      firstKeptEntryId: prepared.firstKeptEntryId,
      messagesToSummarize: prepared.messagesToSummarize,
      tokensBefore: prepared.tokensBefore,
      previousSummary: prepared.previousSummary,
      fileOps: prepared.fileOps,
    };
    const hook = await env.hooks.emitBefore("session_before_compact", {
      type: "session_before_compact",
      preparation,
      previousCompactions: prepared.previousCompactions,
      customInstructions,
      model: env.model,
      signal,
    });
    if (hook?.cancel) {
      env.emit({ type: "compaction_end", error: "Compaction cancelled by a hook" });
      return { status: "cancelled" };
    }
    if (signal.aborted) throw new SummaryAbortedError();

    let summary: string;
    let details: unknown;
    let firstKeptEntryId = prepared.firstKeptEntryId;
    let fromHook = false;
    let usage: Usage | undefined;
    if (hook?.compaction && typeof hook.compaction.summary === "string") {
      summary = hook.compaction.summary;
      details = hook.compaction.details;
      usage = hook.compaction.usage;
      fromHook = true;
      const kept = hook.compaction.firstKeptEntryId;
      if (kept !== undefined) {
        if (!path.some((e) => e.id === kept))
          throw new Error(`Hook compaction names firstKeptEntryId "${kept}", which is not on the current path`);
        firstKeptEntryId = kept;
      }
    } else {
      const source = await env.summarySource();
      const result = await summarize({
        kind: "compaction",
        messages: prepared.messagesToSummarize,
        fileOps: prepared.fileOps,
        previousSummary: prepared.previousSummary,
        customInstructions,
        reserveTokens: env.settings.reserveTokens,
        signal,
        ...source,
      });
      summary = result.summary;
      details = result.details;
      usage = result.usage;
    }
    if (signal.aborted) throw new SummaryAbortedError();

    const id = sm.appendCompaction(
      summary,
      firstKeptEntryId,
      prepared.tokensBefore,
      details,
      fromHook || undefined,
      usage,
    );
    const entry = sm.getEntry(id) as CompactionEntry;
    await env.hooks.emit("session_compact", { type: "session_compact", compactionEntry: entry, fromHook });
    env.emit({ type: "compaction_end", entryId: id });
    return { status: "done", entry };
  } catch (err) {
    if (err instanceof SummaryAbortedError || signal.aborted) {
      env.emit({ type: "compaction_end", aborted: true });
      return { status: "aborted" };
    }
    const error = errorText(err);
    env.emit({ type: "compaction_end", error });
    env.emit({ type: "error", error: `Compaction failed: ${error}`, source: "compaction" });
    return { status: "failed", error };
  }
}
