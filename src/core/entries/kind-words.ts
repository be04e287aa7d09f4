/**
 * The words of each kind of entry, once: the short word a row or a picker shows, the title a heading shows, the
 * codicon beside it and the words a search finds it by. A `Record` over every kind, so a kind added to `EntryKind`
 * (src/core/session/entry-kinds.ts) fails the typecheck until it is worded here. The rest of what an entry says is
 * decided in entry-view.ts from these words.
 *
 * Pure data and functions (no Node or VS Code imports): the webviews and the exported page bundle it too.
 */
import type { EntryKind } from "../session/entry-kinds.js";

/** How one kind is named. */
interface KindWords {
  /** The short word rows, pickers and search results show (lower case). */
  word: string;
  /** The heading of a whole entry: the chat, the exported page, the compare view, hover text, summaries. */
  title: string;
  /** The codicon that stands for the kind (chat headings, search results, the compare view). */
  icon: string;
  /**
   * Words a search matches the kind by besides its text (lower case, space separated): its word, and the format's
   * own names, so "tool" finds tool results and "branch_summary" finds branch summaries. A word here cannot anchor
   * the search's byte scan (src/core/search/search-query.ts), so the list stays short.
   */
  searchWords: string;
  /** A landmark of the conversation (the tree draws its rows at full strength, the others dimmed). */
  landmark: boolean;
}

const KIND_WORDS: Readonly<Record<EntryKind, KindWords>> = {
  user: { word: "user", title: "User", icon: "account", searchWords: "user", landmark: true },
  assistant: { word: "assistant", title: "Assistant", icon: "hubot", searchWords: "assistant", landmark: false },
  toolResult: {
    word: "tool",
    title: "Tool result",
    icon: "output",
    searchWords: "toolresult tool",
    landmark: false,
  },
  bashExecution: {
    word: "bash",
    title: "Bash command",
    icon: "terminal",
    searchWords: "bash",
    landmark: false,
  },
  custom_message: {
    word: "hook message",
    title: "Hook message",
    icon: "extensions",
    searchWords: "hook message custom custom_message",
    landmark: false,
  },
  branch_summary: {
    word: "branch summary",
    title: "Branch summary",
    icon: "git-merge",
    searchWords: "branch summary branch_summary",
    landmark: true,
  },
  compaction: {
    word: "compaction",
    title: "Compaction summary",
    icon: "fold",
    searchWords: "compaction",
    landmark: true,
  },
  label: { word: "label", title: "Label", icon: "tag", searchWords: "label", landmark: false },
  custom: {
    word: "extension state",
    title: "Extension state",
    icon: "database",
    searchWords: "extension state custom",
    landmark: false,
  },
  model_change: { word: "model", title: "Model", icon: "sparkle", searchWords: "model model_change", landmark: false },
  thinking_level_change: {
    word: "thinking level",
    title: "Thinking level",
    icon: "lightbulb",
    searchWords: "thinking level thinking_level_change",
    landmark: false,
  },
  session_info: {
    word: "session name",
    title: "Session name",
    icon: "edit",
    searchWords: "session name session_info",
    landmark: false,
  },
  unknown: { word: "unknown", title: "Unknown entry", icon: "question", searchWords: "unknown", landmark: false },
  usage: { word: "usage", title: "Usage", icon: "graph", searchWords: "usage cost", landmark: false },
  context_edit: {
    word: "context edit",
    title: "Context edit",
    icon: "edit",
    searchWords: "context edit context_edit",
    landmark: false,
  },
  system: {
    word: "system prompt",
    title: "System prompt",
    icon: "file-text",
    searchWords: "system prompt",
    landmark: false,
  },
};

/** The short word rows, pickers and search results show for a kind (`user`, `tool`, `branch summary`). */
export function kindWord(kind: EntryKind): string {
  return KIND_WORDS[kind].word;
}

/** The heading of a whole entry of a kind (`User`, `Tool result`, `Compaction summary`). */
export function kindTitle(kind: EntryKind): string {
  return KIND_WORDS[kind].title;
}

/** The codicon name (without `codicon-`) that stands for a kind. */
export function kindIcon(kind: EntryKind): string {
  return KIND_WORDS[kind].icon;
}

/** The words a search matches a kind by, besides the entry's own text. */
export function kindSearchWords(kind: EntryKind): string {
  return KIND_WORDS[kind].searchWords;
}

/** True for the kinds the tree draws at full strength (user messages, summaries, compactions). */
export function isLandmarkKind(kind: EntryKind): boolean {
  return KIND_WORDS[kind].landmark;
}

/** A tool call inside an assistant reply, where a view lists it as an item of its own (the compare view). */
export const TOOL_CALL_WORDS = { word: "tool call", title: "Tool call", icon: "tools" } as const;
