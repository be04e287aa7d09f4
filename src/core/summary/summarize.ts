/**
 * One summary: by the model when one is usable, otherwise (or when forced) by the extractive
 * summarizer. The file lists are appended in both cases, so the result has the same shape.
 */
import type { AgentMessage, AssistantMessage, Usage } from "../messages.js";
import { contentText } from "../messages.js";
import type { ModelInfo, StreamRequest } from "../providers/types.js";
import type { FileOperationDetails } from "../hooks/hook-events.js";
import { estimateTextTokens } from "../compaction/tokens.js";
import { extractiveSummary } from "./extractive.js";
import { formatFileOps } from "./file-ops.js";
import {
  BRANCH_SUMMARY_INSTRUCTIONS,
  COMPACTION_INSTRUCTIONS,
  COMPACTION_UPDATE_INSTRUCTIONS,
  SUMMARIZATION_SYSTEM_PROMPT,
  buildInstructions,
  buildSummaryUserPrompt,
} from "./prompts.js";
import { serializeWithinBudget } from "./serialize.js";
import { errorText } from "../error-text.js";

/** Runs one non-streaming model request (AgentSession passes the providers' completeText). */
export type CompleteFn = (request: StreamRequest) => Promise<AssistantMessage>;

/** The smallest transcript budget ever used, so tiny windows still get something to summarize. */
const MIN_TRANSCRIPT_TOKENS = 256;

/** What to summarize and how. */
export interface SummaryRequest {
  kind: "branch" | "compaction";
  messages: readonly AgentMessage[];
  /** Files read/modified, already merged with earlier summaries' lists. */
  fileOps: Pick<FileOperationDetails, "readFiles" | "modifiedFiles">;
  /** Earlier compaction summary to update (compaction only). */
  previousSummary?: string;
  customInstructions?: string;
  replaceInstructions?: boolean;
  /** The model, its key and a completion function; without all of `model` and `complete` the summary is extractive. */
  model?: ModelInfo;
  apiKey?: string;
  complete?: CompleteFn;
  /** Force the extractive summarizer even when a model is available. */
  extractive?: boolean;
  /** Tokens of the model's window kept free (for the prompt's own text and the reply). */
  reserveTokens: number;
  maxToolResultChars?: number;
  signal?: AbortSignal;
}

/** A finished summary. */
export interface SummaryResult {
  summary: string;
  details: FileOperationDetails;
  /** The model call's tokens and cost (none for an extractive summary), recorded on the entry as pi does. */
  usage?: Usage;
}

/** Thrown when the signal aborts a summary. */
export class SummaryAbortedError extends Error {
  constructor() {
    super("Summarization aborted");
    this.name = "SummaryAbortedError";
  }
}

/** True when a summary with this request would be written by a model. */
export function usesModel(req: Pick<SummaryRequest, "model" | "complete" | "extractive">): boolean {
  return !req.extractive && req.model !== undefined && req.complete !== undefined;
}

/** The request the summarizer model is sent (exported for tests and hooks that want the same prompt). */
export function buildSummaryRequest(req: SummaryRequest & { model: ModelInfo }): StreamRequest {
  const base =
    req.kind === "branch"
      ? BRANCH_SUMMARY_INSTRUCTIONS
      : req.previousSummary
        ? COMPACTION_UPDATE_INSTRUCTIONS
        : COMPACTION_INSTRUCTIONS;
  const instructions = buildInstructions(base, req.customInstructions, req.replaceInstructions);
  const overhead =
    estimateTextTokens(SUMMARIZATION_SYSTEM_PROMPT) +
    estimateTextTokens(instructions) +
    estimateTextTokens(req.previousSummary ?? "") +
    64;
  const budget = Math.max(MIN_TRANSCRIPT_TOKENS, req.model.contextWindow - req.reserveTokens - overhead);
  const transcript = serializeWithinBudget(req.messages, budget, req.maxToolResultChars);
  const maxTokens = Math.max(256, Math.min(req.model.maxTokens, Math.floor(req.reserveTokens * 0.8)));
  return {
    model: req.model,
    systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
    messages: [
      {
        role: "user",
        content: [{ type: "text", text: buildSummaryUserPrompt(transcript.text, instructions, req.previousSummary) }],
        timestamp: Date.now(),
      },
    ],
    apiKey: req.apiKey,
    signal: req.signal,
    maxTokens,
  };
}

/**
 * Writes the summary. Throws {@link SummaryAbortedError} when aborted and an Error with the
 * provider's message when the model call fails; never falls back silently from a configured model.
 */
export async function summarize(req: SummaryRequest): Promise<SummaryResult> {
  if (req.signal?.aborted) throw new SummaryAbortedError();
  const details: FileOperationDetails = {
    readFiles: [...req.fileOps.readFiles],
    modifiedFiles: [...req.fileOps.modifiedFiles],
  };
  let body: string;
  let usage: Usage | undefined;
  if (usesModel(req) && req.model && req.complete) {
    let reply: AssistantMessage;
    try {
      reply = await req.complete(buildSummaryRequest({ ...req, model: req.model }));
    } catch (err) {
      if (req.signal?.aborted || (err as { kind?: unknown }).kind === "aborted") throw new SummaryAbortedError();
      throw new Error(`Summarization failed: ${errorText(err)}`, { cause: err });
    }
    if (req.signal?.aborted || reply.stopReason === "aborted") throw new SummaryAbortedError();
    if (reply.stopReason === "error") throw new Error(`Summarization failed: ${reply.errorMessage ?? "unknown error"}`);
    body = contentText(reply.content).trim();
    if (!body) throw new Error("Summarization failed: the model returned an empty summary");
    usage = reply.usage;
  } else {
    body = extractiveSummary({ messages: req.messages, previousSummary: req.previousSummary });
    details.extractive = true;
  }
  return { summary: body + formatFileOps(details), details, ...(usage ? { usage } : {}) };
}
