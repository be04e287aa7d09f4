/**
 * A tool call waiting for the user's answer. Most tools: Allow, Allow always, Deny, and Always Allow in This
 * Workspace when rules can cover the call (the rules it adds are shown). A write or edit, whose result is open in a
 * diff editor: Accept, Reject, Accept All in This Run (writes and edits run without asking until the run ends), and
 * Open Diff to bring the diff back. A call that reaches a loopback or private address says so and offers only
 * Allow and Deny.
 */
import type { JSX } from "preact";
import { Button } from "../ui/controls.js";
import type { PendingApproval } from "./chat-model.js";

/** How an approval was answered. */
export interface ApprovalAnswer {
  approved: boolean;
  always?: boolean;
  allInRun?: boolean;
  inWorkspace?: boolean;
}

/** Props of one approval prompt. */
export interface ChatApprovalProps {
  approval: PendingApproval;
  onAnswer: (answer: ApprovalAnswer) => void;
  onOpenDiff: () => void;
}

/** See the file comment. */
export function ChatApproval({ approval: a, onAnswer, onOpenDiff }: ChatApprovalProps): JSX.Element {
  const rules = a.rules ?? [];
  return (
    <div class="approval" role="alertdialog" aria-label={`Approve ${a.toolName}`}>
      <div class="approval-text">
        <span class="codicon codicon-shield" aria-hidden="true" /> <strong>{a.toolName}</strong>{" "}
        {a.edit ? "wants to change a file (its diff is open):" : "wants to run:"}
        <pre class="plain">{a.summary}</pre>
        {a.local && (
          <p class="approval-local">
            <span class="codicon codicon-warning" aria-hidden="true" /> Local address: {a.local}. Allow only if you
            expect this call to reach your computer or your network; no rule allows it.
          </p>
        )}
        {rules.length > 0 && (
          <p class="approval-rules">
            Always Allow in This Workspace adds: <code>{rules.join(", ")}</code>
          </p>
        )}
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
          {rules.length > 0 && (
            <Button appearance="secondary" onClick={() => onAnswer({ approved: true, inWorkspace: true })}>
              Always Allow in This Workspace
            </Button>
          )}
          <Button appearance="icon" icon="diff" ariaLabel={`Open the diff of ${a.edit.path}`} onClick={onOpenDiff} />
        </div>
      ) : a.local ? (
        <div class="approval-buttons">
          <Button onClick={() => onAnswer({ approved: true })}>Allow</Button>
          <Button appearance="secondary" onClick={() => onAnswer({ approved: false })}>
            Deny
          </Button>
        </div>
      ) : (
        <div class="approval-buttons">
          <Button onClick={() => onAnswer({ approved: true })}>Allow</Button>
          <Button appearance="secondary" onClick={() => onAnswer({ approved: true, always: true })}>
            Allow always
          </Button>
          {rules.length > 0 && (
            <Button appearance="secondary" onClick={() => onAnswer({ approved: true, inWorkspace: true })}>
              Always Allow in This Workspace
            </Button>
          )}
          <Button appearance="secondary" onClick={() => onAnswer({ approved: false })}>
            Deny
          </Button>
        </div>
      )}
    </div>
  );
}
