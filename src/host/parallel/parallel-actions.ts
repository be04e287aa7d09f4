/**
 * The editor side of branches that run beside the user's (docs/parallel.md): **Explore in Parallel…** (its three
 * questions, the copies, progress per branch, the finish summary), **Replay with Model…** (a path's user messages
 * sent again by other models, on branches of the same kind), **Stop Branch**, **Stop All Branches**, **Adopt
 * This Branch** (the branch's files brought in by the three-way merge of Bring Conclusions Here, then the leaf moved
 * to its newest entry), **Archive Other Branches**, **Ask Aside…** (also the chat's `/explore` and `/aside`), and the
 * removal of copies no branch needs any more. They run through the operations table, whose guards checked the
 * session (open, writable, nothing running where it acts). Which branches run is the session's run registry's to
 * say (running-branches.ts); each action reports its own failures; none throws.
 */
import fs from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { findCheckpointForEntry } from "../../core/checkpoints/session-link.js";
import { withoutKeys } from "../../core/providers/api-key.js";
import { errorText } from "../../core/error-text.js";
import type { SystemPromptProvider } from "../../core/prompt/workspace-prompt.js";
import type { ModelInfo } from "../../core/providers/types.js";
import { askAside } from "../../core/parallel/aside.js";
import { removeOrphanCopies, type BranchCopyInfo } from "../../core/parallel/branch-copy.js";
import type { BranchOutcome } from "../../core/parallel/branch-run.js";
import {
  exploreInParallel,
  MAX_PARALLEL_BRANCHES,
  MIN_PARALLEL_BRANCHES,
  type BranchTools,
  type Exploration,
  type ExploreIsolation,
} from "../../core/parallel/explore.js";
import { replayPlan, replayWithModels, type ReplayPlan } from "../../core/parallel/replay.js";
import { ARCHIVE_MARKER_TYPE } from "../../core/session/entry-kinds.js";
import { SessionManager } from "../../core/session/session-manager.js";
import { findSandbox } from "../../core/tools/sandbox.js";
import type { AgentTool, ToolApprovalPolicy } from "../../core/tools/types.js";
import type { AsideDto, HostToWebview } from "../../shared/protocol.js";
import type { CheckpointActions } from "../checkpoints/checkpoint-actions.js";
import type { CheckpointService } from "../checkpoints/checkpoint-service.js";
import { askFilesModal } from "../compare/vscode-bring-ui.js";
import { modelKey } from "../models/model-choice.js";
import type { ModelActions } from "../models/model-actions.js";
import type { Notify } from "../common/notifier.js";
import { pickValue } from "../common/pick-value.js";
import type { SessionController } from "../session/session-controller.js";
import { branchApprovalText, branchBashPlace, type BranchBashPlace } from "../tools/sandbox-choice.js";
import { autoApproveSetting, sandboxSettings } from "../common/settings.js";
import { summarizeToolCall } from "../tools/tool-approval.js";
import { adoptBranchFiles, ADOPT_FILES_TITLE } from "./adopt-flow.js";
import { branchRunOf, GROUP_KINDS, newestEntryOf, otherBranchesOf } from "./branch-lookup.js";
import type { BranchChecks } from "./branch-checks.js";
import { exploreSummaryMarkdown, firstLines, type SummaryBranch } from "./explore-summary.js";
import { liveBranchIds, runningBranchAt } from "./running-branches.js";
import { continueAsideFlow } from "./continue-aside-flow.js";
import type { HostActions } from "../tree/actions.js";

