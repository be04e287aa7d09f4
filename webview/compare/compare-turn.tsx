/**
 * One aligned turn: a header (number, kind, status in words) and the two sides' items in rows, so aligned items
 * sit next to each other. Text reaches the page as text nodes, or as markdown through the chat's sanitizing
 * renderer; never as raw HTML. Changed words are marked on each side.
 */
import { ImageThumbs } from "../chat/image-thumbs.js";
import type { JSX } from "preact";
import type {
  CompareCell,
  CompareItem,
  CompareItemKind,
  CompareStatus,
  CompareTurn,
  CompareTurnKind,
} from "../../src/core/compare/compare-types.js";
import { MarkdownBlock } from "../chat/markdown-block.js";
import { kindIcon, kindTitle, TOOL_CALL_WORDS } from "../../src/core/entries/kind-words.js";

/** Status words shown on turns and rows (the colours only repeat them). */
export const STATUS_WORDS: Record<CompareStatus, string> = {
  same: "same",
  changed: "changed",
  left: "only left",
  right: "only right",
};

/** A turn's heading; a summary's or a compaction's turn is named as its entry is (src/core/entries). */
const KIND_WORDS: Record<CompareTurnKind, string> = {
  turn: "Turn",
  continuation: "Continuation",
  branchSummary: kindTitle("branch_summary"),
  compaction: kindTitle("compaction"),
};

/** An item's heading and icon: its entry's (src/core/entries/kind-words.ts), or a tool call's. */
function itemWords(kind: CompareItemKind): { title: string; icon: string } {
  return kind === "toolCall" ? TOOL_CALL_WORDS : { title: kindTitle(kind), icon: kindIcon(kind) };
}

/** Props shared by the views of items. */
export interface ItemActions {
  /** Show the item's entry in the session tree. */
  reveal(entryId: string): void;
}

/** An item's header and text (with its changed words when `cell.spans` is set). */
export function ItemView(props: { cell: CompareCell; side: "left" | "right" | "both"; actions: ItemActions }) {
  const { item, spans } = props.cell;
  const words = itemWords(item.kind);
  return (
    <div class={`cmp-item kind-${item.kind}${item.isError === true ? " error" : ""}`}>
      <div class="cmp-item-head">
        <span class={`codicon codicon-${item.isError === true ? "error" : words.icon}`} aria-hidden="true" />
        <span class="cmp-item-kind">{words.title}</span>
        {item.title !== undefined ? <span class="cmp-item-title">{item.title}</span> : null}
        <button
          type="button"
          class="cmp-reveal codicon codicon-list-tree"
          title="Show in the session tree"
          aria-label={`Show this ${words.title.toLowerCase()} in the session tree`}
          onClick={() => props.actions.reveal(item.entryId)}
        />
      </div>
      <ItemText item={item} spans={spans} side={props.side} />
      {item.images ? <ImageThumbs images={item.images} /> : null}
      {item.omitted !== undefined ? (
        <div class="cmp-omitted">… {item.omitted.toLocaleString()} more characters not shown</div>
      ) : null}
    </div>
  );
}

function ItemText(props: { item: CompareItem; spans: CompareCell["spans"]; side: "left" | "right" | "both" }) {
  const { item, spans } = props;
  // Prose (messages, summaries) is markdown; program output and values are shown as they are.
  const mono = item.prose !== true;
  if (spans !== undefined) {
    const mark = props.side === "right" ? "cmp-ins" : "cmp-del";
    return (
      <div class={`cmp-text cmp-diff${mono ? " mono" : ""}`}>
        {spans.map((s, i) =>
          s.changed === true ? (
            <mark key={i} class={mark}>
              {s.text}
            </mark>
          ) : (
            s.text
          ),
        )}
      </div>
    );
  }
  if (item.text === "") return <div class="cmp-text cmp-empty">(empty)</div>;
  if (mono) return <pre class="cmp-text plain">{item.text}</pre>;
  return <MarkdownBlock text={item.text} class="cmp-text" />;
}

/** One side's cell of a row, or the gap where that side has nothing. */
function Cell(props: { cell: CompareCell | undefined; side: "left" | "right"; actions: ItemActions }): JSX.Element {
  if (props.cell === undefined)
    return (
      <div class={`cmp-cell cmp-gap ${props.side}`} aria-label={`nothing on the ${props.side}`}>
        <span aria-hidden="true">—</span>
      </div>
    );
  return (
    <div class={`cmp-cell ${props.side}`}>
      <ItemView cell={props.cell} side={props.side} actions={props.actions} />
    </div>
  );
}

/** Props of one turn. */
export interface TurnViewProps {
  index: number;
  status: CompareStatus;
  total: number;
  /** Undefined until its page arrived. */
  turn: CompareTurn | undefined;
  top: number;
  focused: boolean;
  actions: ItemActions;
  measureRef: (index: number, el: HTMLElement | null) => void;
}

/** A turn of the windowed list, absolutely placed at `top`. */
export function TurnView(p: TurnViewProps): JSX.Element {
  const headId = `cmp-turn-head-${p.index}`;
  const kind = p.turn ? KIND_WORDS[p.turn.kind] : "Turn";
  return (
    <article
      ref={(el) => p.measureRef(p.index, el)}
      id={`cmp-turn-${p.index}`}
      class={`cmp-turn status-${p.status}${p.focused ? " focused" : ""}`}
      style={{ top: `${p.top}px` }}
      data-index={p.index}
      tabIndex={p.focused ? 0 : -1}
      aria-posinset={p.index + 1}
      aria-setsize={p.total}
      aria-labelledby={headId}
      aria-busy={p.turn === undefined}
    >
      <div class="cmp-turn-head" id={headId}>
        <span class="cmp-turn-title">
          {p.index + 1} · {kind}
        </span>
        <span class={`cmp-badge status-${p.status}`}>{STATUS_WORDS[p.status]}</span>
      </div>
      {p.turn === undefined ? (
        <div class="cmp-loading">Loading…</div>
      ) : (
        p.turn.rows.map((row, i) => (
          <div key={i} class={`cmp-row status-${row.status}`}>
            <Cell cell={row.left} side="left" actions={p.actions} />
            <Cell cell={row.right} side="right" actions={p.actions} />
          </div>
        ))
      )}
    </article>
  );
}
