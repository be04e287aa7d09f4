/**
 * What an entry says, decided once: its kind, its title, the facts beside the title, its text, what a tool call or
 * result is about, how a reply failed. The chat, the hover and Copy Text, the session search, the compare view, the
 * exported page and the summaries all show projections of this view; the tree's rows say the same words from the
 * store's extracted fields (row-words.ts). A new kind of entry is worded here (and in kind-words.ts), never in a view;
 * test/core/entries/one-entry-view.test.ts fails when a switch over entry kinds appears elsewhere.
 *
 * Every field is checked before use: entries come from session files, foreign transcripts and exported pages and may
 * hold anything. Pure (no Node or VS Code): the webviews and the exported page bundle it.
 */
import type { AgentMessage } from "../messages.js";
import { toolLabel } from "../mcp/mcp-display.js";
import { attachmentLabelOf, type AttachmentLabel } from "../mentions/user-content.js";
import { archiveMarkerData, isConversationKind, kindOf, type EntryKind } from "../session/entry-kinds.js";
import { LEAF_MARKER_TYPE } from "../session/types.js";
import { blocksText, bookkeepingText } from "./bookkeeping-text.js";
import { BRANCH_RUN_TYPE, CHECKPOINT_TYPE, customTypeWord, IMPORT_TYPE } from "./custom-types.js";
import { kindIcon, kindTitle } from "./kind-words.js";
import { tokensBeforeText } from "./row-words.js";
import { toolCallHint, toolResultSubject } from "./tool-summary.js";

/** An image a message holds (user messages, tool results, hook messages). */
export interface ImageView {
  mimeType: string;
  data: string;
}

/** One tool call of an assistant reply. */
export interface ToolCallView {
  id: string;
  /** The tool's name as the model called it. */
  name: string;
  /** The tool as rows name it (an MCP tool as `server/tool`). */
  label: string;
  /** What it acts on, one line (tool-summary.ts): `src/app.ts`, `3/7` for a todo list; "" for nothing. */
  hint: string;
  /** `label hint`: the call in one line. */
  summary: string;
  /** The arguments as the model sent them. */
  args: unknown;
  /** The arguments as indented JSON. */
  argsText: string;
}

/** What an entry says (see the file comment). */
export interface EntryView {
  kind: EntryKind;
  /** The heading: `User`, `Tool result`, `Checkpoint`. */
  title: string;
  /** The codicon that stands for it. */
  icon: string;
  /** Short facts after the title, in order: the model and tokens of a reply, a tool, an exit code, a custom type. */
  facts: string[];
  /**
   * What it is about, one line: a tool result's `todo 3/7` or tool, a command's `$ npm test`, a custom type, the
   * tokens a compaction replaced.
   */
  subject?: string;
  /** A tool result's tool, as the model called it (what the search and the compare view pair results by). */
  toolName?: string;
  /** Its whole text, plain: a message's text, a tool's output, `$ command` and its output, a summary, a value. */
  text: string;
  /** `text` is prose someone wrote (markdown may apply); else program output or a value, shown as it is. */
  prose: boolean;
  /** A reply's thinking. */
  thinking?: string;
  /** A reply's tool calls. */
  toolCalls?: ToolCallView[];
  /** How a reply ended badly: `Error: …` or `Aborted`. */
  failure?: string;
  /** A failed reply, a failed tool, a command that exited non-zero. */
  isError?: boolean;
  /** How the entry is treated, as a sentence: `Not sent to the model (!!)`, `Hidden from the chat`. */
  note?: string;
  /** A user message's attachments by name (their text is for the model). */
  attachments?: AttachmentLabel[];
  /** Its images. */
  images?: ImageView[];
}

/** What a failed reply says when the provider gave no message. */
const NO_ERROR_MESSAGE = "unknown error";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** Indented JSON of a value, or what it is when it has none (a cycle, a BigInt). */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function imagesOf(content: unknown): ImageView[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((b: unknown) =>
    isRecord(b) && b.type === "image" && typeof b.data === "string" && typeof b.mimeType === "string"
      ? [{ mimeType: b.mimeType, data: b.data }]
      : [],
  );
}

