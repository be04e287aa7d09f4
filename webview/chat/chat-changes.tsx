/** After a run that changed files: one line per file with its added and removed lines; a click opens its diff. */
import type { JSX } from "preact";
import type { ChangedFileDto } from "../../src/shared/protocol.js";

/** Props of the changed-files list. */
export interface ChatChangesProps {
  files: readonly ChangedFileDto[];
  onOpen: (index: number) => void;
}

/** See the file comment. */
export function ChatChanges(p: ChatChangesProps): JSX.Element | null {
  if (p.files.length === 0) return null;
  return (
    <div class="chat-changes" role="group" aria-label="Files changed by the run">
      <div class="chat-changes-title">
        {p.files.length === 1 ? "1 file changed" : `${p.files.length} files changed`}
      </div>
      <ul>
        {p.files.map((f, i) => (
          <li key={f.path}>
            <button type="button" class="changed-file" title={`Open the diff of ${f.path}`} onClick={() => p.onOpen(i)}>
              <span class="changed-path">{f.path}</span>{" "}
              {f.added === undefined ? (
                <span class="changed-binary">{f.status === "deleted" ? "deleted" : "binary"}</span>
              ) : (
                <>
                  <span class="changed-added" aria-label={`${f.added} lines added`}>
                    +{f.added}
                  </span>{" "}
                  <span class="changed-removed" aria-label={`${f.removed ?? 0} lines removed`}>
                    −{f.removed ?? 0}
                  </span>
                </>
              )}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
