/**
 * A tool call waiting for the user's answer. Most tools: Allow, Allow always, Deny. A write or edit, whose result
 * is open in a diff editor: Accept, Reject, Accept All in This Run (writes and edits run without asking until the
 * run ends), and Open Diff to bring the diff back.
 */
import type { JSX } from "preact";
import { Button } from "../ui/controls.js";
import type { PendingApproval } from "./chat-model.js";

/** How an approval was answered. */
export interface ApprovalAnswer {
  approved: boolean;
  always?: boolean;
  allInRun?: boolean;
}

/** Props of one approval prompt. */
export interface ChatApprovalProps {
  approval: PendingApproval;
  onAnswer: (answer: ApprovalAnswer) => void;
  onOpenDiff: () => void;
}

/** See the file comment. */
export function ChatApproval({ approval: a, onAnswer, onOpenDiff }: ChatApprovalProps): JSX.Element {
  return (
    <div class="approval" role="alertdialog" aria-label={`Approve ${a.toolName}`}>
      <div class="approval-text">
        <span class="codicon codicon-shield" aria-hidden="true" /> <strong>{a.toolName}</strong>{" "}
        {a.edit ? "wants to change a file (its diff is open):" : "wants to run:"}
        <pre class="plain">{a.summary}</pre>
      </div>
      {a.edit ? (
        <div class="approval-buttons">
          <Button onClick={() => onAnswer({ approved: true })}>Accept</Button>
          <Button appearance="secondary" onClick={() => onAnswer({ approved: false })}>
            Reject
          </Button>
          <Button appearance="secondary" onClick={() => onAnswer({ approved: true, allInRun: true })}>
            Accept All in This Run
          </Button>
          <Button appearance="icon" icon="diff" ariaLabel={`Open the diff of ${a.edit.path}`} onClick={onOpenDiff} />
        </div>
      ) : (
        <div class="approval-buttons">
          <Button onClick={() => onAnswer({ approved: true })}>Allow</Button>
          <Button appearance="secondary" onClick={() => onAnswer({ approved: true, always: true })}>
            Allow always
          </Button>
          <Button appearance="secondary" onClick={() => onAnswer({ approved: false })}>
            Deny
          </Button>
        </div>
      )}
    </div>
  );
}
