/**
 * The text of a bookkeeping entry (a label, extension state, a model or thinking-level change, a session name, pi
 * 1.5's usage records and context edits): what its row says after its word, and what its whole view says. The store
 * makes the row's preview from it (src/core/session/preview.ts), the entry view its text (entry-view.ts), so both say
 * the same. Every field is checked: entries come from files and exported pages and may hold anything.
 */
import { PLAN_MODE_TYPE, planModePreview } from "../session/entry-kinds.js";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The text blocks of a content (a string passes through), joined by newlines; anything else reads as "". */
export function blocksText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  const texts: string[] = [];
  for (const block of content as unknown[])
    if (isRecord(block) && block.type === "text" && typeof block.text === "string") texts.push(block.text);
  return texts.join("\n");
}

/** What a label entry says once its label is removed (an entry with no label, or an empty one). */
export const LABEL_CLEARED = "(label cleared)";

/**
 * The text of a bookkeeping entry (see the file comment), undefined for the entries that are no bookkeeping (messages,
 * summaries, hook messages, unknown types). A custom entry says its customType: a row has no room for its data, and
 * the entry view words the project's own ones (entry-view.ts).
 */
export function bookkeepingText(entry: Readonly<Record<string, unknown>>): string | undefined {
  const e = entry;
  switch (e.type) {
    case "label":
      return typeof e.label === "string" && e.label !== "" ? e.label : LABEL_CLEARED;
    case "custom":
      // A plan-mode line says which way it turns the mode, so its row reads without its body being read.
      if (e.customType === PLAN_MODE_TYPE) return planModePreview(e.data);
      return typeof e.customType === "string" ? e.customType : "";
    case "model_change":
      return `${String(e.provider)}/${String(e.modelId)}`;
    case "thinking_level_change":
      return String(e.thinkingLevel);
    case "session_info":
      return typeof e.name === "string" ? e.name : "";
    case "usage": {
      const u = isRecord(e.usage) ? e.usage : {};
      const tokens = `${String(u.input ?? 0)} in, ${String(u.output ?? 0)} out`;
      const note = typeof e.note === "string" ? ` (${e.note})` : "";
      return `${String(e.kind)} ${String(e.provider)}/${String(e.model)}: ${tokens}${note}`;
    }
    case "context_edit": {
      const r = e.replacement;
      return isRecord(r) ? `replace ${String(e.targetId)}: ${blocksText(r.content)}` : `omit ${String(e.targetId)}`;
    }
    default:
      return undefined;
  }
}
