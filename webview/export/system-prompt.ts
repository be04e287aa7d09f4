/**
 * The system prompt and the tools in force at the entry the page shows, folded above its path, as pi's export
 * heads its page with them. They are what the session records (`system` messages, a compaction's kept prompt),
 * replayed as the agent and Agent: Show System Prompt replay them (src/core/prompt/prompt-at-entry.ts); nothing
 * else (settings, environment) is shown. The embedded entries may hold anything: every field is checked first.
 */
import type { SystemMessage, SystemMessageTool, TextContent } from "../../src/core/messages.js";
import { systemMessageOfPath } from "../../src/core/prompt/prompt-at-entry.js";
import { systemPromptText } from "../../src/core/messages.js";
import type { SessionEntry } from "../../src/core/session/types.js";
import { asRecord, collapsible, h, str } from "./dom.js";

function tools(v: unknown): SystemMessageTool[] {
  const out: SystemMessageTool[] = [];
  for (const t of Array.isArray(v) ? v : []) {
    const r = asRecord(t);
    if (r && typeof r.name === "string") out.push({ ...r, name: r.name });
  }
  return out;
}

/** A recorded system message with every field of the right type, or undefined when it is none. */
function systemMessage(v: unknown): SystemMessage | undefined {
  const m = asRecord(v);
  if (!m || m.role !== "system") return undefined;
  const content: TextContent[] | string = Array.isArray(m.content)
    ? m.content.filter((b) => asRecord(b)?.type === "text").map((b) => ({ type: "text", text: str(asRecord(b)?.text) }))
    : str(m.content);
  const sections: Record<string, string | null> = {};
  for (const [k, s] of Object.entries(asRecord(m.sections) ?? {}))
    if (typeof s === "string" || s === null) sections[k] = s;
  const timestamp = typeof m.timestamp === "number" ? m.timestamp : 0;
  return {
    role: "system",
    content,
    sections,
    toolsAdded: tools(m.toolsAdded),
    toolsRemoved: tools(m.toolsRemoved),
    timestamp,
  };
}

/** The path's compactions and system messages, checked, as the replay reads them (other entries do not count). */
function promptEntries(path: readonly unknown[]): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (const raw of path) {
    const e = asRecord(raw);
    if (e?.type === "compaction") {
      const kept = systemMessage(e.systemMessage);
      out.push({
        ...e,
        type: "compaction",
        ...(kept ? { systemMessage: kept } : { systemMessage: undefined }),
      } as SessionEntry);
    } else if (e?.type === "message") {
      const m = systemMessage(e.message);
      if (m) out.push({ ...e, type: "message", message: m } as SessionEntry);
    }
  }
  return out;
}

/** One tool: its name and description, its parameters (name, type, required or not, description) below. */
function toolItem(t: SystemMessageTool): HTMLElement {
  const el = h("li", "tool", h("span", "tool-name", t.name));
  const desc = str(t.description);
  if (desc) el.append(" — ", desc);
  const schema = asRecord(t.parameters);
  const props = Object.entries(asRecord(schema?.properties) ?? {});
  if (props.length === 0) return el;
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const list = h("ul", "params");
  for (const [name, p] of props) {
    const prop = asRecord(p);
    const type = typeof prop?.type === "string" ? prop.type : Array.isArray(prop?.type) ? prop.type.join(" | ") : "";
    const item = h("li", undefined, h("code", undefined, name));
    item.append(` ${[type, required.includes(name) ? "required" : "optional"].filter((x) => x).join(", ")}`);
    if (str(prop?.description)) item.append(` — ${str(prop?.description)}`);
    list.appendChild(item);
  }
  el.appendChild(list);
  return el;
}

/** "System prompt (12 lines)": the fold's summary. */
function linesSummary(what: string, text: string): string {
  const lines = text.split("\n").length;
  return `${what} (${lines} ${lines === 1 ? "line" : "lines"})`;
}

/**
 * The folded prompt and tool list in force at the end of `path` (entries root→entry). When the path records none,
 * `current` (the exporting agent's prompt at the time of the export, when the page has it) is shown and said to be
 * that, as pi's export falls back to its agent's prompt; else nothing.
 */
export function systemPromptBlocks(path: readonly unknown[], current?: string): HTMLElement[] {
  const m = systemMessageOfPath(promptEntries(path));
  if (!m)
    return current
      ? [
          collapsible(
            linesSummary("System prompt at the time of the export — this session records none", current),
            h("pre", "out", current),
            "system-prompt",
          ),
        ]
      : [];
  const out: HTMLElement[] = [];
  const text = systemPromptText(m);
  if (text !== "") out.push(collapsible(linesSummary("System prompt", text), h("pre", "out", text), "system-prompt"));
  const list = m.toolsAdded ?? [];
  if (list.length > 0) {
    const ul = h("ul", "tools");
    for (const t of list) ul.appendChild(toolItem(t));
    out.push(collapsible(`Tools (${list.length}): ${list.map((t) => t.name).join(", ")}`, ul, "tool-list"));
  }
  return out;
}
