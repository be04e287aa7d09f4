/**
 * "Show Changes at This Point": the files the turn of a row changed, per folder, between the checkpoint taken
 * when the turn's prompt was sent and the one holding the files at the row; and the read-only documents that
 * show one side of a change (the `agent-tree-checkpoint:` URIs the host's content provider serves). Pure: no
 * `vscode` import.
 */
import { CheckpointNotFoundError } from "../../core/checkpoints/errors.js";
import {
  findCheckpointForEntry,
  findPathCheckpoint,
  findTurnCheckpoints,
  type CheckpointSessionView,
  type FoundCheckpoint,
} from "../../core/checkpoints/session-link.js";
import type { LineCounts } from "../../core/checkpoints/tree-diff.js";
import type { FileChange } from "../../core/checkpoints/types.js";
import type { WorkspaceCheckpoints } from "../../core/checkpoints/workspace-checkpoints.js";

/** The URI scheme of read-only checkpoint documents. */
export const CHECKPOINT_SCHEME = "agent-tree-checkpoint";

/** One file the turn changed, with the checkpoints on both sides. */
export interface TurnFileChange {
  folder: string;
  beforeId: string;
  afterId: string;
  change: FileChange;
}

/** The files the turn of `entryId` changed, in every folder (empty when it changed none or nothing is known). */
export async function turnChanges(
  view: CheckpointSessionView,
  entryId: string,
  checkpoints: WorkspaceCheckpoints,
): Promise<TurnFileChange[]> {
  return changesBetween(checkpoints, (folder) => findTurnCheckpoints(view, entryId, folder));
}

/** A file a run changed, with its line counts (none for a binary file). */
export interface RunFileChange extends TurnFileChange {
  lines: LineCounts;
}

/**
 * The files a whole run changed (its follow-ups included): from the checkpoint before its first user message
 * `firstUserId` to the one holding the files at `lastId`, with lines added and removed.
 */
export async function runChanges(
  view: CheckpointSessionView,
  firstUserId: string,
  lastId: string,
  checkpoints: WorkspaceCheckpoints,
): Promise<RunFileChange[]> {
  const changes = await changesBetween(checkpoints, (folder) => {
    const before = findPathCheckpoint(view, view.getEnvelope(firstUserId)?.parentId ?? null, folder);
    const after = findCheckpointForEntry(view, lastId, folder);
    return before && after ? { before, after } : undefined;
  });
  const counts = new Map<string, Map<string, LineCounts>>();
  const out: RunFileChange[] = [];
  for (const c of changes) {
    const key = `${c.folder}\0${c.beforeId}\0${c.afterId}`;
    let folderCounts = counts.get(key);
    if (!folderCounts) {
      folderCounts = (await checkpoints.engine(c.folder)?.lineCounts(c.beforeId, c.afterId)) ?? new Map();
      counts.set(key, folderCounts);
    }
    out.push({ ...c, lines: folderCounts.get(c.change.path) ?? {} });
  }
  return out;
}

async function changesBetween(
  checkpoints: WorkspaceCheckpoints,
  ends: (folder: string) => { before: FoundCheckpoint; after: FoundCheckpoint } | undefined,
): Promise<TurnFileChange[]> {
  const out: TurnFileChange[] = [];
  for (const folder of checkpoints.folders()) {
    const found = ends(folder);
    const engine = checkpoints.engine(folder);
    if (!found || !engine || found.before.ref.tree === found.after.ref.tree) continue;
    const beforeId = found.before.ref.checkpointId;
    const afterId = found.after.ref.checkpointId;
    let changes: FileChange[];
    try {
      changes = await engine.diff(beforeId, afterId);
    } catch (e) {
      // A session copied from another machine names checkpoints this store never had.
      if (e instanceof CheckpointNotFoundError) continue;
      throw e;
    }
    for (const change of changes) out.push({ folder, beforeId, afterId, change });
  }
  return out;
}

/** What a checkpoint document shows: one file of one folder's checkpoint. */
export interface CheckpointFileRef {
  folder: string;
  checkpointId: string;
  /** Folder-relative, with "/". */
  path: string;
}

/** The parts of a checkpoint document's URI (path "/<file path>", so the editor picks the language by name). */
export function checkpointUriParts(ref: CheckpointFileRef): { scheme: string; path: string; query: string } {
  const query = new URLSearchParams({ folder: ref.folder, id: ref.checkpointId }).toString();
  return { scheme: CHECKPOINT_SCHEME, path: `/${ref.path}`, query };
}

/** The reference a checkpoint document's URI names, or undefined when it is not one. */
export function parseCheckpointUri(uri: {
  scheme: string;
  path: string;
  query: string;
}): CheckpointFileRef | undefined {
  if (uri.scheme !== CHECKPOINT_SCHEME || !uri.path.startsWith("/")) return undefined;
  const q = new URLSearchParams(uri.query);
  const folder = q.get("folder");
  const checkpointId = q.get("id");
  if (!folder || !checkpointId) return undefined;
  return { folder, checkpointId, path: uri.path.slice(1) };
}

/**
 * The text of a checkpoint document: the file's content, nothing for a file the checkpoint lacks (the added or
 * deleted side of a change), a note for binary content (the diff editor shows text).
 */
export async function checkpointDocumentText(
  checkpoints: WorkspaceCheckpoints,
  ref: CheckpointFileRef,
): Promise<string> {
  const engine = checkpoints.engine(ref.folder);
  if (!engine) return "";
  const bytes = await engine.readFileAt(ref.checkpointId, ref.path);
  if (!bytes) return "";
  if (bytes.subarray(0, 8000).includes(0)) return `(binary file, ${bytes.length} bytes)`;
  return bytes.toString("utf8");
}
