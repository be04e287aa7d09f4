/**
 * Boundary check for messages a webview posts. `onDidReceiveMessage` hands the host an untyped value:
 * everything is checked here and a fresh object holding only the known fields is returned, so nothing
 * the webview adds (prototype tricks, huge extras) travels further. Pure: no `vscode` import.
 *
 * Each direction is a table with one parser per message type (MessageParsers), typed against
 * src/shared/protocol.ts: a message type added there does not compile until it has its parser here.
 */
import * as path from "node:path";
import { imageProblem, MAX_IMAGE_BASE64, MAX_IMAGES_PER_MESSAGE } from "../../core/mentions/image-attachment.js";
import type { NavigateMode } from "../../core/agent/navigate-types.js";
import { THINKING_LEVELS } from "../../core/providers/thinking-levels.js";
import {
  MAX_WEBVIEW_TEXT,
  TREE_KEY_COMMANDS,
  WATCH_ACTIONS,
  WEBVIEW_COMMANDS,
  type CompareToHost,
  type ImageDto,
  type MentionDto,
  type WebviewToHost,
} from "../../shared/protocol.js";
import { errorText } from "../../core/error-text.js";

/** What the validator needs to know about the session. */
export interface ValidationContext {
  /** True when the current session has an entry with this id. */
  hasEntry(id: string): boolean;
}

/** Either the cleaned message or why it was refused. */
export type Validated<M> = { ok: true; message: M } | { ok: false; reason: string };

/** A webview message checked. */
export type ValidationResult = Validated<WebviewToHost>;

/** The modes a webview may ask a navigation for ("choose" is the host's own command). */
const NAVIGATE_MODES: Readonly<Record<Exclude<NavigateMode, "choose">, true>> = {
  ask: true,
  summarize: true,
  none: true,
};
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

/** A non-empty id (tool call, queued message, model key): an empty one names nothing. */
function id(o: Fields, key: string, max = MAX_ID_LENGTH): string {
  const v = str(o, key, max);
  if (v.length === 0) refuse(`field "${key}" is empty`);
  return v;
}