/** A view with the kind's title and icon, and the fields given. */
function view(kind: EntryKind, text: string, prose: boolean, more: Partial<EntryView> = {}): EntryView {
  return { kind, title: kindTitle(kind), icon: kindIcon(kind), facts: [], text, prose, ...more };
}

/** Adds images to a view when there are some. */
function withImages(v: EntryView, content: unknown): EntryView {
  const images = imagesOf(content);
  if (images.length > 0) v.images = images;
  return v;
}

/** A user message: the typed text, its attachments by name and its images. */
function userView(content: unknown): EntryView {
  const typed: string[] = [];
  const attachments: AttachmentLabel[] = [];
  if (typeof content === "string") typed.push(content);
  else if (Array.isArray(content))
    for (const b of content as unknown[]) {
      if (!isRecord(b)) continue;
      if (b.type === "image" && typeof b.mimeType === "string") attachments.push({ kind: "image", name: b.mimeType });
      if (b.type !== "text" || typeof b.text !== "string") continue;
      const label = attachmentLabelOf(b.text);
      if (label) attachments.push(label);
      else typed.push(b.text);
    }
  const v = withImages(view("user", typed.join("\n"), true), content);
  if (attachments.length > 0) v.attachments = attachments;
  return v;
}

function toolCallView(block: Record<string, unknown>): ToolCallView {
  const name = str(block.name);
  const hint = toolCallHint(name, block.arguments);
  const label = toolLabel(name);
  return {
    id: str(block.id),
    name,
    label,
    hint,
    summary: hint === "" ? label : `${label} ${hint}`,
    args: block.arguments,
    argsText: jsonText(block.arguments ?? {}),
  };
}

/** `12 in / 3 out`: the tokens of a reply. */
function tokensFact(usage: unknown): string | undefined {
  if (!isRecord(usage)) return undefined;
  return `${Number(usage.input) || 0} in / ${Number(usage.output) || 0} out`;
}

/** An assistant reply: its text, thinking and tool calls, the model and tokens, how it failed. */
function assistantView(m: Record<string, unknown>): EntryView {
  const text: string[] = [];
  const thinking: string[] = [];
  const calls: ToolCallView[] = [];
  for (const b of Array.isArray(m.content) ? (m.content as unknown[]) : []) {
    if (!isRecord(b)) continue;
    if (b.type === "text" && typeof b.text === "string") text.push(b.text);
    else if (b.type === "thinking" && typeof b.thinking === "string") thinking.push(b.thinking);
    else if (b.type === "toolCall") calls.push(toolCallView(b));
  }
  const v = view("assistant", text.join("\n"), true);
  const model = [str(m.provider), str(m.model)].filter((s) => s !== "").join("/");
  if (model !== "") v.facts.push(model);
  const tokens = tokensFact(m.usage);
  if (tokens !== undefined) v.facts.push(tokens);
  if (thinking.length > 0) v.thinking = thinking.join("\n");
  if (calls.length > 0) v.toolCalls = calls;
  if (m.stopReason === "error") v.failure = `Error: ${str(m.errorMessage) || NO_ERROR_MESSAGE}`;
  else if (m.stopReason === "aborted") v.failure = "Aborted";
  if (v.failure !== undefined) v.isError = true;
  return v;
}

/** A tool result: its output (an image named by a line of its own), its tool, whether it failed. */
function toolResultView(m: Record<string, unknown>): EntryView {
  const images = imagesOf(m.content);
  const text = [blocksText(m.content), ...images.map((i) => `[image ${i.mimeType}]`)].filter((t) => t !== "");
  const name = str(m.toolName);
  const v = view("toolResult", text.join("\n"), false, { subject: toolResultSubject(name, text.join("\n")) });
  if (name !== "") {
    v.toolName = name;
    v.facts.push(toolLabel(name));
  }
  if (m.isError === true) v.isError = true;
  if (images.length > 0) v.images = images;
  return v;
}

