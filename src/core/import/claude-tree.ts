/**
 * The shape of a converted transcript: which line hangs off which, in what order lines are converted, and the
 * entries they become. What a line becomes is claude-messages.ts's business; where a sidechain's first line
 * hangs is claude-sidechains.ts's.
 *
 * - Lines are looked up by uuid; a subagent file is a uuid space of its own (its uuids may repeat the main
 *   file's), so lines are keyed by agent and uuid. A subagent line whose parent is not in its own file but in the
 *   main file hangs there (compaction agents continue from the main conversation).
 * - A line is converted after its parent (depth first from each line, in file order), so every entry comes
 *   after its parent; a parentUuid cycle is cut and reported.
 */
import { createHash } from "node:crypto";
import type { SessionEntry } from "../session/types.js";
import type { ClaudeRecord } from "./claude-types.js";

/** Reports a line that was skipped or repaired. */
export type IssueReporter = (rec: ClaudeRecord, reason: string) => void;

/** Converts one line whose parent is `parentId`; returns the id its children hang off. */
export type LineConverter = (rec: ClaudeRecord, parentId: string | null) => string | null;

/** Where a line without parentUuid hangs: the line holding the Task call that started it, if known. */
export type LauncherLookup = (rec: ClaudeRecord) => ClaudeRecord | undefined;

/** Key of a line's uuid: subagent files are separate uuid spaces. */
export function uuidKey(agent: string | undefined, uuid: string): string {
  return agent === undefined ? uuid : `${agent}\n${uuid}`;
}

/** Seed of a line's entry ids: the uuid, prefixed with the agent id for subagent lines so files never clash. */
export function seedOf(rec: ClaudeRecord): string {
  const uuid = rec.data.uuid as string;
  return rec.agent === undefined ? uuid : `agent-${rec.agent}/${uuid}`;
}

/** The converted entries, in the order they were added, with stable ids. */
export class EntryStore {
  /** Every entry, parents before children. */
  readonly entries: SessionEntry[] = [];
  private readonly byId = new Map<string, SessionEntry>();

  /** @param onAdd Called after each entry is stored (sidechain labelling watches where branches start). */
  constructor(private readonly onAdd: (entry: SessionEntry) => void = () => undefined) {}

  /** The entry with this id, if added. */
  get(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }

  /**
   * A fresh id for `seed`. Ids derive from the Claude uuid (plus a suffix for the several entries one line can
   * give), so converting the same transcript twice gives the same ids: an id picked in an opened transcript
   * stays valid for "Continue in a New Session".
   */
  newId(seed: string): string {
    for (let n = 0; ; n++) {
      const id = createHash("sha256")
        .update(n === 0 ? seed : `${seed}#${n}`)
        .digest("hex")
        .slice(0, 8);
      if (!this.byId.has(id)) return id;
    }
  }

  /** Store an entry (its parent must already be stored); returns its id. */
  add(entry: SessionEntry): string {
    this.entries.push(entry);
    this.byId.set(entry.id, entry);
    this.onAdd(entry);
    return entry.id;
  }
}

/** Lines by uuid, and the entry each resolved to. One instance per conversion. */
export class LineTree {
  private readonly byUuid = new Map<string, ClaudeRecord>();
  private readonly resolved = new Map<string, string | null>();
  private readonly visiting = new Set<string>();

  /**
   * @param records The main file's lines.
   * @param all Main-file and subagent-file lines, main file first.
   */
  constructor(
    private readonly records: readonly ClaudeRecord[],
    private readonly all: readonly ClaudeRecord[],
    private readonly issue: IssueReporter,
  ) {}

