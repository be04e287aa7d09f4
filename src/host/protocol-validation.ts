/**
 * Boundary check for messages a webview posts. `onDidReceiveMessage` hands the host an untyped value:
 * everything is checked here and a fresh object holding only the known fields is returned, so nothing
 * the webview adds (prototype tricks, huge extras) travels further. Pure: no `vscode` import.
 */
import { MAX_WEBVIEW_TEXT, type CompareToHost, type WebviewCommand, type WebviewToHost } from "../shared/protocol.js";

/** What the validator needs to know about the session. */
export interface ValidationContext {
  /** True when the current session has an entry with this id. */
  hasEntry(id: string): boolean;
}

/** Either the cleaned message or why it was refused. */
export type ValidationResult = { ok: true; message: WebviewToHost } | { ok: false; reason: string };

const WEBVIEW_COMMANDS: readonly WebviewCommand[] = [
  "newSession",
  "openSession",
  "compact",
  "setApiKey",
  "selectModel",
  "exportHtml",
];
const TREE_ACTIONS = ["label", "fork", "copy", "summarizeSwitch", "archive", "unarchive", "delete"] as const;
const NAVIGATE_MODES = ["ask", "summarize", "none"] as const;
/** Entry ids are 8 hex chars in pi, but migrated/foreign files may differ; bound them anyway. */
const MAX_ID_LENGTH = 256;

type Fields = Record<string, unknown>;

class Refusal extends Error {}

function refuse(reason: string): never {
  throw new Refusal(reason);
}

function str(o: Fields, key: string, max = MAX_WEBVIEW_TEXT): string {
  const v = o[key];
  if (typeof v !== "string") refuse(`field "${key}" must be a string`);
  if (v.length > max) refuse(`field "${key}" is too long (${v.length} > ${max})`);
  return v;
}

function entryId(o: Fields, ctx: ValidationContext, key = "entryId"): string {
  const id = str(o, key, MAX_ID_LENGTH);
  if (id.length === 0) refuse(`field "${key}" is empty`);
  if (!ctx.hasEntry(id)) refuse(`unknown entry id "${id}"`);
  return id;
}

function oneOf<T extends string>(o: Fields, key: string, allowed: readonly T[]): T {
  const v = o[key];
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) {
    refuse(`field "${key}" must be one of ${allowed.join(", ")}`);
  }
  return v as T;
}

function optionalBool(o: Fields, key: string): boolean | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== "boolean") refuse(`field "${key}" must be a boolean`);
  return v;
}

function bool(o: Fields, key: string): boolean {
  const v = optionalBool(o, key);
  if (v === undefined) refuse(`field "${key}" is required`);
  return v;
}

function requestId(o: Fields): number {
  const v = o.requestId;
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    refuse(`field "requestId" must be a non-negative integer`);
  return v;
}

function parse(o: Fields, ctx: ValidationContext): WebviewToHost {
  const type = o.type;
  if (typeof type !== "string") refuse(`field "type" must be a string`);
  switch (type) {
    case "ready":
      return { type, view: oneOf(o, "view", ["tree", "chat"] as const) };
    case "tree/navigate": {
      const id = entryId(o, ctx);
      if (o.mode === undefined) return { type, entryId: id };
      return { type, entryId: id, mode: oneOf(o, "mode", NAVIGATE_MODES) };
    }
    case "tree/requestText":
      return { type, requestId: requestId(o), entryId: entryId(o, ctx) };
    case "tree/action":
      return { type, action: oneOf(o, "action", TREE_ACTIONS), entryId: entryId(o, ctx) };
    case "chat/submit": {
      const text = str(o, "text");
      if (text.trim().length === 0) refuse(`field "text" is empty`);
      return { type, text };
    }
    case "chat/abort":
      return { type };
    case "chat/approve": {
      const always = optionalBool(o, "always");
      const msg: WebviewToHost = {
        type,
        toolCallId: str(o, "toolCallId", MAX_ID_LENGTH),
        approved: bool(o, "approved"),
      };
      return always === undefined ? msg : { ...msg, always };
    }
    case "chat/selectModel":
      return { type, key: str(o, "key", MAX_ID_LENGTH * 2) };
    case "command":
      return { type, command: oneOf(o, "command", WEBVIEW_COMMANDS) };
    default:
      return refuse(`unknown message type "${type.slice(0, 64)}"`);
  }
}

/** Check a message from a webview; never throws. */
export function validateWebviewMessage(raw: unknown, ctx: ValidationContext): ValidationResult {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: "message is not an object" };
  }
  try {
    return { ok: true, message: parse(raw as Fields, ctx) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, reason: e.message };
    // hasEntry threw (session closing): refuse rather than crash the host.
    return { ok: false, reason: `validation failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function nonNegativeInt(o: Fields, key: string, max = Number.MAX_SAFE_INTEGER): number {
  const v = o[key];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0 || v > max)
    refuse(`field "${key}" must be an integer from 0 to ${max}`);
  return v;
}

/** Longest file path a compare panel may name. */
const MAX_PATH_LENGTH = 4096;
/** Most turns a compare panel may ask for at once (the host caps pages lower still). */
const MAX_TURNS_REQUEST = 1000;

function parseCompare(o: Fields, ctx: ValidationContext): CompareToHost {
  const type = o.type;
  if (typeof type !== "string") refuse(`field "type" must be a string`);
  switch (type) {
    case "compare/ready":
      return { type };
    case "compare/requestTurns":
      return { type, start: nonNegativeInt(o, "start"), count: nonNegativeInt(o, "count", MAX_TURNS_REQUEST) };
    case "compare/reveal":
      return { type, entryId: entryId(o, ctx) };
    case "compare/openFile": {
      const path = str(o, "path", MAX_PATH_LENGTH);
      if (path.length === 0) refuse(`field "path" is empty`);
      return { type, path };
    }
    default:
      return refuse(`unknown message type "${type.slice(0, 64)}"`);
  }
}

/**
 * Check a message from a compare panel; never throws. `ctx.hasEntry` answers for the session the comparison
 * was made in.
 */
export function validateCompareMessage(
  raw: unknown,
  ctx: ValidationContext,
): { ok: true; message: CompareToHost } | { ok: false; reason: string } {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: "message is not an object" };
  }
  try {
    return { ok: true, message: parseCompare(raw as Fields, ctx) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, reason: e.message };
    return { ok: false, reason: `validation failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The object a webview context-menu command receives (`data-vscode-context`). */
export interface EntryContextArg {
  entryId: string;
}

/**
 * Check the argument of a `webview/context` command. The object comes from the webview's DOM, so
 * it is as untrusted as a posted message.
 */
export function parseEntryContextArg(arg: unknown, ctx: ValidationContext): EntryContextArg | undefined {
  if (typeof arg !== "object" || arg === null) return undefined;
  const id = (arg as Fields).entryId;
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID_LENGTH) return undefined;
  try {
    return ctx.hasEntry(id) ? { entryId: id } : undefined;
  } catch {
    return undefined;
  }
}
