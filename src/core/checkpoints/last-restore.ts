/** The last restore of a folder, kept in its store so that `undoRestore()` works after a restart. */
import fs from "node:fs/promises";
import path from "node:path";
import { isCommitId } from "./shadow-repo.js";

/** The file in a store that remembers the last restore. */
const LAST_RESTORE_FILE = "last-restore.json";

/** The last restore of a folder. */
export interface LastRestore {
  /** The checkpoint taken just before it (what an undo restores). */
  beforeId: string;
  targetId: string;
  /** ISO time. */
  at: string;
  /** Restores of several folders made together share this id (WorkspaceCheckpoints undoes such a batch together). */
  batchId?: string;
}

/** Reads the record of `storeDir`; undefined when there is none or it is damaged. */
export async function readLastRestore(storeDir: string): Promise<LastRestore | undefined> {
  const text = await fs.readFile(path.join(storeDir, LAST_RESTORE_FILE), "utf8").catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const data = JSON.parse(text) as Partial<LastRestore>;
    if (typeof data.beforeId !== "string" || !isCommitId(data.beforeId)) return undefined;
    if (typeof data.targetId !== "string" || typeof data.at !== "string") return undefined;
    const last: LastRestore = { beforeId: data.beforeId, targetId: data.targetId, at: data.at };
    if (typeof data.batchId === "string") last.batchId = data.batchId;
    return last;
  } catch {
    return undefined;
  }
}

/** Replaces the record of `storeDir`. */
export async function writeLastRestore(storeDir: string, last: LastRestore): Promise<void> {
  await fs.writeFile(path.join(storeDir, LAST_RESTORE_FILE), JSON.stringify(last) + "\n");
}
