/**
 * The host's operations table: each operation is declared once — its command id, the entry it acts on, what it
 * needs before it starts (operation-guards.ts) — and every way in dispatches into it by command id: the palette
 * and a row's context menu (commands.ts registers each entry as its command), the tree's keyboard (`tree/action`
 * carries the command id; message-router.ts) and the views' buttons (`command` → executeCommand). The guards run
 * here, once, before the operation; the operation reports its own outcome through the Notifier. Pure: no
 * `vscode` import.
 */
import type { CommandId } from "../command-ids.js";
import { parseEntryContextArg } from "../protocol-validation.js";
import { refusal, sayRefusal, type GuardState, type Notify, type OperationNeed } from "./operation-guards.js";

/**
 * The entry an operation acts on: `entry` — a row's (its context menu, its key), nothing runs without one;
 * `entryOrPick` — a row's, else (the palette) the operation asks for one; `none` — no entry.
 */
export type OperationTarget = "entry" | "entryOrPick" | "none";

/** One operation of the table. */
export interface OperationSpec {
  id: CommandId;
  target: OperationTarget;
  /** Checked in this order before `run`; the first unmet one is said and nothing runs. */
  needs: readonly OperationNeed[];
  /** Does the work and reports its outcome; never throws (failures are reported). `entryId` per `target`. */
  run(entryId: string | undefined): unknown;
}

/** What the dispatcher needs besides the table. */
export interface OperationsDeps {
  state: GuardState;
  notify: Notify;
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
      if (spec.target === "none") return this.run(id);
      const parsed = parseEntryContextArg(arg, { hasEntry: (entryId) => this.d.hasEntry(entryId) });
      if (spec.target === "entry" && !parsed) return;
      return this.run(id, parsed?.entryId);
    };
  }

  /** Runs an operation on `entryId` (a row's key, a menu, the palette) after its guards. */
  async run(id: CommandId, entryId?: string): Promise<void> {
    const spec = this.byId.get(id);
    if (!spec) return;
    if (spec.target === "entry" && entryId === undefined) return;
    await this.guarded(spec.needs, entryId, () => spec.run(spec.target === "none" ? undefined : entryId));
  }

  /**
   * Runs `task` after the guards of `needs` (a click on a row: a move that is no command of its own). A session
   * is opened first when one is needed and none is open.
   */
  async guarded(needs: readonly OperationNeed[], entryId: string | undefined, task: () => unknown): Promise<void> {
    if (needs.includes("session") && !this.d.state.hasSession()) await this.d.ensureSession();
    const no = refusal(needs, this.d.state, entryId);
    if (no) return sayRefusal(no, this.d.notify);
    await task();
  }
}
