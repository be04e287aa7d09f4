/**
 * The copies' size cap while branches run (docs/parallel.md): `assertCopiesFit` refuses a run whose new copies would
 * not fit, but a branch's tools can then write any amount into its copy. So each tool call of a branch that may
 * change files (`mutates`) is measured: the branch's own copy before it, every copy under the copies folder after it
 * and every few seconds while it runs. When the copies are then over the cap and this branch's copy grew during the
 * call, the branch is stopped (a running command is killed) with a message naming the cap; branches whose copies
 * did not grow go on. The files written so far stay in the copy (Adopt and compare read its last checkpoint).
 */
import type { AgentTool } from "../tools/types.js";
import { folderBytes, listBranchCopies } from "./branch-copy.js";

/**
 * How often the copies are measured while a tool call runs: every 5 s, or ten times as long as the last walk took
 * (so walking never takes more than a tenth of the time on a big copies folder or a loaded machine).
 */
export const CAP_POLL_MS = 5_000;

/** One measurement of the copies folder. */
export interface CopiesSize {
  /** Every copy's bytes together. */
  total: number;
  /** Bytes per copy folder. */
  byRoot: ReadonlyMap<string, number>;
}

/**
 * Measures every copy under a folder, one walk at a time: a request made while a walk runs gets the next walk
 * (it must see what was written before it asked), shared with every request made meanwhile.
 */
export class CopiesMeter {
  private running: Promise<CopiesSize> | undefined;
  private queued: Promise<CopiesSize> | undefined;
  /** How long the last walk took, ms. */
  lastWalkMs = 0;

  constructor(private readonly copiesDir: string) {}

  /** A walk that starts after this call. */
  measure(): Promise<CopiesSize> {
    if (!this.running) {
      const walk = this.walk();
      this.running = walk;
      void walk.finally(() => {
        if (this.running === walk) this.running = undefined;
      });
      return walk;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.measure();
      });
    return this.queued;
  }

  private async walk(): Promise<CopiesSize> {
    const started = Date.now();
    const copies = await listBranchCopies(this.copiesDir);
    this.lastWalkMs = Date.now() - started;
    return {
      total: copies.reduce((sum, c) => sum + c.bytes, 0),
      byRoot: new Map(copies.map((c) => [c.root, c.bytes])),
    };
  }
}

function formatMiB(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The message a branch stopped for the cap ends with. */
export function overCapMessage(tool: string, totalBytes: number, capBytes: number): string {
  return (
    `Stopped: this branch's ${tool} call took the branch copies to ${formatMiB(totalBytes)}, over the cap of ` +
    `${formatMiB(capBytes)} (agentTree.parallel.maxCopiesSizeMB). Its copy is kept as it is; Adopt brings its ` +
    `last checkpoint. ` +
    `Adopt, archive or delete finished branches, or raise the cap, and explore again.`
  );
}

/** What `guardCopiesCap` needs of one branch. */
export interface CapGuard {
  /** The branch's copy folder (as listed under the copies folder). */
  root: string;
  meter: CopiesMeter;
  capBytes: number;
  /** Stops the branch with the message (once). */
  stop(message: string): void;
  /** Measuring interval while a call runs (default CAP_POLL_MS). */
  pollMs?: number;
}

/** `tools`, each call that may change files measured against the cap (see the file comment). */
export function guardCopiesCap(tools: readonly AgentTool[], guard: CapGuard): AgentTool[] {
  let stopped = false;
  return tools.map((tool): AgentTool => {
    if (!tool.mutates) return tool;
    return {
      ...tool,
      execute: async (args, ctx) => {
        const before = await folderBytes(guard.root);
        const check = async (): Promise<void> => {
          if (stopped) return;
          const size = await guard.meter.measure();
          const own = size.byRoot.get(guard.root) ?? 0;
          if (stopped || size.total <= guard.capBytes || own <= before) return;
          stopped = true;
          guard.stop(overCapMessage(tool.name, size.total, guard.capBytes));
        };
        let timer: NodeJS.Timeout | undefined;
        let polling = true;
        const poll = (): void => {
          timer = setTimeout(
            () => {
              void check()
                .catch(() => undefined)
                .then(() => {
                  if (polling) poll();
                });
            },
            Math.max(guard.pollMs ?? CAP_POLL_MS, 10 * guard.meter.lastWalkMs),
          );
        };
        poll();
        try {
          return await tool.execute(args, ctx);
        } finally {
          polling = false;
          clearTimeout(timer);
          await check().catch(() => undefined);
        }
      },
    };
  });
}