function entryId(o: Fields, ctx: ValidationContext, key = "entryId"): string {
  const v = id(o, key);
  if (!ctx.hasEntry(v)) refuse(`unknown entry id "${v}"`);
  return v;
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

function index(o: Fields, key: string): number {
  const v = o[key];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    refuse(`field "${key}" must be a non-negative integer`);
  return v;
}

function requestId(o: Fields): number {
  return index(o, "requestId");
}

/** One parser per message type of `M`: each returns a fresh message of its type, or refuses. */
export type MessageParsers<M extends { type: string }> = {
  readonly [T in M["type"]]: (o: Fields, ctx: ValidationContext) => Extract<M, { type: T }>;
};

/** Parsers of the messages the tree and chat views post. */
export const WEBVIEW_PARSERS: MessageParsers<WebviewToHost> = {
  ready: (o) => ({ type: "ready", view: oneOf(o, "view", ["tree", "chat"] as const) }),
  "tree/navigate": (o, ctx) => {
    const id = entryId(o, ctx);
    if (o.mode === undefined) return { type: "tree/navigate", entryId: id };
    return { type: "tree/navigate", entryId: id, mode: oneOf(o, "mode", keysOf(NAVIGATE_MODES)) };
  },
  "tree/requestText": (o, ctx) => ({ type: "tree/requestText", requestId: requestId(o), entryId: entryId(o, ctx) }),
  "tree/showArchived": (o) => ({ type: "tree/showArchived", show: bool(o, "show") }),
  "tree/action": (o, ctx) => ({
    type: "tree/action",
    command: oneOf(o, "command", TREE_KEY_COMMANDS),
    entryId: entryId(o, ctx),
  }),
  "chat/submit": (o) => {
    const text = str(o, "text");
    if (text.trim().length === 0) refuse(`field "text" is empty`);
    const out: Extract<WebviewToHost, { type: "chat/submit" }> = { type: "chat/submit", text };
    if (o.mentions !== undefined) out.mentions = mentions(o.mentions);
    if (o.images !== undefined) out.images = images(o.images);
    return out;
  },
  "chat/complete": (o) => ({
    type: "chat/complete",
    requestId: requestId(o),
    trigger: oneOf(o, "trigger", ["@", "/"] as const),
    query: str(o, "query", MAX_QUERY_LENGTH),
  }),
  "chat/dropFiles": (o) => {
    const uris = o.uris;
    if (!Array.isArray(uris) || uris.length > MAX_MENTIONS)
      refuse(`field "uris" must be an array of at most ${MAX_MENTIONS}`);
    return {
      type: "chat/dropFiles",
      uris: uris.map((_, i) => str(uris as unknown as Fields, String(i), MAX_PATH_LENGTH)),
    };
  },
  "chat/requestOlder": (o, ctx) => ({
    type: "chat/requestOlder",
    requestId: requestId(o),
    before: index(o, "before"),
    beforeId: entryId(o, ctx, "beforeId"),
  }),
  "chat/abort": () => ({ type: "chat/abort" }),
  "chat/approve": (o) => {
    const always = optionalBool(o, "always");
    const allInRun = optionalBool(o, "allInRun");
    const inWorkspace = optionalBool(o, "inWorkspace");
    const toolCallId = id(o, "toolCallId");
    const approved = bool(o, "approved");
    return {
      type: "chat/approve",
      toolCallId,
      approved,
      ...(always === undefined ? {} : { always }),
      ...(allInRun === undefined ? {} : { allInRun }),
      ...(inWorkspace === undefined ? {} : { inWorkspace }),
    };
  },
  "chat/queue": (o) => {
    const text = str(o, "text");
    if (text.trim().length === 0) refuse(`field "text" is empty`);
    const out: Extract<WebviewToHost, { type: "chat/queue" }> = {
      type: "chat/queue",
      kind: oneOf(o, "kind", ["steer", "followUp"] as const),
      text,
    };
    if (o.mentions !== undefined) out.mentions = mentions(o.mentions);
    if (o.images !== undefined) out.images = images(o.images);
    return out;
  },
  "chat/queueEdit": (o) => ({ type: "chat/queueEdit", id: id(o, "id"), text: str(o, "text") }),
  "chat/queueRemove": (o) => ({ type: "chat/queueRemove", id: id(o, "id") }),
  "chat/selectThinkingLevel": (o) => ({ type: "chat/selectThinkingLevel", level: oneOf(o, "level", THINKING_LEVELS) }),
  "chat/openDiff": (o) => {
    // Every field present is checked, whichever the host would act on; a message naming both is ambiguous.
    const toolCallId = o.toolCallId === undefined ? undefined : id(o, "toolCallId");
    const file = o.file === undefined ? undefined : index(o, "file");
    if (toolCallId !== undefined && file === undefined) return { type: "chat/openDiff", toolCallId };
    if (file !== undefined && toolCallId === undefined) return { type: "chat/openDiff", file };
    refuse(`either "toolCallId" or "file" is required, not both`);
  },
  "chat/selectModel": (o) => ({ type: "chat/selectModel", key: id(o, "key", MAX_ID_LENGTH * 2) }),
  "chat/watchAction": (o) => ({ type: "chat/watchAction", action: oneOf(o, "action", WATCH_ACTIONS) }),
  "chat/continueAside": (o, ctx) => ({ type: "chat/continueAside", asideId: entryId(o, ctx, "asideId") }),
  command: (o) => ({ type: "command", command: oneOf(o, "command", WEBVIEW_COMMANDS) }),
};

/** Most mentions one message may carry. */
const MAX_MENTIONS = 100;
/** Longest query of a completion request. */
const MAX_QUERY_LENGTH = 1000;

function optionalLine(o: Fields, key: string): number | undefined {
  if (o[key] === undefined) return undefined;
  const v = index(o, key);
  if (v < 1) refuse(`field "${key}" must be a line number from 1`);
  return v;
}

/** The objects of an array field of at most `max` items (`item` names one in the refusal). */
function objects(raw: unknown, field: string, max: number, item: string): Fields[] {
  if (!Array.isArray(raw) || raw.length > max) refuse(`field "${field}" must be an array of at most ${max}`);
  return raw.map((m: unknown): Fields => {
    if (typeof m !== "object" || m === null || Array.isArray(m)) refuse(`${item} must be an object`);
    return m as Fields;
  });
}

/** A path string without NUL (which no file system takes, and which cuts a C string short). */
function pathString(o: Fields, key: string): string {
  const v = str(o, key, MAX_PATH_LENGTH);
  if (v.includes("\0")) refuse(`field "${key}" holds a NUL character`);
  return v;
}

/**
 * A mention's folder (`root`, absolute and normalized: the host compares it with the workspace folders as they
 * are) and its place in it (`path`, relative, not leaving the folder). Refused here, before the attach step
 * checks them again against the workspace and its links.
 */
function mentionPlace(f: Fields): { root: string; path: string } {
  const root = pathString(f, "root");
  if (!path.isAbsolute(root) || path.normalize(root) !== root)
    refuse(`field "root" must be an absolute path, normalized (a workspace folder)`);
  const rel = pathString(f, "path");
  if (rel.length === 0) refuse(`field "path" is empty`);
  if (path.isAbsolute(rel) || path.posix.isAbsolute(rel) || path.win32.isAbsolute(rel))
    refuse(`field "path" must be relative to "root"`);
  const up = path.relative(root, path.resolve(root, rel));
  if (up === ".." || up.startsWith(`..${path.sep}`) || path.isAbsolute(up))
    refuse(`field "path" leads outside its root`);
  return { root, path: rel };
}

function mentions(raw: unknown): MentionDto[] {
  return objects(raw, "mentions", MAX_MENTIONS, "a mention").map((f): MentionDto => {
    const label = str(f, "label", MAX_PATH_LENGTH);
    if (!label.startsWith("@") || label.length < 2) refuse(`field "label" must start with @ and name something`);
    const { root, path: rel } = mentionPlace(f);
    const out: MentionDto = { label, path: rel, root };
    if (f.text !== undefined) out.text = str(f, "text");
    const startLine = optionalLine(f, "startLine");
    const endLine = optionalLine(f, "endLine");
    // Lines are a selection's: they come with its text, from a first line to a last one.
    if ((startLine !== undefined || endLine !== undefined) && out.text === undefined)
      refuse(`a mention has lines only with "text" (a selection)`);
    if (endLine !== undefined && startLine === undefined) refuse(`field "endLine" without "startLine"`);
    if (startLine !== undefined && endLine !== undefined && endLine < startLine)
      refuse(`field "endLine" before "startLine"`);
    if (startLine !== undefined) out.startLine = startLine;
    if (endLine !== undefined) out.endLine = endLine;
    return out;
  });
}

function images(raw: unknown): ImageDto[] {
  return objects(raw, "images", MAX_IMAGES_PER_MESSAGE, "an image").map((f): ImageDto => {
    const img = { mimeType: str(f, "mimeType", 100), data: str(f, "data", MAX_IMAGE_BASE64) };
    const problem = imageProblem(img);
    if (problem) refuse(problem);
    return img;
  });
}

function keysOf<K extends string>(set: Readonly<Record<K, true>>): K[] {
  return Object.keys(set) as K[];
}

/** Check `raw` against a parser table; never throws. */
function validateWith<M extends { type: string }>(
  parsers: MessageParsers<M>,
  raw: unknown,
  ctx: ValidationContext,
): Validated<M> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { ok: false, reason: "message is not an object" };
  }
  try {
    const o = raw as Fields;
    const type = o.type;
    if (typeof type !== "string") refuse(`field "type" must be a string`);
    // Own keys only: "constructor" or "__proto__" name no parser.
    if (!Object.hasOwn(parsers, type)) refuse(`unknown message type "${type.slice(0, 64)}"`);
    const parse = parsers[type as M["type"]] as (o: Fields, ctx: ValidationContext) => M;
    return { ok: true, message: parse(o, ctx) };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, reason: e.message };
    // hasEntry threw (session closing): refuse rather than crash the host.
    return { ok: false, reason: `validation failed: ${errorText(e)}` };
  }
}

/** Check a message from a webview; never throws. */
export function validateWebviewMessage(raw: unknown, ctx: ValidationContext): ValidationResult {
  return validateWith(WEBVIEW_PARSERS, raw, ctx);
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

/** Parsers of the messages a compare panel posts. */
export const COMPARE_PARSERS: MessageParsers<CompareToHost> = {
  "compare/ready": () => ({ type: "compare/ready" }),
  "compare/requestTurns": (o) => ({
    type: "compare/requestTurns",
    start: nonNegativeInt(o, "start"),
    count: nonNegativeInt(o, "count", MAX_TURNS_REQUEST),
  }),
  "compare/reveal": (o, ctx) => ({ type: "compare/reveal", entryId: entryId(o, ctx) }),
  "compare/openFile": (o) => {
    const path = str(o, "path", MAX_PATH_LENGTH);
    if (path.length === 0) refuse(`field "path" is empty`);
    return { type: "compare/openFile", path };
  },
};

/**
 * Check a message from a compare panel; never throws. `ctx.hasEntry` answers for the session the comparison
 * was made in.
 */
export function validateCompareMessage(raw: unknown, ctx: ValidationContext): Validated<CompareToHost> {
  return validateWith(COMPARE_PARSERS, raw, ctx);
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