/** What the actions need from the rest of the host. */
export interface ParallelDeps {
  controller: SessionController;
  /**
   * The MCP servers' tools (src/core/mcp), started if need be: all of them for a branch, only those a server marks
   * read-only (`readOnlyHint`) for an aside. They run where their server runs, not in the branch's copy (a branch's
   * approval says so).
   */
  mcpTools?: (readOnly: boolean) => Promise<readonly AgentTool[]>;
  /** The workspace folder an aside reads (as the main agent's tools do). */
  cwd: string;
  checkpoints: CheckpointService;
  files: Pick<CheckpointActions, "bringFiles" | "filesBrought">;
  /** The workspace's system prompt (the agent's own): each branch records the one it runs under on its path. */
  systemPrompt?: SystemPromptProvider;
  /** A node picked in a quick pick (the palette's form of a row command). */
  pickNode(title: string): Promise<string | undefined>;
  openCompare(leftId: string, rightId: string): void;
  revealInTree(entryId: string): void;
  /** How the actions report (the one notifier). */
  notify: Notify;
  /** Where copies live: `<globalStorage>/branch-copies`; undefined: no copies (a remote storage). */
  copiesDir: string | undefined;
  log: vscode.LogOutputChannel;
  /** The chat view: an aside's question and answer, marked as an aside (chat/aside). */
  postChat?(msg: Extract<HostToWebview, { type: "chat/aside" }>): void;
  /** A check per branch (branch-checks.ts): its question, its runs as branches finish, the ranked summary tab. */
  checks?: Pick<BranchChecks, "ask" | "follow" | "showSummary">;
  /** Replay with Model's questions: several models (grouped as the model picker) and a thinking level. */
  models: Pick<ModelActions, "pickModels" | "pickThinkingLevel">;
  /** The move of a click on a row (Continue as Branch moves the leaf to an aside's answer with it). */
  navigation: Pick<HostActions, "navigate">;
}

/** How the features name themselves in their questions, progress and messages. */
const EXPLORE = "Explore in Parallel";
const REPLAY = "Replay with Model";

/** The button of Adopt This Branch's question. */
export const ADOPT_CHOICE = "Adopt";

/** The setting agentTree.parallel.maxCopiesSizeMB in bytes (default 2 GiB). */
function copiesCapBytes(): number {
  const v = vscode.workspace.getConfiguration("agentTree").get<unknown>("parallel.maxCopiesSizeMB");
  const mb = typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 2048;
  return Math.round(mb * 1024 * 1024);
}

/** The text of a user row (the prompt prefilled when exploring from it). */
function userText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((c: { type?: string; text?: string }) => (c.type === "text" && typeof c.text === "string" ? c.text : ""))
    .join("");
}

/** See the file comment. */
export class ParallelActions {
  constructor(private readonly d: ParallelDeps) {}

  private unwatch: (() => void) | undefined;
  private cleanupTimer: NodeJS.Timeout | undefined;

  /**
   * Follows the current session: a branch archived (Archive Branch) or deleted (Delete Branch Permanently…) takes
   * its copy with it, shortly after.
   */
  watch(sm: SessionManager): void {
    this.unwatch?.();
    this.unwatch = sm.subscribe((change) => {
      const archiveLine =
        change.type === "append" && change.entry.type === "custom" && change.entry.customType === ARCHIVE_MARKER_TYPE;
      if (change.type !== "rewrite" && !archiveLine) return;
      if (this.cleanupTimer) return;
      this.cleanupTimer = setTimeout(() => {
        this.cleanupTimer = undefined;
        void this.removeOrphanCopies().catch((e: unknown) => this.d.log.warn(`Branch copies: ${errorText(e)}`));
      }, 500);
    });
  }

  /** The first entries of the branches the current session runs now (its run registry). */
  liveBranchIds(): ReadonlySet<string> {
    return liveBranchIds(this.d.controller.agent?.runs);
  }

