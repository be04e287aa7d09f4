/**
 * What a tree row says: its role word and its text, from the kind and the fields the store extracted (src/core/rows/
 * tree-row.ts, read from the bytes of a line without parsing it), never from the entry's body. The tree, the pickers,
 * the compare view's ends and the exported page's tree show it. The words are the entry view's (kind-words.ts,
 * tool-summary.ts), so a row says what the entry's whole view says; test/core/entries/entry-view.test.ts checks that
 * the store's path and a parsed entry's agree.
 */
import { compactPreview } from "../mentions/user-content.js";
import { isConversationKind, planModeOfPreview } from "../session/entry-kinds.js";
import { toolLabel, toolLabels } from "../mcp/mcp-display.js";
import type { TreeRow } from "../rows/tree-row.js";
import { LABEL_CLEARED } from "./bookkeeping-text.js";
import { customTypeWord } from "./custom-types.js";
import { kindWord, TOOL_CALL_WORDS } from "./kind-words.js";
import { todoResultProgress } from "./tool-summary.js";
import { TODO_TOOL_NAME } from "../tools/todo-list.js";

/** A row's two parts: the role word (`user:`, `tool read:`, `[model]`) and the text after it. */
export interface RowWords {
  role: string;
  text: string;
}

/** "12k", "1.5M": token counts as rows and headings show them. */
export function formatTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
  if (n >= 1000) return `${Math.round(n / 1000)}k`;
  return String(n);
}

/** What a compaction says of the context it replaced: `12k tokens before`. */
export function tokensBeforeText(tokens: number): string {
  return `${formatTokens(tokens)} tokens before`;
}

/** The fields of a row the words are made of. */
export type RowFields = Pick<TreeRow, "kind" | "preview" | "toolCallsOnly" | "toolName" | "tokens">;

/**
 * The role word and the text of a row: `user:` and the preview for conversation, `[model]` and the preview for
 * bookkeeping. A tool result names its tool (a todo list its progress, `todo 3/7`), an assistant turn with tool
 * calls only lists them, a summary or compaction is bracketed like bookkeeping (it is no message of the
 * conversation), a compaction says the tokens it replaced, the project's own custom entries say what they are.
 */
export function rowWords(row: RowFields): RowWords {
  const word = kindWord(row.kind);
  switch (row.kind) {
    case "user":
      // A user message with attachments (src/core/mentions) shows their names, not their text.
      return { role: `${word}:`, text: compactPreview(row.preview) };
    case "assistant":
      return row.toolCallsOnly === true
        ? { role: `${word}:`, text: `[${TOOL_CALL_WORDS.word}s${row.toolName ? `: ${toolLabels(row.toolName)}` : ""}]` }
        : { role: `${word}:`, text: row.preview };
    case "toolResult": {
      const name = row.toolName ?? "";
      const progress = todoResultProgress(name, row.preview);
      if (progress !== undefined) return { role: TODO_TOOL_NAME, text: progress };
      // An MCP tool as server/tool: the row says which server answered.
      return { role: name !== "" ? `${word} ${toolLabel(name)}:` : `${word}:`, text: row.preview };
    }
    case "branch_summary":
    case "unknown":
      return { role: `[${word}]`, text: row.preview };
    case "compaction":
      // A compaction entry says what it replaced; a compaction summary recorded as a message has no count to say.
      return { role: `[${word}]`, text: row.tokens !== undefined ? tokensBeforeText(row.tokens) : row.preview };
    case "label":
      return { role: `[${word}]`, text: row.preview === "" ? LABEL_CLEARED : row.preview };
    case "custom": {
      // Plan mode turned on or off on this branch (src/core/agent/plan-mode.ts).
      const plan = planModeOfPreview(row.preview);
      if (plan !== undefined) return { role: "[plan mode]", text: plan ? "on" : "off" };
      const own = customTypeWord(row.preview);
      return own !== undefined ? { role: `[${own}]`, text: "" } : { role: `[${word}]`, text: row.preview };
    }
    default:
      return { role: isConversationKind(row.kind) ? `${word}:` : `[${word}]`, text: row.preview };
  }
}

/** A row as one line, `role text` (the text left out when empty): pickers and the compare view's ends. */
export function rowLine(row: RowFields): string {
  const { role, text } = rowWords(row);
  return text === "" ? role : `${role} ${text}`;
}