/** A command the user ran (`!cmd`): the command, its output and how it ended; `!!` keeps it from the model. */
function bashView(m: Record<string, unknown>): EntryView {
  const command = `$ ${str(m.command)}`;
  const exit = typeof m.exitCode === "number" && m.exitCode !== 0 ? m.exitCode : undefined;
  const outcome = m.cancelled === true ? "cancelled" : exit !== undefined ? `exit code ${exit}` : undefined;
  const text = `${command}\n${str(m.output)}${outcome !== undefined ? `\n(${outcome})` : ""}`;
  const v = view("bashExecution", text, false, { subject: command });
  if (outcome !== undefined) v.facts.push(outcome);
  if (exit !== undefined) v.isError = true;
  if (m.excludeFromContext === true) v.note = "Not sent to the model (!!)";
  return v;
}

/** A hook's message: its text, its custom type, whether the chat shows it. */
function hookMessageView(customType: unknown, content: unknown, display: unknown): EntryView {
  const type = str(customType);
  const v = withImages(view("custom_message", blocksText(content), true), content);
  if (type !== "") {
    v.subject = type;
    v.facts.push(type);
  }
  if (display === false) v.note = "Hidden from the chat";
  return v;
}

function compactionView(summary: unknown, tokensBefore: unknown): EntryView {
  const v = view("compaction", str(summary), true);
  if (typeof tokensBefore === "number") {
    v.subject = tokensBeforeText(tokensBefore);
    v.facts.push(v.subject);
  }
  return v;
}

/** pi 1.5's recorded system prompt: its content, then its sections. */
function systemView(m: Record<string, unknown>): EntryView {
  const sections = isRecord(m.sections) ? Object.values(m.sections) : [];
  const parts = [blocksText(m.content), ...sections.filter((s): s is string => typeof s === "string")];
  return view("system", parts.filter((p) => p !== "").join("\n\n"), true);
}

/** What a message says; a message of a role this version does not know reads as its JSON. */
export function messageView(message: AgentMessage | unknown): EntryView {
  const m = isRecord(message) ? message : {};
  switch (m.role) {
    case "user":
      return userView(m.content);
    case "assistant":
      return assistantView(m);
    case "toolResult":
      return toolResultView(m);
    case "bashExecution":
      return bashView(m);
    case "custom":
      return hookMessageView(m.customType, m.content, m.display);
    case "branchSummary":
      return view("branch_summary", str(m.summary), true);
    case "compactionSummary":
      return compactionView(m.summary, m.tokensBefore);
    case "system":
      return systemView(m);
    default:
      return unknownView(message, typeof m.role === "string" ? `message (${m.role})` : "message without a role");
  }
}

function unknownView(raw: unknown, what: string): EntryView {
  return view("unknown", jsonText(raw), false, { facts: [what] });
}

/** The state of one of the project's own custom entries, in words (their writers own the data's shape). */
function ownCustomText(customType: string, data: unknown): string {
  const d = isRecord(data) ? data : {};
  switch (customType) {
    case CHECKPOINT_TYPE: {
      const folders = Array.isArray(d.folders) ? d.folders.filter(isRecord) : [];
      const changed = folders.reduce((n, f) => n + (typeof f.changed === "number" ? f.changed : 0), 0);
      return changed === 1 ? "1 file changed" : `${changed} files changed`;
    }
    case BRANCH_RUN_TYPE: {
      const model = isRecord(d.model) ? ` with ${str(d.model.provider)}/${str(d.model.modelId)}` : "";
      const error = typeof d.error === "string" ? `: ${d.error}` : "";
      if (d.continued === true) return `Aside continued as a branch${model}`;
      const kind = d.kind === "aside" ? "Aside" : d.kind === "replay" ? "Replay" : "Explore";
      return `${kind} branch ${str(d.state) || "running"}${model}${error}`;
    }
    case IMPORT_TYPE:
      return `Imported from ${d.source === "claude-code" ? "Claude Code" : str(d.source) || "elsewhere"}${
        typeof d.transcriptPath === "string" ? `: ${d.transcriptPath}` : ""
      }`;
    case LEAF_MARKER_TYPE:
      return typeof d.targetId === "string"
        ? `Moved the leaf to ${d.targetId}`
        : "Moved the leaf before the first entry";
    default: {
      const archive = archiveMarkerData(data);
      return archive ? `${archive.archived ? "Archived" : "Unarchived"} the branch at ${archive.targetId}` : "";
    }
  }
}

