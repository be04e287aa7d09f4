/**
 * Plan mode in the chat (src/core/agent/plan-mode.ts): a badge above the input while it is on (Leave Plan Mode beside
 * it), and under the plan — the answer the agent gave in plan mode, at the leaf — Approve Plan (plan mode off, the
 * agent carries the plan out with all its tools) and Keep Planning (plan mode stays, the input takes the focus).
 */
import type { JSX } from "preact";
import type { ChatMessageDto } from "../../src/shared/protocol.js";
import { Button } from "../ui/controls.js";

/**
 * The plan to approve: the host's `planId` (the leaf is an answer the agent gave in plan mode) when nothing runs and
 * the chat shows that answer last; undefined otherwise.
 */
export function planToApprove(
  planId: string | undefined,
  streaming: boolean,
  messages: readonly ChatMessageDto[],
): ChatMessageDto | undefined {
  if (planId === undefined || streaming) return undefined;
  const last = messages.at(-1);
  return last?.id === planId ? last : undefined;
}

/** The badge above the input while plan mode is on. */
export function ChatPlanBadge(props: { planMode: boolean; onLeave: () => void }): JSX.Element | null {
  if (!props.planMode) return null;
  return (
    <div class="chat-plan-mode" role="status">
      <span class="codicon codicon-checklist" aria-hidden="true" />
      <span class="chat-plan-mode-title">Plan mode</span>
      <span class="chat-plan-mode-hint">read-only tools: the agent proposes a plan and changes nothing</span>
      <Button
        appearance="icon"
        icon="close"
        ariaLabel="Leave Plan Mode"
        title="Leave plan mode (Agent: Toggle Plan Mode, /plan)"
        onClick={props.onLeave}
      />
    </div>
  );
}

/** Approve Plan and Keep Planning, under the plan. */
export function ChatPlanActions(props: { onApprove: () => void; onKeep: () => void }): JSX.Element {
  return (
    <div class="chat-plan-actions" role="group" aria-label="The plan">
      <span>Carry out this plan?</span>
      <Button icon="check" title="Leave plan mode and let the agent carry out the plan" onClick={props.onApprove}>
        Approve Plan
      </Button>
      <Button appearance="secondary" title="Stay in plan mode and say what to change" onClick={props.onKeep}>
        Keep Planning
      </Button>
    </div>
  );
}
