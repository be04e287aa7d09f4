/** Runtime checks of tool arguments (they come from a model, so anything is possible). */
import type { ToolContext, ToolResult } from "./types.js";
import { errorText } from "../error-text.js";
import { FileChangedSinceReviewError } from "./reviewed-file.js";

/** A bad argument; reported to the model as an error result. */
export class ToolArgError extends Error {}

/** Required non-empty-able string. */
export function reqString(args: Record<string, unknown>, name: string, allowEmpty = false): string {
  const v = args[name];
  if (typeof v !== "string") throw new ToolArgError(`Missing or invalid "${name}": expected a string.`);
  if (!allowEmpty && v === "") throw new ToolArgError(`"${name}" must not be empty.`);
  return v;
}

/** Optional string. */
export function optString(args: Record<string, unknown>, name: string): string | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new ToolArgError(`Invalid "${name}": expected a string.`);
  return v;
}

/** Optional integer ≥ min (numeric strings accepted: some models send them). */
export function optInt(args: Record<string, unknown>, name: string, min: number): number | undefined {
  let v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v.trim())) v = Number(v);
  if (typeof v !== "number" || !Number.isFinite(v)) throw new ToolArgError(`Invalid "${name}": expected a number.`);
  const n = Math.floor(v);
  if (n < min) throw new ToolArgError(`Invalid "${name}": must be at least ${min}.`);
  return n;
}

/** Optional boolean. */
export function optBool(args: Record<string, unknown>, name: string): boolean | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (v === "true" || v === "false") return v === "true";
  if (typeof v !== "boolean") throw new ToolArgError(`Invalid "${name}": expected true or false.`);
  return v;
}

/** A text-only result. */
export function textResult(text: string, isError = false, details?: unknown): ToolResult {
  const r: ToolResult = { content: [{ type: "text", text }] };
  if (isError) r.isError = true;
  if (details !== undefined) r.details = details;
  return r;
}

/**
 * Wrap a tool body: unparseable arguments (`_raw`) and any thrown error become an error result,
 * so a tool never crashes the agent loop — except FileChangedSinceReviewError, which is no failure of the call
 * but the agent loop's cue to show the new diff and ask again (reviewed-file.ts).
 */
export function guarded(
  name: string,
  body: (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult>,
): (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolResult> {
  return async (args, ctx) => {
    if (typeof args !== "object" || args === null) return textResult(`${name}: arguments must be an object.`, true);
    if (typeof args._raw === "string" && Object.keys(args).length === 1) {
      return textResult(`${name}: the arguments were not valid JSON: ${args._raw.slice(0, 500)}`, true);
    }
    if (ctx.signal?.aborted) return textResult(`${name}: aborted before it started.`, true);
    try {
      return await body(args, ctx);
    } catch (e) {
      if (e instanceof FileChangedSinceReviewError) throw e;
      const msg = errorText(e);
      return textResult(`${name}: ${msg}`, true);
    }
  };
}
