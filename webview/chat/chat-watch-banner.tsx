/**
 * The banner of a watched branch (docs/parallel.md, "Watching a branch"): the chat shows a parallel branch's path
 * instead of the main branch's, read-only. While it runs: Stop Branch and Back to my branch; once it ended: how,
 * and the offer to switch to it (an ordinary move). Escape goes back too (chat-app.tsx).
 */
import type { JSX } from "preact";
import type { WatchAction, WatchedBranchDto } from "../../src/shared/protocol.js";
import { Button } from "../ui/controls.js";

/** What the banner says of a branch in each state. */
export function watchBannerText(b: WatchedBranchDto): string {
  switch (b.state) {
    case "running":
      return `${b.label} is running — read-only until it finishes`;
    case "done":
      return `${b.label} finished.`;
    case "stopped":
      return `${b.label} was stopped.`;
    case "failed":
      return `${b.label} failed${b.error !== undefined ? `: ${b.error}` : "."}`;
  }
}

/** The banner; nothing when no branch is watched. */
export function ChatWatchBanner(props: {
  branch: WatchedBranchDto | undefined;
  onAction: (action: WatchAction) => void;
}): JSX.Element | null {
  const b = props.branch;
  if (b === undefined) return null;
  const running = b.state === "running";
  return (
    <div class="notice watch-banner" role="status" data-watch-state={b.state}>
      <span class={`codicon codicon-${running ? "eye" : "pass"}`} aria-hidden="true" />
      <span class="watch-text">{watchBannerText(b)}</span>
      {running ? (
        <Button appearance="secondary" icon="debug-stop" onClick={() => props.onAction("stop")}>
          Stop Branch
        </Button>
      ) : (
        <Button onClick={() => props.onAction("switch")}>Switch to This Branch</Button>
      )}
      <Button appearance="secondary" title="Back to my branch (Escape)" onClick={() => props.onAction("back")}>
        Back to my branch
      </Button>
    </div>
  );
}
