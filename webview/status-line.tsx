/**
 * The small status line both views show for `status` messages from the host.
 */
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useState } from "preact/hooks";
import type { HostToWebview } from "../src/shared/protocol.js";

/** Info messages fade after this long; errors stay until the next message (one with no text clears) or a click. */
const INFO_MS = 8000;

/** Status line fed by the host bus. */
export function StatusLine(props: {
  subscribeHost: (fn: (msg: HostToWebview) => void) => () => void;
}): JSX.Element | null {
  const [status, setStatus] = useState<{ text: string; kind: "info" | "error" } | null>(null);
  useLayoutEffect(
    () =>
      props.subscribeHost((msg) => {
        // A status with no text clears the line (the chat's next run starts after a failure).
        if (msg.type === "status") setStatus(msg.text === "" ? null : { text: msg.text, kind: msg.kind });
      }),
    [props.subscribeHost],
  );
  useEffect(() => {
    if (status === null || status.kind !== "info") return;
    const t = window.setTimeout(() => setStatus(null), INFO_MS);
    return () => window.clearTimeout(t);
  }, [status]);
  if (status === null) return null;
  return (
    <div class={`status-line status-${status.kind}`} role="status" aria-live="polite" onClick={() => setStatus(null)}>
      <span class={`codicon ${status.kind === "error" ? "codicon-error" : "codicon-info"}`} aria-hidden="true" />
      <span class="status-text">{status.text}</span>
    </div>
  );
}
