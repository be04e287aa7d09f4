/**
 * Parallel branches (docs/parallel.md), in two steps: what the session needs to be built — which branches run
 * (told to the views) and the chat's watch of one (the main session's posts wait meanwhile) — and the parallel
 * actions and checks, which act on the session once it is.
 */
import type { HostToWebview } from "../../shared/protocol.js";
import type { CheckpointActions } from "../checkpoints/checkpoint-actions.js";
import type { CheckpointService } from "../checkpoints/checkpoint-service.js";
import type { ComparePanels } from "../compare/compare-panel.js";
import type { HostServices } from "../common/services.js";
import type { McpService } from "../mcp/mcp-service.js";
import type { ModelActions } from "../models/model-actions.js";
import type { InstructionsService } from "../prompt/instructions-service.js";
import type { HostActions } from "../tree/actions.js";
import { errorText } from "../../core/error-text.js";
import { BranchChecks } from "./branch-checks.js";
import { BranchWatch } from "./branch-watch.js";
import { branchCopiesDir, ParallelActions } from "./parallel-actions.js";
import { RunningBranches } from "./running-branches.js";

/** Which branches run, the chat's watch of one, and how the main session posts to the chat. */
export interface BranchViews {
  running: RunningBranches;
  watch: BranchWatch;
  /** Posts the main session's message to the chat, unless the chat shows a watched branch now. */
  postMainChat(m: HostToWebview): void;
}

/** Which branches run is the session's run registry's to say; the views are told from there (running-branches.ts). */
export function createBranchViews(s: HostServices): BranchViews {
  const { tree, chat } = s.views;
  // The chat may show a running parallel branch instead of the main one (branch-watch.ts): the main's posts wait.
  const watch: BranchWatch = new BranchWatch({
    session: () => s.controller.get().sessionManager,
    runningBranchOf: (entryId) => running.runningBranchOf(entryId),
    postChat: (m) => chat.post(m),
    showMain: () => s.controller.get().chatViewLoaded(),
    onWatchingChanged: (on) => s.setContext("agentTree.watchingBranch", on),
    notify: s.notify,
  });
  const running = new RunningBranches({
    onRunningChanged: (n) => s.setContext("agentTree.branchesRunning", n > 0),
    postTree: (msg) => tree.post(msg),
    watcher: watch,
  });
  s.subscribe({ dispose: () => running.dispose() });
  s.sessionListeners.push(() => watch.reset());
  return {
    running,
    watch,
    postMainChat: (m) => {
      if (watch.mainMayPost(m)) chat.post(m);
    },
  };
}

/** What the parallel actions work with. */
export interface ParallelParts {
  branches: BranchViews;
  /** The checkpoint stores. */
  store: CheckpointService;
  files: CheckpointActions;
  mcp: { service: McpService };
  instructions: InstructionsService;
  actions: HostActions;
  panels: ComparePanels;
  /** Replay with Model's questions: several models and a thinking level. */
  models: ModelActions;
}

/**
 * Explore in Parallel, Ask Aside, adopting and stopping branches, and a check per branch; every session opened is
 * watched for its branches, and copies left behind are removed.
 */
export function createParallel(s: HostServices, p: ParallelParts): { parallel: ParallelActions; checks: BranchChecks } {
  const { cwd, log, notify } = s;
  const controller = s.controller.get();
  const copiesDir = branchCopiesDir(s.context.globalStorageUri);
  // A check adopts and reads running branches through the parallel actions (made next, with the checks).
  const checks = new BranchChecks({
    controller,
    checkpoints: p.store,
    copiesDir,
    notify,
    log,
    liveBranchIds: () => parallel.liveBranchIds(),
    // Through the table: Adopt This Branch's guards look at the branch picked.
    adopt: (entryId) => s.operations.get().run("agentTree.adoptBranch", entryId),
  });
  const parallel: ParallelActions = new ParallelActions({
    controller,
    mcpTools: (readOnly) => p.mcp.service.pool.source({ readOnly }).ready(),
    cwd,
    checkpoints: p.store,
    files: p.files,
    systemPrompt: p.instructions.provider,
    pickNode: (title) => p.actions.pickNode(title),
    openCompare: (left, right) => {
      const sm = controller.sessionManager;
      if (sm) p.panels.show(sm, left, right);
    },
    revealInTree: (entryId) => s.views.tree.post({ type: "tree/reveal", entryId }),
    notify,
    copiesDir,
    log,
    postChat: p.branches.postMainChat,
    checks,
    models: p.models,
    navigation: p.actions,
  });
  s.sessionListeners.push((sm) => parallel.watch(sm));
  const open = controller.sessionManager;
  if (open) parallel.watch(open);
  // Copies left by branches that were adopted, archived or deleted meanwhile, or by a window that was killed.
  void parallel.removeOrphanCopies().catch((e: unknown) => log.warn(`Branch copies: ${errorText(e)}`));
  return { parallel, checks };
}