  /** Explore in Parallel… from `entryId` (a row), else from the leaf; `prompt` skips the prompt question's default. */
  async explore(entryId?: string, prompt?: string): Promise<void> {
    const { sm, agent } = this.d.controller.requireSession();
    if (!this.d.copiesDir)
      return this.d.notify.warn("Explore in Parallel needs a local storage folder for its copies.");
    const node = entryId ?? sm.getLeafId() ?? (await this.d.pickNode("Explore in Parallel: from which node?"));
    if (!node) return;
    // From a user row the branches start where that message started, as a branch switch to it does.
    const env = sm.getEnvelope(node);
    const fromUser = env?.type === "message" && env.role === "user";
    const parentId = fromUser ? (env.parentId ?? null) : node;
    let prefill = prompt ?? "";
    if (fromUser && prompt === undefined) {
      const entry = sm.getEntry(node);
      if (entry?.type === "message") prefill = userText((entry.message as { content?: unknown }).content);
    }
    const text = await vscode.window.showInputBox({
      title: "Explore in Parallel (1/3): the prompt",
      prompt: "What every branch is asked; each works in its own copy of the workspace",
      value: prefill,
      validateInput: (v) => (v.trim() === "" ? "Say what the branches should do" : undefined),
    });
    if (text === undefined) return;
    const count = await this.pickCount();
    if (count === undefined) return;
    const models = await this.pickModels("Explore in Parallel (3/3): which models (used in turn across the branches)");
    if (!models) return;
    const check = this.d.checks ? await this.d.checks.ask() : "";
    if (check === undefined) return;

    const isolation = await this.isolationAt(sm, parentId ?? node, EXPLORE);
    if (!isolation) return;
    let exploration: Exploration;
    try {
      const { tools, place } = await this.branchTools(EXPLORE);
      exploration = await exploreInParallel({
        session: agent,
        parentId,
        prompt: text,
        count,
        models,
        isolation,
        tools,
        approveFor: (i) => this.approvalFor(`Branch ${i + 1} of ${count}`, place),
        thinkingLevel: agent.getThinkingLevel(),
        ...(this.d.systemPrompt ? { systemPrompt: this.d.systemPrompt } : {}),
      });
    } catch (e) {
      return this.d.notify.error(EXPLORE, e);
    }
    const branches = await this.followGroup(exploration, check, EXPLORE);
    this.finished(text, branches, EXPLORE);
  }

  /**
   * Replay with Model… from the row `entryId`: the user messages of the current path from the row's turn to the
   * leaf, sent again one turn at a time by each picked model on a parallel branch of its own that starts where
   * that turn started (core: replay.ts), at the picked thinking level, with the check question of Explore in
   * Parallel. When every branch ended, compare opens on the original path (the leaf when it started) and the first
   * replay.
   */
  async replay(entryId: string): Promise<void> {
    const { sm, agent } = this.d.controller.requireSession();
    if (!this.d.copiesDir) return this.d.notify.warn(`${REPLAY} needs a local storage folder for its copies.`);
    let plan: ReplayPlan;
    try {
      plan = replayPlan(sm, entryId);
    } catch (e) {
      return this.d.notify.warn(errorText(e));
    }
    const original = sm.getLeafId();
    const n = plan.messages.length;
    const what = n === 1 ? "its user message" : `its ${n} user messages`;
    const models = await this.d.models.pickModels(
      `${REPLAY} (1/3): which models replay the path (${what}; one branch each)`,
    );
    if (models === undefined) return;
    if (models.length === 0)
      return this.d.notify.warn(`${REPLAY}: no model was picked. Check one or more models, then press Enter.`);
    if (models.length > MAX_PARALLEL_BRANCHES)
      return this.d.notify.warn(
        `${REPLAY} runs at most ${MAX_PARALLEL_BRANCHES} models at once: ${models.length} were picked.`,
      );
    const level = await this.d.models.pickThinkingLevel(models, `${REPLAY} (2/3): the thinking level`);
    if (level === undefined) return;
    const check = this.d.checks ? await this.d.checks.ask(`${REPLAY} (3/3)`) : "";
    if (check === undefined) return;
    const isolation = await this.isolationAt(sm, plan.parentId ?? plan.userIds[0], REPLAY);
    if (!isolation) return;
    let replay: Exploration;
    try {
      const { tools, place } = await this.branchTools(REPLAY);
      replay = await replayWithModels({
        session: agent,
        plan,
        models,
        isolation,
        tools,
        approveFor: (i) => this.approvalFor(`Replay ${i + 1} of ${models.length}`, place),
        thinkingLevel: level,
        ...(this.d.systemPrompt ? { systemPrompt: this.d.systemPrompt } : {}),
      });
    } catch (e) {
      return this.d.notify.error(REPLAY, e);
    }
    const branches = await this.followGroup(replay, check, REPLAY);
    const first = branches.find((b) => b.outcome.tipId !== undefined)?.outcome.tipId;
    // The original path beside the first replay that wrote anything.
    if (first !== undefined && original !== null) this.d.openCompare(original, first);
    const said = plan.messages.map((m) => userText(m)).join("\n\n");
    const replayed = `Replayed ${n === 1 ? "1 user message" : `${n} user messages`}: ${said}`;
    this.finished(replayed, branches, REPLAY, original ?? undefined);
  }

