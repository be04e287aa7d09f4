/**
 * Wires a textarea to ChatInputAssist: the keys of the completion list (arrows, Enter/Tab, Escape), caret
 * moves, the combobox ARIA attributes, the list itself, and files dropped from the Explorer (VS Code hands a
 * webview a drop's URIs as `text/uri-list` while Shift is held). The chat input spreads these in with a few
 * lines, so its own keys stay its own. Images pasted or dropped are added to the assist (thumbnails, remove).
 */
import type { JSX, RefObject } from "preact";
import { useLayoutEffect, useReducer } from "preact/hooks";
import type { WebviewToHost } from "../../src/shared/protocol.js";
import type { ChatInputAssist } from "./chat-input-assist.js";
import { COMPLETION_LIST_ID, CompletionList, completionOptionId } from "./completion-list.js";
import { isImageFile } from "./image-input.js";
import { ImageThumbs } from "./image-thumbs.js";

/** What the chat input needs. */
export interface AssistedInput {
  /** Handles a key of the list; true when it did (the input must then do nothing more). */
  onKeyDown(e: KeyboardEvent): boolean;
  /** After input or a caret move. */
  onCaret(): void;
  /** ARIA attributes of the combobox textarea. */
  aria: Record<string, string | boolean | undefined>;
  onDragOver(e: DragEvent): void;
  onDrop(e: DragEvent): void;
  onPaste(e: ClipboardEvent): void;
  /** Pending images and the notice, or null. */
  extras: JSX.Element | null;
  /** The list, or null when closed. */
  list: JSX.Element | null;
}

/** See the file comment. */
export function useAssistedInput(
  assist: ChatInputAssist,
  ref: RefObject<HTMLTextAreaElement | null>,
  onValue: (text: string) => void,
  post: (msg: WebviewToHost) => void,
): AssistedInput {
  const [, bump] = useReducer((x: number) => x + 1, 0);
  useLayoutEffect(() => assist.subscribe(() => bump(0)), [assist]);

  const pick = (index?: number): void => {
    const el = ref.current;
    if (!el) return;
    const next = assist.pick(el.value, el.selectionStart, index);
    if (!next) return;
    el.value = next.text;
    onValue(next.text);
    el.focus();
    el.setSelectionRange(next.caret, next.caret);
  };

  return {
    onKeyDown(e) {
      if (!assist.open || e.isComposing) return false;
      switch (e.key) {
        case "ArrowDown":
          assist.move(1);
          break;
        case "ArrowUp":
          assist.move(-1);
          break;
        case "Enter":
        case "Tab":
          if (e.shiftKey) return false;
          pick();
          break;
        case "Escape":
          assist.close();
          // Escape closes the list only; the chat's Escape (abort) must not see it.
          e.stopPropagation();
          break;
        default:
          return false;
      }
      e.preventDefault();
      return true;
    },
    onCaret() {
      const el = ref.current;
      if (el) assist.update(el.value, el.selectionStart);
    },
    aria: {
      role: "combobox",
      "aria-autocomplete": "list",
      "aria-expanded": assist.open,
      "aria-controls": assist.open ? COMPLETION_LIST_ID : undefined,
      "aria-activedescendant": assist.open ? completionOptionId(assist.active) : undefined,
    },
    onDragOver(e) {
      const types = e.dataTransfer?.types ?? [];
      if (types.includes("text/uri-list") || types.includes("Files")) e.preventDefault();
    },
    onPaste(e) {
      const files = [...(e.clipboardData?.files ?? [])].filter(isImageFile);
      if (files.length === 0) return;
      e.preventDefault();
      void assist.addImages(files);
    },
    onDrop(e) {
      const files = [...(e.dataTransfer?.files ?? [])].filter(isImageFile);
      if (files.length > 0) {
        e.preventDefault();
        void assist.addImages(files);
        return;
      }
      const list = e.dataTransfer?.getData("text/uri-list") ?? "";
      const uris = list
        .split(/\r?\n/)
        .map((s) => s.trim())
        .filter((s) => s !== "" && !s.startsWith("#"));
      if (uris.length === 0) return;
      e.preventDefault();
      post({ type: "chat/dropFiles", uris: uris.slice(0, 100) });
    },
    extras:
      assist.images.length > 0 || assist.notice !== undefined ? (
        <>
          {assist.notice !== undefined ? (
            <div class="chat-input-notice" role="alert">
              {assist.notice}
            </div>
          ) : null}
          {assist.images.length > 0 ? (
            <ImageThumbs images={assist.images} onRemove={(i) => assist.removeImage(i)} />
          ) : null}
        </>
      ) : null,
    list:
      assist.open && assist.trigger ? (
        <CompletionList
          items={assist.items}
          active={assist.active}
          trigger={assist.trigger}
          onPick={(i) => pick(i)}
          onHover={(i) => assist.setActive(i)}
        />
      ) : null,
  };
}
