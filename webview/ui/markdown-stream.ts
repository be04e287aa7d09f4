/**
 * Markdown that grows while a reply streams, rendered without starting over: what renderMarkdown gives for the
 * whole text, but each update lexes and renders only the open end of it.
 *
 * A streamed text only grows at its end, and a markdown block that is followed by a blank line and then by a
 * finished next block cannot change any more: those blocks are rendered once and kept ("committed"). The rest —
 * the open end, e.g. a list that may get another item or a paragraph that may turn into a heading — is lexed and
 * rendered again on each update. One big open code fence would make that O(n) per update again, so a fence that
 * only grew gets its new text set on its text node instead; and while the text added only extends the lines of an
 * open fence that starts at the line's start (no line of it may close the fence: none starts with a backtick or
 * tilde), the fence's text is taken from the text itself, without lexing the open end again. Such a fence's code
 * is shown in blocks of {@link CHUNK_LINES} lines (`<span class="code-chunk">`, display: block): only the last one
 * changes, so the browser lays out only it, not the whole code again; once the fence closes (or a line that might
 * close it comes), it is rendered whole as usual. A link reference
 * definition (`[x]: url`) changes how any earlier text renders: with one in the text, every update renders the
 * whole text (as renderMarkdown does).
 */
import type { Token, Tokens } from "marked";
import { lexMarkdown, renderMarkdown, renderMarkdownTokens } from "./markdown.js";

/** The text shown by a fenced code block's <code> element, as marked's renderer writes it from the token's text. */
function fenceText(text: string): string {
  return text ? text.replace(/\n$/, "") + "\n" : "";
}

/**
 * A line of added text that may close an open fence (or is not plain code): one starting, after up to three spaces,
 * with a backtick or a tilde; and a carriage return, which marked's lexer turns into a line end.
 */