/** Extension state: the project's own say what they record; another extension's show its type and data. */
function customView(e: Record<string, unknown>): EntryView {
  const type = str(e.customType);
  const own = customTypeWord(type);
  if (own === undefined) {
    const text = e.data === undefined ? type : `${type}\n${jsonText(e.data)}`;
    return view("custom", text, false, { subject: type, facts: type === "" ? [] : [type] });
  }
  const title = own.charAt(0).toUpperCase() + own.slice(1);
  return view("custom", ownCustomText(type, e.data), false, { title, subject: type });
}

/**
 * Whether `entry` is a hook's message the chat does not show (`display: false`, as a `custom_message` entry or a
 * message of role `custom`): what {@link entryView} notes as "Hidden from the chat", without building the view. The
 * export page hides such messages until asked (H), as pi's page does.
 */
export function isHiddenHookMessage(entry: unknown): boolean {
  if (!isRecord(entry)) return false;
  if (entry.type === "custom_message") return entry.display === false;
  const m = entry.type === "message" && isRecord(entry.message) ? entry.message : undefined;
  return m?.role === "custom" && m.display === false;
}

/**
 * What an entry says (see the file comment). `entry` may be anything a file holds: a known entry, an entry of a type
 * this version does not know (it reads as its JSON), or not an entry at all.
 */
export function entryView(entry: unknown): EntryView {
  const e = isRecord(entry) ? entry : {};
  switch (e.type) {
    case "message":
      return isRecord(e.message) ? messageView(e.message) : unknownView(entry, "message without a body");
    case "compaction":
      return compactionView(e.summary, e.tokensBefore);
    case "branch_summary":
      return view("branch_summary", str(e.summary), true);
    case "custom_message":
      return hookMessageView(e.customType, e.content, e.display);
    case "custom":
      return customView(e);
    case "label": {
      const v = view("label", bookkeepingText(e) ?? "", false);
      if (typeof e.targetId === "string") v.facts.push(`on ${e.targetId}`);
      return v;
    }
    default: {
      const kind = kindOf(typeof e.type === "string" ? e.type : "");
      const text = kind === "unknown" ? undefined : bookkeepingText(e);
      return text === undefined ? unknownView(entry, str(e.type) || "no type") : view(kind, text, false);
    }
  }
}

/** Cap of the text hover and Copy Text carry: a session line can be megabytes. */
export const MAX_PLAIN_TEXT = 200_000;

/**
 * An entry's whole readable text, as the tree's hover and Copy Text give it: a message's text with its tool calls as
 * `name(arguments)` and how it failed; bookkeeping as `Title: text (facts)`. Cut at MAX_PLAIN_TEXT.
 */
export function plainText(v: EntryView): string {
  let text: string;
  if (isConversationKind(v.kind) && v.kind !== "unknown") {
    const calls = (v.toolCalls ?? []).map((c) => `${c.name}(${c.argsText})`);
    text = [v.text, ...calls, v.failure ?? ""].filter((s) => s !== "").join("\n\n");
  } else if (v.kind === "unknown") text = v.text;
  else text = `${v.title}: ${v.text}${v.facts.length > 0 ? ` (${v.facts.join(", ")})` : ""}`;
  return text.length > MAX_PLAIN_TEXT ? text.slice(0, MAX_PLAIN_TEXT) + "\n…" : text;
}
