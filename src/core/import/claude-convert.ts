/**
 * Claude Code transcript lines → a tree of this project's session entries (pi v3 shapes).
 *
 * - Every line with a uuid is a node; parentUuid links them (claude-tree.ts). A compact_boundary (parentUuid
 *   null, logicalParentUuid set) hangs off the logical parent.
 * - What each line becomes: claude-messages.ts (split assistant replies merged, tool results, compactions, meta
 *   lines; lines with no entry pass through to their children).
 * - Sidechains (Task sub-agents), inline or in subagent files of their own, hang off the Task call that started
 *   them when it can be found (else they are roots) and are labelled (claude-sidechains.ts). Subagent files'
 *   uuids are looked up within their own file and their ids seeded with the agent id, so they never clash with
 *   the main file's.
 * - Summary lines label the entry named by leafUuid.
 */
import type { LabelEntry, SessionEntry } from "../session/types.js";
import { MessageConverter } from "./claude-messages.js";
import { Sidechains } from "./claude-sidechains.js";
import type { ClaudeSubagentTranscript } from "./claude-subagent-files.js";
import { EntryStore, LineTree } from "./claude-tree.js";
import type { ClaudeParseIssue, ClaudeRecord } from "./claude-types.js";

export { CLAUDE_META_CUSTOM_TYPE } from "./claude-messages.js";

/** Options of {@link convertClaudeRecords}. */
export interface ClaudeConvertOptions {
  /** Rename tools and arguments to pi's (read, edit, …). Default false: show them as Claude Code named them. */
  mapTools?: boolean;
  /** The transcript's subagent files (readClaudeSubagents), converted as branches of the tree. */
  subagents?: readonly ClaudeSubagentTranscript[];
}

/** A transcript as a tree of session entries. */
export interface ConvertedTranscript {
  /** Claude Code's session id (from the lines), if any. */
  sessionId?: string;
  /** Working directory recorded in the lines, if any. */
  cwd?: string;
  /** Title from the summary line of the leaf (or the last summary line about an entry of this file). */
  title?: string;
  /** Entries, every parent before its children; label entries last. */
  entries: SessionEntry[];
  /** Where Claude Code would resume: the last main-chain (non-sidechain) message. */
  leafId: string | null;
  /**
   * Claude uuid → id of the entry holding that line (lines that pass through map to their parent's entry).
   * Subagent lines are included unless their uuid is also a main-file line's.
   */
  idByUuid: Map<string, string | null>;
  /** Ids of entries that start a sidechain (inline ones and subagent files). */
  sidechainRootIds: string[];
  /** Lines that were skipped or repaired, with the reason. */
  issues: ClaudeParseIssue[];
}

/** Wires the tree, the message conversion and the sidechains together; one instance per conversion. */
class TranscriptConverter {
  private readonly issues: ClaudeParseIssue[];
  private readonly fileOfAgent = new Map<string, string>();
  private readonly sidechains: Sidechains;
  private readonly store: EntryStore;
  private readonly tree: LineTree;
  private readonly messages: MessageConverter;

  constructor(
    private readonly records: readonly ClaudeRecord[],
    issues: readonly ClaudeParseIssue[],
    mapTools: boolean,
    subagents: readonly ClaudeSubagentTranscript[],
  ) {
    this.issues = [...issues, ...subagents.flatMap((s) => s.issues)];
    const all = [...records, ...subagents.flatMap((s) => s.records)];
    for (const s of subagents) this.fileOfAgent.set(s.agentId, s.file);
    const issue = (rec: ClaudeRecord, reason: string): void => this.issue(rec, reason);
    this.sidechains = new Sidechains(all, subagents);
    this.store = new EntryStore((entry) => this.sidechains.noteEntry(entry));
    this.tree = new LineTree(records, all, issue);
    this.messages = new MessageConverter(this.store, issue, mapTools, (id, rec) =>
      this.sidechains.noteUserMessage(id, rec),
    );
  }

  /** Issues of subagent lines name their file. */
  private issue(rec: ClaudeRecord, reason: string): void {
    const file = rec.agent === undefined ? undefined : this.fileOfAgent.get(rec.agent);
    this.issues.push(file === undefined ? { line: rec.line, reason } : { line: rec.line, reason, file });
  }

  run(): ConvertedTranscript {
    for (const rec of this.tree.index()) {
      this.messages.indexTools(rec);
      this.sidechains.indexTasks(rec);
    }
    this.tree.convertAll(
      (rec, parentId) => {
        // Entries added while converting a subagent's line belong to that subagent's branch.
        this.sidechains.currentAgent = rec.agent;
        const id = this.messages.convert(rec, parentId);
        this.sidechains.currentAgent = undefined;
        return id;
      },
      (rec) => this.sidechains.launcherOf(rec),
    );
    const { labelTargets, lastSummary } = this.summaries();
    const leafId = this.tree.findLeaf();
    for (const [target, label] of this.sidechains.labels)
      if (!labelTargets.has(target)) labelTargets.set(target, label);
    for (const [targetId, label] of labelTargets) {
      const target = this.store.get(targetId);
      const entry: LabelEntry = {
        type: "label",
        id: this.store.newId(`label/${targetId}`),
        parentId: targetId,
        timestamp: target?.timestamp ?? new Date(0).toISOString(),
        targetId,
        label,
      };
      this.store.add(entry);
    }
    return {
      sessionId: this.records.find((r) => typeof r.data.sessionId === "string")?.data.sessionId,
      cwd: this.records.find((r) => typeof r.data.cwd === "string")?.data.cwd,
      title: (leafId !== null ? labelTargets.get(leafId) : undefined) ?? lastSummary,
      entries: this.store.entries,
      leafId,
      idByUuid: this.tree.exportedIds(),
      sidechainRootIds: [...this.sidechains.labels.keys()],
      // The transcript's issues first, then each subagent file's, each by line.
      issues: this.issues.sort((a, b) => (a.file ?? "").localeCompare(b.file ?? "") || a.line - b.line),
    };
  }

  /** Entry id → title from the main file's summary lines, and the last such title. */
  private summaries(): { labelTargets: Map<string, string>; lastSummary?: string } {
    const labelTargets = new Map<string, string>();
    let lastSummary: string | undefined;
    for (const rec of this.records) {
      const d = rec.data;
      if (d.type !== "summary") continue;
      if (typeof d.summary !== "string") {
        this.issue(rec, "summary line without summary text");
        continue;
      }
      // Claude Code also copies summaries of earlier sessions into a new file; only ones about this file count.
      const target = typeof d.leafUuid === "string" ? this.tree.idOfMainUuid(d.leafUuid) : undefined;
      if (!target) continue;
      labelTargets.set(target, d.summary);
      lastSummary = d.summary;
    }
    return { labelTargets, lastSummary };
  }
}

/** Convert parsed transcript lines into session entries. Pure apart from id generation. */
export function convertClaudeRecords(
  records: readonly ClaudeRecord[],
  issues: readonly ClaudeParseIssue[] = [],
  options: ClaudeConvertOptions = {},
): ConvertedTranscript {
  return new TranscriptConverter(records, issues, options.mapTools === true, options.subagents ?? []).run();
}