  /**
   * Index lines by uuid and return the lines that take part in the conversion: every line but those whose
   * uuid is not a string and repeated copies of a uuid (reported).
   */
  index(): ClaudeRecord[] {
    const kept: ClaudeRecord[] = [];
    for (const rec of this.all) {
      const d = rec.data;
      if (d.uuid !== undefined && typeof d.uuid !== "string") {
        this.issue(rec, "uuid is not a string; line skipped");
        continue;
      }
      if (typeof d.uuid === "string") {
        const key = uuidKey(rec.agent, d.uuid);
        // Claude Code sometimes repeats a line (resume, retries); the first copy wins.
        if (this.byUuid.has(key)) {
          this.issue(rec, `duplicate uuid ${d.uuid}; later copy ignored`);
          continue;
        }
        this.byUuid.set(key, rec);
      }
      kept.push(rec);
    }
    return kept;
  }

  /** Convert every line with a uuid, each after its parent. Call {@link index} first. */
  convertAll(convert: LineConverter, launcherOf: LauncherLookup): void {
    for (const rec of this.all) if (typeof rec.data.uuid === "string") this.visit(rec, convert, launcherOf);
  }

  /** The entry a main-file uuid resolved to (null: a root pass-through line; undefined: not converted). */
  idOfMainUuid(uuid: string): string | null | undefined {
    return this.resolved.get(uuid);
  }

  /** Entry id for a uuid's line, converting it (and its ancestors) first. */
  private visit(rec: ClaudeRecord, convert: LineConverter, launcherOf: LauncherLookup): string | null {
    const uuid = uuidKey(rec.agent, rec.data.uuid as string);
    if (this.byUuid.get(uuid) !== rec) return this.resolved.get(uuid) ?? null;
    if (this.resolved.has(uuid)) return this.resolved.get(uuid) ?? null;
    if (this.visiting.has(uuid)) {
      this.issue(rec, "parentUuid cycle; line shown as a root");
      return null;
    }
    this.visiting.add(uuid);
    const parentId = this.parentOf(rec, convert, launcherOf);
    const id = convert(rec, parentId);
    this.visiting.delete(uuid);
    this.resolved.set(uuid, id);
    return id;
  }

  private parentOf(rec: ClaudeRecord, convert: LineConverter, launcherOf: LauncherLookup): string | null {
    const d = rec.data;
    let parentUuid = typeof d.parentUuid === "string" ? d.parentUuid : undefined;
    if (
      !parentUuid &&
      d.type === "system" &&
      d.subtype === "compact_boundary" &&
      typeof d.logicalParentUuid === "string"
    )
      parentUuid = d.logicalParentUuid;
    if (!parentUuid) {
      // A sidechain's first line has no parent of its own: it hangs off the Task call that started it.
      const launcher = launcherOf(rec);
      return launcher ? this.visit(launcher, convert, launcherOf) : null;
    }
    // A subagent's line hangs off a line of its own file, or off the main transcript's (Claude Code's compaction
    // agents, subagents/agent-acompact-*.jsonl, continue from the main conversation).
    const parent =
      this.byUuid.get(uuidKey(rec.agent, parentUuid)) ??
      (rec.agent === undefined ? undefined : this.byUuid.get(uuidKey(undefined, parentUuid)));
    if (!parent) {
      this.issue(rec, `parent ${parentUuid} is not in this transcript; shown as a root`);
      return null;
    }
    return this.visit(parent, convert, launcherOf);
  }

  /** Where Claude Code would resume: the entry of the last main-chain (non-sidechain) message of the main file. */
  findLeaf(): string | null {
    for (let i = this.records.length - 1; i >= 0; i--) {
      const d = this.records[i].data;
      if (typeof d.uuid !== "string" || d.isSidechain) continue;
      if (d.type !== "user" && d.type !== "assistant" && d.type !== "system") continue;
      const id = this.resolved.get(d.uuid);
      if (id) return id;
    }
    return null;
  }

  /** Claude uuid → entry id: main-file uuids as they are; a subagent line's unless an earlier file has it. */
  exportedIds(): Map<string, string | null> {
    const out = new Map<string, string | null>();
    for (const rec of this.all) {
      const uuid = rec.data.uuid;
      if (typeof uuid !== "string" || out.has(uuid)) continue;
      const key = uuidKey(rec.agent, uuid);
      if (this.resolved.has(key)) out.set(uuid, this.resolved.get(key) ?? null);
    }
    return out;
  }
}