  /** Ask Aside…: a read-only side question from the leaf, whether or not the main branch runs. */
  async askAside(question?: string): Promise<void> {
    const { agent } = this.d.controller.requireSession();
    const model = agent.getModel();
    if (!model) return this.d.notify.warn("Choose a model first (Agent: Select Model…).");
    const asked =
      question ??
      (await vscode.window.showInputBox({
        title: "Ask Aside",
        prompt: "A side question: answered from here with read-only tools, without moving the leaf or the running turn",
        validateInput: (v) => (v.trim() === "" ? "Ask something" : undefined),
      }));
    if (!asked?.trim()) return;
    this.d.notify.status("Asking aside…");
    // The chat shows the aside apart from the path's messages, as it goes.
    let asideId: string | undefined;
    let answer = "";
    const showAside = (state: AsideDto["state"], error?: string): void => {
      if (asideId === undefined) return;
      this.d.postChat?.({
        type: "chat/aside",
        aside: {
          id: asideId,
          question: asked,
          text: answer,
          state,
          model: modelKey(model),
          ...(error ? { error } : {}),
        },
      });
    };
    const extraTools = (await this.d.mcpTools?.(true)) ?? [];
    const outcome = await askAside({
      session: agent,
      question: asked,
      extraTools,
      model,
      cwd: this.d.cwd,
      ...(this.d.systemPrompt ? { systemPrompt: this.d.systemPrompt } : {}),
      onEvent: (e) => {
        if (e.type === "branch_entry" && asideId === undefined) {
          asideId = e.entryId;
          showAside("running");
        }
        if (e.type === "message_end" && e.message.role === "assistant") {
          answer = e.message.content.map((c) => (c.type === "text" ? c.text : "")).join("") || answer;
          showAside("running");
        }
      },
    }).catch((e: unknown) => {
      this.d.notify.status(`Ask Aside: ${errorText(e)}`, "error");
      return undefined;
    });
    if (!outcome) return;
    const branchId = outcome.branchId;
    answer = outcome.finalText || answer;
    showAside(outcome.state, outcome.error);
    if (outcome.state !== "done" || !branchId) {
      this.d.notify.status(`Aside ${outcome.state}${outcome.error ? `: ${outcome.error}` : ""}`, "error");
      return;
    }
    // The answer shows in the chat (its aside) and once more in one notification, for its buttons; no status line.
    const pick = await this.d.notify.offer(
      `Aside: ${firstLines(outcome.finalText, 4, 400)}`,
      "Show Answer",
      "Bring Conclusions Here",
      "Continue as Branch",
    );
    if (pick === "Show Answer") {
      const doc = await vscode.workspace.openTextDocument({
        language: "markdown",
        content: `# Aside\n\n> ${asked}\n\n${outcome.finalText}\n`,
      });
      await vscode.window.showTextDocument(doc, { preview: true });
      this.d.revealInTree(outcome.tipId ?? branchId);
    } else if (pick === "Bring Conclusions Here" || pick === "Continue as Branch") {
      // Each through its command, so the operations table guards it as from the row menu.
      const command = pick === "Continue as Branch" ? "agentTree.continueAsBranch" : "agentTree.bringConclusionsHere";
      await vscode.commands.executeCommand(command, { webviewSection: "entry", entryId: outcome.tipId ?? branchId });
    }
  }

