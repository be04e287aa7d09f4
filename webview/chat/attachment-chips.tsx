/** A sent user message's attachments, one chip each: the file's name (path in the tooltip), never its text. */
import type { JSX } from "preact";
import type { AttachmentLabel } from "../../src/core/mentions/user-content.js";

const ICONS: Record<AttachmentLabel["kind"], string> = {
  file: "file",
  folder: "folder",
  selection: "selection",
  image: "file-media",
};

/** See the file comment. */
export function AttachmentChips({ attachments }: { attachments: readonly AttachmentLabel[] }): JSX.Element {
  return (
    <ul class="attachment-chips" aria-label="Attachments">
      {attachments.map((a, i) => {
        const base = a.kind === "image" ? a.name : (a.name.split(/[\\/]/).filter(Boolean).pop() ?? a.name);
        const text = a.lines !== undefined ? `${base}:${a.lines}` : base;
        return (
          <li key={i} class="attachment-chip" title={a.kind === "image" ? `Image (${a.name})` : a.name}>
            <span class={`codicon codicon-${ICONS[a.kind]}`} aria-hidden="true" /> {text}
          </li>
        );
      })}
    </ul>
  );
}
