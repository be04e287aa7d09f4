/**
 * Agent: Toggle Plan Mode, `/plan` and Approve Plan (docs/chat.md): what the host does around the core's plan mode
 * (src/core/agent/plan-mode.ts, AgentSession.setPlanMode / approvePlan) — the checks, the chat's snapshot (its plan
 * mode indicator) and the words the user reads. Pure: no `vscode` import.
 */
import { errorText } from "../../core/error-text.js";
import { NO_SESSION_TEXT } from "../common/guard-texts.js";
import type { Notify } from "../common/notifier.js";
import type { SessionController } from "../session/session-controller.js";

/** Said when plan mode goes on. */
export const PLAN_MODE_ON_TEXT =
  "Plan mode is on: the agent only reads and proposes a plan; it changes nothing until you approve the plan.";
/** Said when plan mode goes off. */
export const PLAN_MODE_OFF_TEXT = "Plan mode is off: the agent has all its tools again.";

/** What plan mode's actions need. */
export interface PlanModeDeps {
  controller: Pick<SessionController, "agent" | "readOnlyReason" | "pushChat">;
  notify: Pick<Notify, "status" | "error" | "info">;
  /** Sends a prompt as the chat input does (`/plan <task>`'s task). */
  send(text: string): Promise<void>;
}

/** See the file comment. Each action reports its outcome through the notifier and never throws. */
export class PlanModeActions {
  constructor(private readonly d: PlanModeDeps) {}

  /** The leaf's agent when a session is open and writable; else says why not, and undefined. */
  private writableAgent(): PlanModeDeps["controller"]["agent"] {
    const { controller, notify } = this.d;
    const agent = controller.agent;
    if (!agent) {
      notify.info(NO_SESSION_TEXT);
      return undefined;
    }
    const readOnly = controller.readOnlyReason();
    if (readOnly !== undefined) {
      notify.status(readOnly, "error");
      return undefined;
    }
    return agent;
  }

  /**
   * Turns plan mode on or off at the leaf. With a task (`/plan <task>`, or a string argument of the command) plan
   * mode goes on, whatever it was, and the task is sent.
   */
  async toggle(task?: unknown): Promise<void> {
    const { controller, notify } = this.d;
    const agent = this.writableAgent();
    if (!agent) return;
    const text = typeof task === "string" ? task.trim() : "";
    const on = text !== "" || !agent.getPlanMode();
    try {
      agent.setPlanMode(on);
    } catch (e) {
      return notify.error(on ? "Cannot turn plan mode on" : "Cannot turn plan mode off", e);
    }
    controller.pushChat();
    notify.status(on ? PLAN_MODE_ON_TEXT : PLAN_MODE_OFF_TEXT);
    if (text !== "") await this.d.send(text);
  }

  /** Approve Plan: plan mode goes off and the agent is asked to carry out the plan, with all its tools. */
  async approve(): Promise<void> {
    const { controller, notify } = this.d;
    const agent = this.writableAgent();
    if (!agent) return;
    // The mode's line is written before the prompt's first await: the chat shows plan mode off while the plan runs.
    const run = agent.approvePlan();
    controller.pushChat();
    try {
      await run;
    } catch (e) {
      notify.error("Cannot approve the plan", new Error(errorText(e)));
    }
  }
}