  /** Continue as Branch: the aside holding `entryId` becomes an ordinary branch (continue-aside-flow.ts). */
  async continueAsBranch(entryId: string): Promise<void> {
    const { navigation, controller, notify } = this.d;
    await continueAsideFlow({ controller, navigation, notify, liveBranchIds: () => this.liveBranchIds() }, entryId);
  }

  /** Stop Branch: the running branch holding `entryId` (the session's run registry says which). */
  stopBranch(entryId: string): void {
    const work = runningBranchAt(this.d.controller.agent, entryId);
    if (!work?.run) return this.d.notify.info("That row is not on a running branch.");
    work.run.stop();
    this.d.notify.status("Stopping the branch; what it said so far is kept.");
  }

  /** Stop All Branches: every run off the leaf of the current session. */
  stopAll(): void {
    const running = this.d.controller.agent?.runs.offLeaf() ?? [];
    if (running.length === 0) return this.d.notify.info("No branch is running.");
    for (const work of running) work.run?.stop();
    this.d.notify.status(`Stopping ${running.length} running branch(es).`);
  }

  /**
   * Adopt This Branch: brings the branch's file changes (from the node's checkpoint to the branch's) into the
   * workspace with the three-way merge of Bring Conclusions Here, then moves the leaf to the branch's newest
   * entry and removes its copy.
   */
  async adopt(entryId: string): Promise<void> {
    const { controller } = this.d;
    const { sm, agent } = controller.requireSession();
    // Its guards found no run at the entry: the branch ended (or was cut off).
    const run = branchRunOf(sm, entryId, this.liveBranchIds());
    if (!run || !GROUP_KINDS.has(run.kind))
      return this.d.notify.info("That row is not on a branch of Explore in Parallel or Replay with Model.");
    const tip = newestEntryOf(sm, run.branchId);
    const nodeId = sm.getEnvelope(run.branchId)?.parentId ?? null;
    const files = await this.d.files.bringFiles(sm);
    if (files && nodeId !== null) {
      // The files it will change are listed and agreed to before any is written (as Bring Conclusions Here does).
      const adopted = await adoptBranchFiles(files, nodeId, tip, {
        confirmFiles: async (q) => (await askFilesModal(ADOPT_FILES_TITLE, q, ADOPT_CHOICE)) === ADOPT_CHOICE,
        showInfo: (text) => this.d.notify.info(text),
        status: (text, kind) => this.d.notify.status(text, kind),
      });
      if (adopted.kind === "stopped") return;
      if (adopted.kind === "brought") this.d.files.filesBrought(adopted.message, adopted.conflicts);
    }
    const moved = await agent.navigateTree(tip, { summarize: false });
    if (moved.kind !== "moved" && moved.kind !== "noop")
      return this.d.notify.status(`The leaf did not move (${moved.kind}).`, "error");
    controller.pushChat();
    this.d.revealInTree(tip);
    await this.removeCopies(new Set([run.branchId]));
    this.d.notify.status("Adopted the branch: its files are in the workspace and the leaf is on it.");
  }