const MAY_CLOSE_FENCE = /(?:^|\n) {0,3}[`~]|\r/;

/**
 * The token text marked (18) gives an open fence whose lines after the opening one are `lines`: them less one line
 * end at the end, and a line end added back when that leaves them empty or ending in one (marked's fences tokenizer;
 * the prefix tests in test/webview/chat-streamed-markdown.test.ts hold it to marked's own result). Empty lines: "".
 */
function openFenceCode(lines: string): string {
  if (lines === "") return "";
  const code = lines.replace(/\n$/, "");
  return code === "" || code.endsWith("\n") ? code + "\n" : code;
}

/** Lines per block of an open fence's code (see the file comment). */
const CHUNK_LINES = 50;

/**
 * Where the first block of `code` ends: after its {@link CHUNK_LINES}th line end, or the first line end after that
 * which is followed by more than line ends (up to there, the code can no longer change as the text grows: marked
 * only adjusts the line ends at its end); -1 when there is no such place yet.
 */
function chunkEnd(code: string): number {
  let at = -1;
  for (let n = 0; n < CHUNK_LINES; n++) {
    at = code.indexOf("\n", at + 1);
    if (at < 0) return -1;
  }
  for (; at >= 0 && at + 1 < code.length; at = code.indexOf("\n", at + 1)) if (code[at + 1] !== "\n") return at + 1;
  return -1;
}

/** A new, empty block of an open fence's code. */
function chunkElement(): { span: HTMLElement; text: Text } {
  const span = document.createElement("span");
  span.className = "code-chunk";
  const text = new Text("");
  span.append(text);
  return { span, text };
}

/** The open fence the open end ends with, as the update that rendered it left it. */
interface OpenFence {
  /** Its language (info string), and the text node showing its code. */
  lang: string;
  node: Text;
  /**
   * Where its code starts in the text, when the fence opens at a line's start and its opening line is complete:
   * then, while added text cannot close it, its code is the text from here (see {@link StreamedMarkdown.grow}).
   */
  codeStart: number | undefined;
  /** With a codeStart: its <code> element, which holds the code in blocks, `node` the last one's text, and the
   * length of the code in the blocks before it. */
  chunks?: { code: Element; before: number };
}

/**
 * Set a text node's text, changing only what follows the part it keeps: the browser then lays out again only the
 * new end, not the whole (a long code block's text grows at its end, before the newline marked adds).
 */
function setGrown(node: Text, text: string): void {
  const old = node.data;
  const keep = text.startsWith(old) ? old.length : text.startsWith(old.slice(0, -1)) ? old.length - 1 : 0;
  node.replaceData(keep, old.length - keep, text.slice(keep));
}

/** A fenced code block that is the open end's last block (not closed yet). */
function openFence(token: Token | undefined): Tokens.Code | undefined {
  return token?.type === "code" && token.codeBlockStyle !== "indented" ? (token as Tokens.Code) : undefined;
}

/** Renders a growing markdown text into `container`, which it owns. */
export class StreamedMarkdown {
  /** The text shown. */
  private text = "";
  /** The container holds the rendering of `text` in the parts below (else only a whole rendering). */
  private structured = false;
  /** Length of the text's committed blocks, whose nodes are final. */
  private committed = 0;
  /** The nodes of the open end (after the committed ones). */
  private tail: Node[] = [];
  /** The open end's blocks' raw texts, all but the last. */
  private tailRaws: string[] = [];
  /** When the open end ends in a fenced code block: what shows it. */
  private fence: OpenFence | undefined;

  constructor(private readonly container: HTMLElement) {}

  /** The container shows renderMarkdown(`text`) already (rendered or cloned elsewhere). */
  adopt(text: string): void {
    this.text = text;
    this.structured = false;
  }

  /** The text the container shows. */
  get shown(): string {
    return this.text;
  }

  /** Show `text`: incrementally when it extends the text shown, else rendered whole. */
  update(text: string): void {
    if (!this.structured || !text.startsWith(this.text)) this.reset();
    else if (this.grow(text)) return;
    this.text = text;
    const rest = text.slice(this.committed);
    const tokens = lexMarkdown(rest);
    if (Object.keys(tokens.links).length > 0) {
      // A reference definition reaches back: render the whole text, as every update will while it is there.
      this.container.replaceChildren(renderMarkdown(text));
      this.structured = false;
      return;
    }
    const commit = this.commitPoint(tokens, rest);
    if (commit.count > 0) {
      this.removeTail();
      this.container.append(renderMarkdownTokens(tokens.slice(0, commit.count)));
      this.committed += commit.length;
      this.tailRaws = [];
    }
    this.renderTail(tokens.slice(commit.count));
  }

  /**
   * Show `text`, which extends the text shown, without lexing, when it only adds code to the open fence at the end
   * (whose code is then what follows its opening line, see {@link openFenceCode}). False
   * when the added lines (from the start of the last line shown) might close the fence: the caller lexes.
   */
  private grow(text: string): boolean {
    const start = this.fence?.codeStart;
    if (this.fence === undefined || start === undefined) return false;
    const lineStart = Math.max(start, this.text.lastIndexOf("\n") + 1);
    if (MAY_CLOSE_FENCE.test(text.slice(lineStart))) return false;
    const code = fenceText(openFenceCode(text.slice(start)));
    if (code === "") return false;
    if (this.fence.chunks === undefined) this.chunk(this.fence);
    if (!this.setChunked(this.fence, code)) return false;
    this.text = text;
    return true;
  }

  private reset(): void {
    this.container.replaceChildren();
    this.structured = true;
    this.committed = 0;
    this.tail = [];
    this.tailRaws = [];
    this.fence = undefined;
  }

  /**
   * How many of the first tokens are final, and the length of their text: up to the last blank line that is
   * followed by a block that is not the last one (a block right after a blank line may still join the one
   * before it — "2" becoming "2." after an ordered list item — until something follows it).
   */
  private commitPoint(tokens: Token[], rest: string): { count: number; length: number } {
    let count = 0;
    for (let j = tokens.length - 2; j >= 1; j--) {
      if (tokens[j - 1].type === "space") {
        count = j;
        break;
      }
    }
    if (count === 0) return { count: 0, length: 0 };
    let length = 0;
    for (let i = 0; i < count; i++) length += tokens[i].raw.length;
    // The blocks' raw texts add up to the text (marked normalises line ends; then nothing is committed).
    if (
      rest.slice(0, length) !==
      tokens
        .slice(0, count)
        .map((t) => t.raw)
        .join("")
    )
      return { count: 0, length: 0 };
    return { count, length };
  }

  /** Render the open end, or only set the new text of its fence when nothing else in it changed. */
  private renderTail(tokens: Token[]): void {
    const last = tokens[tokens.length - 1];
    const raws = tokens.slice(0, -1).map((t) => t.raw);
    const fence = openFence(last);
    if (
      fence !== undefined &&
      this.fence !== undefined &&
      this.fence.lang === (fence.lang ?? "") &&
      raws.length === this.tailRaws.length &&
      raws.every((r, i) => r === this.tailRaws[i])
    ) {
      const code = fenceText(fence.text);
      const start = this.codeStart(fence);
      if (this.fence.chunks !== undefined) {
        // Shown in blocks: only while it stays open; else rendered again, whole.
        if (code !== "" && start === this.fence.codeStart && this.setChunked(this.fence, code)) return;
      } else if (code !== "") {
        setGrown(this.fence.node, code);
        this.fence.codeStart = start;
        if (start !== undefined) this.chunk(this.fence);
        return;
      }
    }
    this.removeTail();
    const fragment = renderMarkdownTokens(tokens);
    this.tail = [...fragment.childNodes];
    this.tailRaws = raws;
    this.fence = fence !== undefined ? this.fenceNode(fence) : undefined;
    this.container.append(fragment);
  }

  /**
   * Where the code of `fence`, the open end's last block, starts in the text: when it opens at a line's start (not
   * indented, so marked takes its lines as they are), its opening line is complete and none of its lines may close
   * it (so it is open, and {@link grow} need only look at the lines added); else undefined.
   */
  private codeStart(fence: Tokens.Code): number | undefined {
    const opening = fence.raw.indexOf("\n");
    if (!/^(```|~~~)/.test(fence.raw) || opening < 0 || !this.text.endsWith(fence.raw)) return undefined;
    // Closed (its raw then ends with the closing line, and a line end), or holding a line that starts like one.
    if (MAY_CLOSE_FENCE.test(fence.raw.slice(opening + 1))) return undefined;
    return this.text.length - fence.raw.length + opening + 1;
  }

  /** The text node of the last <code> of the open end, when it shows exactly the fence's text. */
  private fenceNode(fence: Tokens.Code): OpenFence | undefined {
    for (let i = this.tail.length - 1; i >= 0; i--) {
      const node = this.tail[i];
      if (!(node instanceof HTMLElement)) continue;
      const code = node.tagName === "PRE" ? node.firstElementChild : null;
      const text = code?.tagName === "CODE" && code.childNodes.length === 1 ? code.firstChild : null;
      if (!(text instanceof Text) || text.data !== fenceText(fence.text)) return undefined;
      // Into blocks once it grows: a fresh render stays what renderMarkdown gives.
      return { lang: fence.lang ?? "", node: text, codeStart: this.codeStart(fence) };
    }
    return undefined;
  }

  /** Show the open fence's code (held in one text node) in blocks from now on. */
  private chunk(fence: OpenFence): void {
    const code = fence.node.parentElement;
    if (code === null) return;
    const all = fence.node.data;
    const first = chunkElement();
    code.replaceChildren(first.span);
    fence.node = first.text;
    fence.chunks = { code, before: 0 };
    this.setChunked(fence, all);
  }

  /**
   * Show `code` in the open fence's blocks: the blocks before the last stay as they are (false when `code` does not
   * continue them: the caller renders again), the last one gets the rest, and is closed and followed by a new one
   * as it grows past {@link CHUNK_LINES} lines.
   */
  private setChunked(fence: OpenFence, code: string): boolean {
    const chunks = fence.chunks;
    if (chunks === undefined) return false;
    if (code.length < chunks.before || (chunks.before > 0 && code[chunks.before - 1] !== "\n")) return false;
    let rest = code.slice(chunks.before);
    for (let end = chunkEnd(rest); end > 0; end = chunkEnd(rest)) {
      setGrown(fence.node, rest.slice(0, end));
      chunks.before += end;
      rest = rest.slice(end);
      const next = chunkElement();
      chunks.code.append(next.span);
      fence.node = next.text;
    }
    setGrown(fence.node, rest);
    return true;
  }

  private removeTail(): void {
    for (const node of this.tail) node.parentNode?.removeChild(node);
    this.tail = [];
    this.fence = undefined;
  }
}
