/**
 * What the tests of the operations table build it from: actions that record their calls, a guard state under which
 * everything may start unless told otherwise, and a notifier that records what it says.
 */
import { FilesLock } from "../../src/host/common/files-lock.js";
import { hostOperations, type OperationActions } from "../../src/host/operations/host-operations.js";
import type { GuardState } from "../../src/host/operations/operation-guards.js";
import { Operations, type OperationsDeps } from "../../src/host/operations/operations.js";

/** A call as the tests record it: `name(arg,…)`, each argument as JSON. */
export function callText(name: string, args: readonly unknown[]): string {
  return `${name}(${args.map((a) => JSON.stringify(a)).join(",")})`;
}

/**
 * Every action group of the table as one object whose methods record their calls into `calls`, except the methods
 * `methods` supplies (by name, in any group); `groups` replaces whole groups (a real BranchWatch, say).
 */
export function recordingActions(
  calls: string[],
  methods: Record<string, unknown> = {},
  groups: Partial<OperationActions> = {},
): OperationActions {
  const rec =
    (name: string) =>
    async (...args: unknown[]): Promise<void> =>
      void calls.push(callText(name, args));
  const actions = new Proxy({}, { get: (_t, name) => (name in methods ? methods[String(name)] : rec(String(name))) });
  return {
    actions,
    archive: actions,
    compare: actions,
    files: actions,
    exporter: actions,
    systemPrompt: actions,
    parallel: actions,
    checks: actions,
    watch: actions,
    renameSession: rec("renameSession"),
    ...groups,
  } as unknown as OperationActions;
}

/** A state in which everything may start (a writable session, nothing at work, the files free), but for `state`. */
export function freeState(state: Partial<GuardState> = {}): GuardState {
  return {
    hasSession: () => true,
    readOnlyReason: () => undefined,
    busyAt: () => undefined,
    busyWithin: () => undefined,
    hold: () => () => undefined,
    files: new FilesLock(),
    ...state,
  };
}

/** A notifier that records `info:<text>` and `warn:<text>` into `said`. */
export function recordingNotify(said: string[]): OperationsDeps["notify"] {
  return { info: (t) => void said.push(`info:${t}`), warn: (t) => void said.push(`warn:${t}`) };
}

/** The real table over `actions` under `state`, saying into `said`; `hasEntry` tells which entries exist (all). */
export function operationsOver(
  actions: OperationActions,
  state: GuardState,
  said: string[],
  hasEntry: (id: string) => boolean = () => true,
): Operations {
  return new Operations(hostOperations(actions), {
    state,
    notify: recordingNotify(said),
    ensureSession: async () => undefined,
    hasEntry,
  });
}