  /** Archive Other Branches: the other branches started together with the one holding `entryId`. */
  async archiveOthers(entryId: string): Promise<void> {
    const { sm } = this.d.controller.requireSession();
    const live = this.liveBranchIds();
    const run = branchRunOf(sm, entryId, live);
    if (!run) return this.d.notify.info("That row is not on a branch run in parallel.");
    // Branches still running are left as they are.
    const others = otherBranchesOf(sm, run).filter((id) => !live.has(id));
    const onPath = new Set(sm.getPathEnvelopes().map((e) => e.id));
    const archivable = others.filter((id) => !onPath.has(id) && !sm.isArchived(id));
    for (const id of archivable) sm.archiveBranch(id);
    await this.removeCopies(new Set(archivable));
    this.d.notify.status(`Archived ${archivable.length} other branch(es).`);
  }

  /**
   * Removes copies no branch needs: their session file is gone, or their branch is gone or archived in it, or
   * (at start-up) they were never tied to a branch. Runs in the background; failures are logged.
   */
  async removeOrphanCopies(): Promise<void> {
    const dir = this.d.copiesDir;
    if (!dir || !fs.existsSync(dir)) return;
    const workspace = await this.d.checkpoints.workspace();
    const current = this.d.controller.sessionManager;
    const live = this.liveBranchIds();
    const isOrphan = async (info: BranchCopyInfo): Promise<boolean> => {
      if (!info.branchId || !info.sessionFile || !fs.existsSync(info.sessionFile)) return true;
      if (live.has(info.branchId)) return false;
      const sm =
        current?.getSessionFile() === info.sessionFile
          ? current
          : await SessionManager.open(info.sessionFile, { readOnly: true }).catch(() => undefined);
      if (!sm) return false;
      try {
        return !sm.hasEntry(info.branchId) || sm.isArchived(info.branchId);
      } finally {
        if (sm !== current) await sm.close();
      }
    };
    const removed = await removeOrphanCopies(dir, isOrphan, (f) => workspace?.engine(f)?.storeDir);
    if (removed.length > 0) this.d.log.info(`Removed ${removed.length} branch copies no branch needs`);
  }

  // ---- internals --------------------------------------------------------------------------------

  private async removeCopies(branchIds: ReadonlySet<string>): Promise<void> {
    const dir = this.d.copiesDir;
    if (!dir || branchIds.size === 0) return;
    const workspace = await this.d.checkpoints.workspace();
    await removeOrphanCopies(
      dir,
      (info) => info.branchId !== undefined && branchIds.has(info.branchId),
      (f) => workspace?.engine(f)?.storeDir,
    ).catch((e: unknown) => this.d.log.warn(`Removing branch copies failed: ${errorText(e)}`));
  }

