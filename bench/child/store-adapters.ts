/**
 * One small interface over the session stores, so the measuring code is the same for ours and pi's.
 * Our store is bundled into the child; pi's SessionManager (0.73.1 or 1.6.x, tools/pi) is imported at run time.
 */
import { pathToFileURL } from "node:url";
import { SessionManager } from "../../src/core/session/session-manager.js";
import type { AgentMessage } from "../../src/core/messages.js";

/** The operations the benchmark times. Results are returned so the work cannot be optimised away. */
export interface StoreUnderTest {
  entryCount(): number;
  getTree(): number;
  buildSessionContext(): number;
  branch(id: string): void;
  appendMessage(message: AgentMessage): string;
  close(): Promise<void>;
}

/** The part of pi's SessionManager (0.73.1 and 1.6.x, dist/core/session-manager.d.ts) the benchmark calls. */
interface PiSessionManager {
  getEntries(): unknown[];
  getTree(): unknown[];
  buildSessionContext(): { messages: unknown[] };
  branch(branchFromId: string): void;
  appendMessage(message: unknown): string;
}
interface PiSessionManagerStatic {
  open(path: string, sessionDir?: string): PiSessionManager;
}

/** A tree node of either store. */
interface AnyNode {
  children: readonly unknown[];
  envelope?: { preview: string };
}

/**
 * Walks the tree iteratively (deep trees would overflow a recursive walk), reading each node's preview where
 * the store has one (ours), as a view would. Returns nodes plus preview characters.
 */
function countNodes(roots: readonly AnyNode[]): number {
  let count = 0;
  let chars = 0;
  const stack: AnyNode[] = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count++;
    chars += node.envelope?.preview.length ?? 0;
    for (const child of node.children) stack.push(child as AnyNode);
  }
  return count + chars;
}

/** Opens `file` with our SessionManager. */
export async function openOurs(file: string): Promise<StoreUnderTest> {
  const sm = await SessionManager.open(file);
  return {
    entryCount: () => sm.getEntryCount(),
    getTree: () => countNodes(sm.getTree()),
    buildSessionContext: () => sm.buildSessionContext().messages.length,
    branch: (id) => sm.branch(id),
    appendMessage: (message) => sm.appendMessage(message),
    close: () => sm.close(),
  };
}

/** Loads pi's module (not timed) and returns an opener (timed by the caller). */
export async function loadPi(piModule: string, sessionDir: string): Promise<(file: string) => StoreUnderTest> {
  const mod = (await import(pathToFileURL(piModule).href)) as { SessionManager: PiSessionManagerStatic };
  return (file) => {
    const sm = mod.SessionManager.open(file, sessionDir);
    return {
      entryCount: () => sm.getEntries().length,
      getTree: () => countNodes(sm.getTree() as AnyNode[]),
      buildSessionContext: () => sm.buildSessionContext().messages.length,
      branch: (id) => sm.branch(id),
      appendMessage: (message) => sm.appendMessage(message),
      // pi has no close(): appends are synchronous appendFileSync calls.
      close: async () => {},
    };
  };
}
