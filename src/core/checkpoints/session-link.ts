/**
 * How checkpoints are tied to a session (docs/checkpoints.md). A checkpoint is linked by a `custom` entry of type
 * "agent-tree/checkpoint" in the session file: pi and our context builder ignore custom entries, a fork copies the
 * path and with it the links, a copy of the file keeps them. The entry is written where the files were recorded
 * and is always followed by a content entry (the prompt's user message, or the next model reply), so it is never
 * the leaf the user sees.
 *
 * The files of an entry X are those of: X itself if it is a checkpoint entry; else the newest checkpoint entry
 * hanging off X that was taken after X's tool calls ran; else the nearest checkpoint entry on the path above X.
 */
import type { SessionManager } from "../session/session-manager.js";
import type { SessionEntry } from "../session/types.js";
import type { FileChange } from "./types.js";
import type { FolderMergeTarget, FolderTarget } from "./workspace-checkpoints.js";

/** The customType of checkpoint entries. */
export const CHECKPOINT_ENTRY_TYPE = "agent-tree/checkpoint";

/**
 * When a checkpoint was taken: before a prompt's first message (user edits since the last turn included), before
 * a model call that follows tool calls that may have changed files, or when a prompt ended right after such tool
 * calls (aborted, or out of turns).
 */
export type CheckpointMoment = "prompt-start" | "after-tools" | "prompt-end";

/** At most this many changed files are listed in an entry (the count is always exact). */
export const MAX_LISTED_FILES = 50;

/** One folder's checkpoint in an entry. */
export interface FolderCheckpointRef {
  /** The workspace folder (absolute path, as the host gave it). */
  folder: string;
  checkpointId: string;
  /** The checkpoint's tree id: equal trees hold equal files. */
  tree: string;
  /** The previous checkpoint of this folder on the session path, which `changed` and `files` compare with. */
  baseId?: string;
  /** How many files changed since `baseId` (0 without one). */
  changed: number;
  /** The first MAX_LISTED_FILES of them. */
  files: FileChange[];
}

/** The `data` of a checkpoint entry. Only folders whose files differ from the path's previous checkpoint appear. */
export interface CheckpointEntryData {
  version: 1;
  moment: CheckpointMoment;
  folders: FolderCheckpointRef[];
}

/** A checkpoint found for an entry. */
export interface FoundCheckpoint {
  /** The checkpoint entry's id. */
  entryId: string;
  ref: FolderCheckpointRef;
}

/** What the lookups need from a session (a SessionManager provides it; only envelopes and small entries are read). */
export type CheckpointSessionView = Pick<SessionManager, "getEnvelope" | "getEntry" | "getChildIds">;

const MOMENTS: readonly CheckpointMoment[] = ["prompt-start", "after-tools", "prompt-end"];
const STATUSES: readonly FileChange["status"][] = ["added", "modified", "deleted", "renamed", "type-changed"];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseRef(v: unknown): FolderCheckpointRef | undefined {
  if (!isRecord(v)) return undefined;
  const { folder, checkpointId, tree, baseId, changed, files } = v;
  if (typeof folder !== "string" || typeof checkpointId !== "string" || typeof tree !== "string") return undefined;
  const ref: FolderCheckpointRef = {
    folder,
    checkpointId,
    tree,
    changed: typeof changed === "number" && Number.isFinite(changed) ? changed : 0,
    files: Array.isArray(files)
      ? files.filter(
          (f): f is FileChange =>
            isRecord(f) && typeof f.path === "string" && STATUSES.includes(f.status as FileChange["status"]),
        )
      : [],
  };
  if (typeof baseId === "string") ref.baseId = baseId;
  return ref;
}

/** The checkpoint data of an entry, or undefined when it is not a (valid) checkpoint entry. */
export function checkpointDataOf(entry: SessionEntry | undefined): CheckpointEntryData | undefined {
  if (!entry || entry.type !== "custom" || entry.customType !== CHECKPOINT_ENTRY_TYPE || !isRecord(entry.data))
    return undefined;
  const { version, moment, folders } = entry.data;
  if (version !== 1 || !MOMENTS.includes(moment as CheckpointMoment) || !Array.isArray(folders)) return undefined;
  const refs = folders.map(parseRef).filter((r): r is FolderCheckpointRef => r !== undefined);
  return { version: 1, moment: moment as CheckpointMoment, folders: refs };
}

/** The checkpoint data of entry `id` (only custom entries are loaded). */
export function readCheckpointEntry(view: CheckpointSessionView, id: string): CheckpointEntryData | undefined {
  if (view.getEnvelope(id)?.type !== "custom") return undefined;
  return checkpointDataOf(view.getEntry(id));
}

/** Per session view: entry id → the nearest checkpoint entry at or above it (entries never change, so this holds). */
const nearestMemo = new WeakMap<object, Map<string, string | null>>();