  /**
   * A cancellable notification with one line per branch — each branch's run says where it is (AgentRun.progress) —
   * until all end; cancelling stops them all.
   */
  private progress(exploration: Exploration, feature: string): Promise<BranchOutcome[]> {
    const { branches } = exploration;
    return Promise.resolve(
      vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `${feature}: ${branches.length} branches`,
          cancellable: true,
        },
        async (progress, token) => {
          token.onCancellationRequested(() => exploration.stopAll());
          const line = (): string =>
            branches
              .map((b) => {
                const p = b.run?.progress();
                const state = p?.state ?? "starting";
                const what = state === "tool" ? `running ${p?.tool ?? "a tool"}` : state;
                return `B${b.index + 1} ${what}${p?.tokens ? ` · ${p.tokens} tok` : ""}`;
              })
              .join(" | ");
          const timer = setInterval(() => progress.report({ message: line() }), 500);
          try {
            return await exploration.done;
          } finally {
            clearInterval(timer);
          }
        },
      ),
    );
  }

  /**
   * Follows a started group until every branch ended: each branch's check as it finishes (branch-checks.ts), the
   * progress notification; resolves the branches as the summary shows them.
   */
  private async followGroup(group: Exploration, check: string, feature: string): Promise<SummaryBranch[]> {
    const checked = this.d.checks?.follow(group, check);
    const outcomes = await this.progress(group, feature);
    await checked;
    return outcomes.map((outcome, i) => ({ number: i + 1, model: modelKey(group.branches[i].model), outcome }));
  }

  /**
   * The files the branches start from: a copy of the first workspace folder as the checkpoint at or above
   * `entryId` recorded it (the files as they are now, recorded, when nothing was recorded there). Says why and
   * resolves undefined when the files do not follow the tree.
   */
  private async isolationAt(
    sm: SessionManager,
    entryId: string,
    feature: string,
  ): Promise<ExploreIsolation | undefined> {
    const copiesDir = this.d.copiesDir;
    const workspace = await this.d.checkpoints.workspace();
    const folder = workspace?.folders()[0];
    const engine = folder ? workspace?.engine(folder) : undefined;
    if (!copiesDir || !workspace || !folder || !engine) {
      const why = this.d.checkpoints.problems().join(" ") || "no workspace folder is open.";
      return void vscode.window.showErrorMessage(`${feature} needs files that follow the tree: ${why}`);
    }
    const found = findCheckpointForEntry(sm, entryId, folder);
    let checkpointId = found?.ref.checkpointId;
    if (!checkpointId) {
      // Nothing recorded there yet (a session from before checkpoints): the files as they are now.
      checkpointId = (await engine.checkpoint({ reason: "explore" })).id;
      this.d.notify.status("No files were recorded at that node: the branches start from the workspace as it is now.");
    }
    return { folder, storeDir: engine.storeDir, checkpointId, copiesDir, capBytes: copiesCapBytes() };
  }

  /** The branches' tools: the environment without keys, the sandbox where there is one, the MCP servers' tools. */
  private async branchTools(feature: string): Promise<{ tools: BranchTools; place: BranchBashPlace }> {
    const registry = await this.d.controller.models();
    const mcpTools = (await this.d.mcpTools?.(false)) ?? [];
    const place = branchBashPlace(sandboxSettings(), await findSandbox());
    this.logToolPlaces(place, mcpTools, feature);
    return {
      place,
      tools: {
        commandEnv: () => withoutKeys(process.env, registry),
        ...("sandbox" in place ? { sandbox: place.sandbox } : {}),
        extraTools: mcpTools,
      },
    };
  }

  /**
   * The summary tab and the message after every branch ended; `original` (a replay's: the leaf it replayed) is one
   * more choice of Compare Two….
   */
  private finished(prompt: string, branches: SummaryBranch[], feature: string, original?: string): void {
    const counts = new Map<string, number>();
    for (const b of branches) counts.set(b.outcome.state, (counts.get(b.outcome.state) ?? 0) + 1);
    const text = [...counts].map(([state, n]) => `${n} ${state}`).join(", ");
    // A branch stopped for a reason of its own (over the copies' size cap) says so, not only in the summary.
    for (const b of branches)
      if (b.outcome.state === "stopped" && b.outcome.error)
        this.d.notify.warn(`Branch ${b.number}: ${b.outcome.error}`);
    void this.d.notify.offer(`${feature} ended: ${text}.`, "Show Summary", "Compare Two…").then(async (pick) => {
      if (pick === "Show Summary" && this.d.checks) this.d.checks.showSummary(prompt, branches, feature);
      else if (pick === "Show Summary") {
        const doc = await vscode.workspace.openTextDocument({
          language: "markdown",
          content: exploreSummaryMarkdown(prompt, branches, feature),
        });
        await vscode.commands.executeCommand("markdown.showPreview", doc.uri);
      } else if (pick === "Compare Two…") await this.compareTwo(branches, original);
    });
  }

  private async compareTwo(branches: SummaryBranch[], original?: string): Promise<void> {
    const items = branches
      .filter((b) => b.outcome.tipId)
      .map((b) => ({
        label: `Branch ${b.number}`,
        description: `${b.model} · ${b.outcome.state}`,
        detail: firstLines(b.outcome.finalText, 1, 120),
        id: b.outcome.tipId as string,
      }));
    if (original !== undefined)
      items.unshift({ label: "Original path", description: "the path replayed", detail: "", id: original });
    const picked = await vscode.window.showQuickPick(items, { title: "Compare two branches", canPickMany: true });
    if (!picked) return;
    if (picked.length !== 2) return this.d.notify.info("Pick exactly two branches to compare.");
    this.d.openCompare(picked[0].id, picked[1].id);
  }

  private async pickCount(): Promise<number | undefined> {
    const items = Array.from({ length: MAX_PARALLEL_BRANCHES - MIN_PARALLEL_BRANCHES + 1 }, (_, i) => ({
      label: String(i + MIN_PARALLEL_BRANCHES),
      value: i + MIN_PARALLEL_BRANCHES,
    }));
    return pickValue(items, {
      title: "Explore in Parallel (2/3): how many branches",
      active: items[3 - MIN_PARALLEL_BRANCHES],
    });
  }

  private async pickModels(title: string): Promise<ModelInfo[] | undefined> {
    const { controller } = this.d;
    const usable = controller.usable();
    if (usable.length === 0) {
      this.d.notify.warn("No model has a key: set one first (Agent: Set API Key…).");
      return undefined;
    }
    const current = controller.agent?.getModel();
    const items = usable.map((m) => ({
      label: m.name,
      description: modelKey(m),
      picked: current !== undefined && modelKey(current) === modelKey(m),
      model: m,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      title,
      canPickMany: true,
    });
    if (!picked) return undefined;
    if (picked.length === 0) return current ? [current] : [usable[0]];
    return picked.map((p) => p.model);
  }

  /**
   * The output channel's trail of where the branches' tools run: `bash` sandboxed or not (and why not), MCP tools
   * in their servers' processes.
   */
  private logToolPlaces(place: BranchBashPlace, mcpTools: readonly AgentTool[], feature: string): void {
    if ("sandbox" in place)
      this.d.log.info(
        `${feature}: the branches' bash runs sandboxed (${place.sandbox.bwrap}; ` +
          `${place.sandbox.network ? "network allowed" : "no network"}).`,
      );
    else
      this.d.log.warn(
        `${feature}: the branches' bash is not sandboxed (${place.unsandboxed}): ` +
          "it can reach the whole machine, the workspace included.",
      );
    if (mcpTools.length > 0)
      this.d.log.info(
        `${feature}: ${mcpTools.length} MCP tool(s) offered to the branches run in their servers' ` +
          "processes, outside the branches' copies.",
      );
  }

  /**
   * Approvals as the main agent's, with the branch named: the setting applies, reads never ask, and the question
   * says where the call runs (its copy, sandboxed or not, or an MCP server's process).
   */
  private approvalFor(branch: string, place: BranchBashPlace): ToolApprovalPolicy {
    const always = new Set<string>();
    return async (request) => {
      const auto = autoApproveSetting();
      const reads = ["read", "grep", "find", "ls"];
      if (reads.includes(request.toolName) || auto === true || always.has(request.toolName)) return { approved: true };
      if (Array.isArray(auto) && auto.includes(request.toolName)) return { approved: true };
      const summary = summarizeToolCall(request.toolName, request.args);
      const choice = await vscode.window.showWarningMessage(
        branchApprovalText(branch, request.toolName, summary, place),
        "Allow",
        "Allow Always",
        "Deny",
      );
      if (choice === "Allow Always") always.add(request.toolName);
      return choice === "Allow" || choice === "Allow Always" ? { approved: true } : { approved: false };
    };
  }
}

/** Where the copies of `storage` live (`<globalStorage>/branch-copies`); undefined for a remote storage. */
export function branchCopiesDir(storage: vscode.Uri): string | undefined {
  return storage.scheme === "file" ? path.join(storage.fsPath, "branch-copies") : undefined;
}
