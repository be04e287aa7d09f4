/**
 * The host's operations table: each operation is declared once — its command id, the entry it acts on, what it
 * needs before it starts (operation-guards.ts) — and every way in dispatches into it by command id: the palette
 * and a row's context menu (commands.ts registers each entry as its command), the tree's clicks and keys
 * (`tree/navigate`, `tree/action`; message-router.ts), the views' buttons (`command` → executeCommand, or the
 * router), and the chat's slash commands (src/host/chat-input/slash-commands.ts). The guards run here, once, before
 * the operation — after the picker, when the operation asks for its entry — and the operation reports its own outcome
 * through the Notifier. Pure: no `vscode` import.
 */
import type { CommandId } from "../common/command-ids.js";
import type { Notify } from "../common/notifier.js";
import { parseEntryContextArg } from "../views/protocol-validation.js";
import { refusal, sayRefusal, type GuardState, type OperationNeed } from "./operation-guards.js";

/**
 * The entry an operation acts on: `entry` — a row's (its context menu, its key, a click), nothing runs without one;
 * `entryOrPick` — a row's, else (the palette) the one its `pick` asks for, or none when it has no `pick` (it acts at
 * the leaf); `pick` — always the one its `pick` asks for; `none` — no entry.
 */
export type OperationTarget = "entry" | "entryOrPick" | "pick" | "none";

/** One operation of the table. */
export interface OperationSpec {
  id: CommandId;
  target: OperationTarget;
  /** Checked in this order before `run` (and again for a picked entry); the first unmet one is said, nothing runs. */
  needs: readonly OperationNeed[];
  /** Asks for the entry (`pick`, and `entryOrPick` without one); undefined: the user cancelled. */
  pick?: () => Promise<string | undefined>;
  /**
   * Holds the leaf while it runs, named so ("a branch switch"): a second operation that needs the leaf idle is
   * refused meanwhile (the questions of a move, its summary, its files).
   */
  holds?: string;
  /** Another operation to run instead on this entry (a click on a running branch's row watches it). */
  instead?: (entryId: string) => CommandId | undefined;
  /**
   * Does the work and reports its outcome; never throws (failures are reported). `entryId` per `target`; `input`:
   * the text a way in brings with it (a slash command's arguments).
   */
  run(entryId: string | undefined, input?: string): unknown;
}

/** What the dispatcher needs besides the table. */
export interface OperationsDeps {
  state: GuardState;
  notify: Pick<Notify, "info" | "warn">;
  /** Opens the workspace's session when none is open yet (before an operation that needs one). */
  ensureSession(): Promise<unknown>;
  /** True when the open session has this entry (a menu's argument is untrusted). */
  hasEntry(id: string): boolean;
}

/** The table and its dispatcher. See the file comment. */
export class Operations {
  private readonly byId = new Map<CommandId, OperationSpec>();

  constructor(
    specs: readonly OperationSpec[],
    private readonly d: OperationsDeps,
  ) {
    for (const spec of specs) {
      if (this.byId.has(spec.id)) throw new Error(`operation ${spec.id} is declared twice`);
      this.byId.set(spec.id, spec);
    }
  }

  /** The command ids the table declares. */
  ids(): CommandId[] {
    return [...this.byId.keys()];
  }

  /** The declaration of an operation, if the table has it. */
  spec(id: CommandId): OperationSpec | undefined {
    return this.byId.get(id);
  }

  /**
   * The command handler of an operation: the palette passes nothing, a row's context menu its
   * data-vscode-context object (untrusted: checked here).
   */
  handler(id: CommandId): (arg?: unknown) => Promise<void> {
    return async (arg?: unknown) => {
      const spec = this.byId.get(id);
      if (!spec) return;
      if (spec.target === "none" || spec.target === "pick") return this.run(id);
      const parsed = parseEntryContextArg(arg, { hasEntry: (entryId) => this.d.hasEntry(entryId) });
      if (spec.target === "entry" && !parsed) return;
      return this.run(id, parsed?.entryId);
    };
  }

  /**
   * Runs an operation on `entryId` (a row's click, key or menu; none from the palette) after its guards; `input` is
   * what a slash command brings (see OperationSpec.run).
   */
  async run(id: CommandId, entryId?: string, input?: string): Promise<void> {
    const spec = this.byId.get(id);
    if (!spec) return;
    if (spec.target === "entry" && entryId === undefined) return;
    const other = entryId !== undefined ? spec.instead?.(entryId) : undefined;
    if (other !== undefined && other !== id) return this.run(other, entryId, input);
    const target = spec.target === "none" ? undefined : spec.target === "pick" ? undefined : entryId;
    const { state } = this.d;
    if (spec.needs.includes("session") && !state.hasSession()) await this.d.ensureSession();
    if (this.refused(spec.needs, target)) return;
    let at = target;
    if (at === undefined && spec.pick && spec.target !== "none") {
      at = await spec.pick();
      if (at === undefined) return;
      // The picked entry's own needs (a branch that runs there, say), now that it is known.
      if (this.refused(spec.needs, at)) return;
    }
    const release = spec.holds !== undefined ? state.hold(spec.holds) : undefined;
    try {
      await spec.run(at, input);
    } finally {
      release?.();
    }
  }

  /** Says the first unmet need, if any; true when one was. */
  private refused(needs: readonly OperationNeed[], entryId: string | undefined): boolean {
    const no = refusal(needs, this.d.state, entryId);
    if (no) sayRefusal(no, this.d.notify);
    return no !== undefined;
  }
}