/** The nearest checkpoint entry at or above `id`, any folder. */
function nearestCheckpointEntry(view: CheckpointSessionView, id: string | null): string | null {
  let memo = nearestMemo.get(view);
  if (!memo) nearestMemo.set(view, (memo = new Map()));
  const walked = new Set<string>();
  let found: string | null = null;
  for (let cur = id; cur !== null;) {
    const known = memo.get(cur);
    if (known !== undefined) {
      found = known;
      break;
    }
    walked.add(cur);
    if (readCheckpointEntry(view, cur)) {
      found = cur;
      break;
    }
    const parent = view.getEnvelope(cur)?.parentId ?? null;
    // A cycle in a damaged file must not hang the walk.
    if (parent !== null && walked.has(parent)) break;
    cur = parent;
  }
  for (const w of walked) memo.set(w, found);
  return found;
}

/**
 * The checkpoint of `folder` nearest at or above `fromId` on the session path (ancestors only — what a fork of
 * that path keeps), or undefined.
 */
export function findPathCheckpoint(
  view: CheckpointSessionView,
  fromId: string | null,
  folder: string,
): FoundCheckpoint | undefined {
  for (let cur = nearestCheckpointEntry(view, fromId), guard = 0; cur !== null && guard < 1_000_000; guard++) {
    const ref = readCheckpointEntry(view, cur)?.folders.find((f) => f.folder === folder);
    if (ref) return { entryId: cur, ref };
    cur = nearestCheckpointEntry(view, view.getEnvelope(cur)?.parentId ?? null);
  }
  return undefined;
}

/** The checkpoint holding the files of entry `entryId` for `folder` (the rule in the file comment). */
export function findCheckpointForEntry(
  view: CheckpointSessionView,
  entryId: string,
  folder: string,
): FoundCheckpoint | undefined {
  const own = readCheckpointEntry(view, entryId)?.folders.find((f) => f.folder === folder);
  if (own) return { entryId, ref: own };
  const children = view.getChildIds(entryId);
  for (let i = children.length - 1; i >= 0; i--) {
    const data = readCheckpointEntry(view, children[i]);
    const ref = data && data.moment !== "prompt-start" ? data.folders.find((f) => f.folder === folder) : undefined;
    if (ref) return { entryId: children[i], ref };
  }
  return findPathCheckpoint(view, view.getEnvelope(entryId)?.parentId ?? null, folder);
}

/** The user message that started the turn `entryId` belongs to (or undefined above the first one). */
function turnStart(view: CheckpointSessionView, entryId: string): string | undefined {
  const seen = new Set<string>();
  for (let cur: string | null = entryId; cur !== null && !seen.has(cur);) {
    seen.add(cur);
    const env = view.getEnvelope(cur);
    if (!env) return undefined;
    if (env.type === "message" && env.role === "user") return cur;
    cur = env.parentId;
  }
  return undefined;
}

/**
 * The checkpoints around the turn that entry `entryId` belongs to (the prompt from its user message on): `before`
 * holds the files when the prompt was sent, `after` the files at `entryId`. Diffing them lists what the turn
 * changed ("Show Changes at This Point"); equal trees mean it changed nothing. Undefined when either is unknown.
 */
export function findTurnCheckpoints(
  view: CheckpointSessionView,
  entryId: string,
  folder: string,
): { before: FoundCheckpoint; after: FoundCheckpoint } | undefined {
  const start = turnStart(view, entryId);
  if (start === undefined) return undefined;
  const before = findPathCheckpoint(view, view.getEnvelope(start)?.parentId ?? null, folder);
  const after = findCheckpointForEntry(view, entryId, folder);
  return before && after ? { before, after } : undefined;
}

/**
 * Restore targets for entry `entryId`: for each folder, the checkpoint holding its files there. Folders without a
 * checkpoint on that path are left out (nothing is known about their files at that point).
 */
export function restoreTargetsFor(
  view: CheckpointSessionView,
  entryId: string,
  folders: readonly string[],
): FolderTarget[] {
  const targets: FolderTarget[] = [];
  for (const folder of folders) {
    const found = findCheckpointForEntry(view, entryId, folder);
    if (found) targets.push({ folder, checkpointId: found.ref.checkpointId });
  }
  return targets;
}

/**
 * Merge targets for bringing another branch's files here: for each folder, the other branch's changes from the
 * files of the common ancestor `ancestorId` to the files of `sourceId`. Folders where either is unknown, or where
 * the branch changed nothing, are left out.
 */
export function mergeTargetsFor(
  view: CheckpointSessionView,
  ancestorId: string,
  sourceId: string,
  folders: readonly string[],
): FolderMergeTarget[] {
  const targets: FolderMergeTarget[] = [];
  for (const folder of folders) {
    const base = findCheckpointForEntry(view, ancestorId, folder);
    const theirs = findCheckpointForEntry(view, sourceId, folder);
    if (base && theirs && base.ref.tree !== theirs.ref.tree)
      targets.push({ folder, baseId: base.ref.checkpointId, theirsId: theirs.ref.checkpointId });
  }
  return targets;
}
