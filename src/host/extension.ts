/**
 * Extension entry: wires the session controller, the two webview views, commands, settings, secrets
 * and workspace hooks, and returns the public API (docs/extension-api.md).
 */
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { HookAPI } from "../core/hooks/types.js";
import { keyEnvNames, withoutKeys } from "../core/providers/api-key.js";
import type { PiAi } from "../core/providers/pi-ai.js";
import type { Provider } from "../core/providers/types.js";
import type { SessionManager } from "../core/session/session-manager.js";
import type { ToolApprovalRequest } from "../core/tools/types.js";
import { HostActions } from "./tree/actions.js";
import { CompareActions } from "./compare/compare-actions.js";
import { ComparePanels } from "./compare/compare-panel.js";
import { CredentialActions } from "./models/credential-actions.js";
import { ModelService } from "./models/model-service.js";
import { ArchiveActions } from "./archive/archive-actions.js";
import { ArchivedVisibility } from "./archive/archived-visibility.js";
import { CheckpointActions } from "./checkpoints/checkpoint-actions.js";
import { ChatInputHandoff } from "./chat-input/chat-input-handoff.js";
import { setUpChatInput } from "./chat-input/chat-input-setup.js";
import { CheckpointService, checkpointFolders } from "./checkpoints/checkpoint-service.js";
import { WEBVIEW_COMMAND_IDS } from "./common/command-ids.js";
import { registerCommands } from "./commands.js";
import { PlanModeActions } from "./chat/plan-mode-actions.js";
import { HookRegistry } from "./hooks/hook-registry.js";
import { lockLostMessage } from "./session/lock-choice.js";
import { offerSaveAgain } from "./session/save-again.js";
import { routeWebviewMessage } from "./views/message-router.js";
import type { HostToWebview } from "../shared/protocol.js";
import { BranchWatch } from "./parallel/branch-watch.js";
import { BranchChecks } from "./parallel/branch-checks.js";
import { branchCopiesDir, ParallelActions } from "./parallel/parallel-actions.js";
import { RunningBranches } from "./parallel/running-branches.js";
import { ExportActions } from "./export/export-actions.js";
import { ModelActions } from "./models/model-actions.js";
import { SessionController } from "./session/session-controller.js";
import { McpService } from "./mcp/mcp-service.js";
import { McpServersUi } from "./mcp/mcp-servers-ui.js";
import { SessionOpener } from "./session/session-opener.js";
import { SessionSearchUi } from "./search/session-search-ui.js";
import { InstructionsService } from "./prompt/instructions-service.js";
import { SystemPromptDocuments } from "./prompt/system-prompt-document.js";
import {
  affects,
  autoApproveSetting,
  checkpointMaxFileBytes,
  defaultModelSetting,
  loadWorkspaceHooksSetting,
  maxConcurrentSubagentsSetting,
  sandboxSettings,
} from "./common/settings.js";
import { mainBashSandbox } from "./tools/sandbox-choice.js";
import { findSandbox } from "../core/tools/sandbox.js";
import { OneAtATime } from "./views/webview-ready-watchdog.js";
import { AgentWebviewView } from "./views/webview-view.js";
import { loadWorkspaceHooks } from "./hooks/workspace-hooks.js";
import { FilesLock } from "./common/files-lock.js";
import { hostOperations } from "./operations/host-operations.js";
import { Notifier } from "./common/notifier.js";
import { Operations } from "./operations/operations.js";
import { sessionGuardState } from "./operations/session-guard-state.js";
import { EditReview } from "./review/edit-review.js";
import { WorkspaceToolRules } from "./tools/tool-rules.js";
import { settingsStore, ToolRulesUi } from "./tools/tool-rules-ui.js";
import type { ApprovalOffer } from "./tools/tool-approval.js";
import { RunChangesView } from "./review/run-changes-view.js";
import { errorText } from "../core/error-text.js";

/** Payload of `onDidChangeSession`. */
export interface SessionChangeEvent {
  sessionManager: SessionManager;
  sessionId: string;
  sessionFile: string | undefined;
  readOnly: boolean;
}

/** What `activate()` returns: `vscode.extensions.getExtension("agent-tree.agent-tree").exports`. */
export interface AgentTreeApi {
  /** Hook registration; survives session switches (re-applied to every new session). */
  hooks: HookAPI;
  /** Fires when another session becomes current (opened, created, forked into). */
  onDidChangeSession: vscode.Event<SessionChangeEvent>;
  /** The current session store, if a session is open. */
  getSessionManager(): SessionManager | undefined;
  /**
   * Adds a model provider (as pi's `registerProvider` does for pi's extensions): `create` gets the model library's
   * runtime (pi-ai: `createProvider`, its API implementations such as `openAICompletionsApi`) and returns a pi-ai
   * provider — its models appear in the picker, its login (OAuth) in "Agent: Log In…". Dispose to remove it.
   */
  registerModelProvider(create: (pi: PiAi) => Provider): vscode.Disposable;
}

let controllerRef: SessionController | undefined;

/** The answer that adds the offered rules to the workspace's setting (docs/tools.md). */
const ALWAYS_IN_WORKSPACE = "Always Allow in This Workspace";
let mcpRef: McpService | undefined;

/** "name (read-only)" for the tree view's title bar. */
function sessionTitle(sm: SessionManager): string {
  const name = sm.getSessionName() ?? (sm.getSessionFile() ? "" : "new session");
  const title =
    name ||
    path
      .basename(sm.getSessionFile() ?? "", ".jsonl")
      .replace(/^.*_/, "")
      .slice(0, 8);
  return sm.isReadOnly() ? `${title} (read-only)` : title;
}

/**
 * Activation: cheap — the secrets are read and, in the background, the workspace's hooks loaded (when the setting
 * and the workspace's trust allow); the session opens when a view loads or a command needs it.
 */
export async function activate(context: vscode.ExtensionContext): Promise<AgentTreeApi> {
  const log = vscode.window.createOutputChannel("Agent Tree", { log: true });
  context.subscriptions.push(log);
  const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? os.homedir();

  // The models load with the first session (or model command), not here: see src/host/models/model-service.ts.
  const modelService = new ModelService({ secrets: context.secrets, globalState: context.globalState, log, cwd });
  context.subscriptions.push(modelService);

  const hookRegistry = new HookRegistry();
  const sessionChanged = new vscode.EventEmitter<SessionChangeEvent>();
  context.subscriptions.push(sessionChanged);

  // Views exist before the controller so it can post; their messages are routed once wired below.
  let route: (raw: unknown, view: AgentWebviewView) => void = () => undefined;
  const viewDeps = {
    extensionUri: context.extensionUri,
    onMessage: (raw: unknown, v: AgentWebviewView) => route(raw, v),
    log,
    recreateQueue: new OneAtATime(),
  };
  const tree = new AgentWebviewView("tree", viewDeps);
  const chat = new AgentWebviewView("chat", viewDeps);
  context.subscriptions.push(tree, chat);
  // The host owns what the views show but their frames lose (src/host/archive/archived-visibility.ts, chat-input-handoff.ts).
  const archivedVisibility = new ArchivedVisibility(
    context.workspaceState,
    (m) => tree.post(m),
    (m) => log.warn(m),
  );
  const chatInputHandoff = new ChatInputHandoff(chat);

  // Files follow the tree (docs/checkpoints.md): one set of stores for the workspace's folders, opened on first need.
  const storage = context.globalStorageUri;
  const checkpoints = new CheckpointService({
    folders: () =>
      checkpointFolders(
        (vscode.workspace.workspaceFolders ?? []).map((f) => ({
          scheme: f.uri.scheme,
          path: f.uri.scheme === "file" ? f.uri.fsPath : f.uri.toString(),
        })),
      ),
    storageDir: storage.scheme === "file" ? path.join(storage.fsPath, "checkpoints") : undefined,
    maxFileBytes: checkpointMaxFileBytes,
    onUnavailable: (message) => void vscode.window.showWarningMessage(message),
    log: (message) => log.info(message),
  });

  // MCP servers' tools (docs/core-api.md, "MCP servers"): started with the first prompt, stopped with the window.
  const mcp = new McpService({
    context,
    cwd,
    log,
    baseEnv: () => withoutKeys(process.env, modelService.registry),
    keyEnvNames: () => keyEnvNames(process.env, modelService.registry),
  });
  mcpRef = mcp;
  context.subscriptions.push(mcp);
  /** Set once the parallel actions exist; sessions opened before that are watched when they are created. */
  const parallelRef: { current?: ParallelActions } = {};
  // Which branches run is the session's run registry's to say; the views are told from there (running-branches.ts).
  const running = new RunningBranches({
    onRunningChanged: (n) => void vscode.commands.executeCommand("setContext", "agentTree.branchesRunning", n > 0),
    postTree: (msg) => tree.post(msg),
    watcher: { event: (id, e) => watch.event(id, e), ended: (id, state, error) => watch.ended(id, state, error) },
  });
  context.subscriptions.push({ dispose: () => running.dispose() });
  // The chat may show a running parallel branch instead of the main one (branch-watch.ts): the main's posts wait.
  const watch: BranchWatch = new BranchWatch({
    session: () => controller.sessionManager,
    runningBranchOf: (entryId) => running.runningBranchOf(entryId),
    postChat: (m) => chat.post(m),
    showMain: () => controller.chatViewLoaded(),
    onWatchingChanged: (on) => void vscode.commands.executeCommand("setContext", "agentTree.watchingBranch", on),
    notify: { info: (text) => notify.info(text) },
  });
  const postMainChat = (m: HostToWebview): void => {
    if (watch.mainMayPost(m)) chat.post(m);
  };
  // The agent's instructions (docs/system-prompt.md): AGENTS.md & co., skills, watched; said in the chat once.
  const instructions = new InstructionsService(cwd, {
    chat: (text, kind) => chat.post({ type: "status", text, kind }),
    log: (text, kind) => (kind === "warning" ? log.warn(text) : log.info(text)),
  });
  context.subscriptions.push(instructions);

  // Approval rules (docs/tools.md): the workspace's setting and, when trusted, Claude Code's files.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const toolRules = new WorkspaceToolRules({
    store: settingsStore(),
    cwd: folder?.scheme === "file" ? folder.fsPath : undefined,
    trusted: () => vscode.workspace.isTrusted,
    warn: (m) => log.warn(m),
  });
  const runChangesView = new RunChangesView({ service: checkpoints, postChat: postMainChat, log });
  const editReview = new EditReview({
    cwd,
    answer: (id, approved, allInRun) => controllerRef?.approvals?.answer(id, approved, false, allInRun),
    log,
  });
  const controller: SessionController = new SessionController({
    cwd,
    checkpoints,
    toolSource: mcp.pool,
    // agentTree.subagents.maxConcurrent: read whenever a subagent waits for a slot, so a change applies at once.
    subagents: { maxConcurrent: maxConcurrentSubagentsSetting },
    // agentTree.sandbox.mainAgent: read before each command, so turning it on or off applies at once.
    commandSandbox: async () => mainBashSandbox(sandboxSettings(), await findSandbox(), cwd),
    systemPrompt: instructions.provider,
    onRunEnd: (sm, firstUserId) => void runChangesView.runEnded(sm, firstUserId),
    models: () => modelService.load(),
    hookRegistry,
    autoApprove: autoApproveSetting,
    defaultModelKey: defaultModelSetting,
    piDefaultModelKey: () => modelService.piDefaultModelKey(),
    compaction: () => modelService.settings().compaction,
    defaultThinkingLevel: () => modelService.settings().defaultThinkingLevel?.level,
    postTree: (m) => tree.post(m),
    postChat: postMainChat,
    isViewReady: (kind) => (kind === "tree" ? tree : chat).isReady,
    showArchived: () => archivedVisibility.shown,
    approvalRules: toolRules,
    approvalUi: {
      ask: (r, summary, offer) => void askApproval(r, summary, offer),
      done: (id) => {
        postMainChat({ type: "chat/approvalDone", toolCallId: id });
        void editReview.close(id);
      },
      reviewed: (id) => editReview.reviewed(id),
    },
    onStreaming: (s) => void vscode.commands.executeCommand("setContext", "agentTree.streaming", s),
    onAgentChanged: (agent) => running.attach(agent),
    onError: (message) => {
      log.error(message);
      void vscode.window.showErrorMessage(message);
    },
    onToolRefused: (message) => log.warn(message),
    onLockLost: (sm, newHolder, reason) => {
      const message = lockLostMessage(path.basename(sm.getSessionFile() ?? ""), newHolder, reason);
      log.warn(message);
      tree.setDescription(sessionTitle(sm));
      void vscode.commands.executeCommand("setContext", "agentTree.readOnly", true);
      if (reason === "file-gone") void offerSaveAgain(sm, message, controller, log);
      else void vscode.window.showWarningMessage(message);
    },
    onSessionChanged: (sm) => {
      watch.reset();
      parallelRef.current?.watch(sm);
      tree.setDescription(sessionTitle(sm));
      if (!sm.isReadOnly()) checkpoints.warmUp();
      // Shows "Continue in a New Session" in the tree's title bar for read-only views.
      void vscode.commands.executeCommand("setContext", "agentTree.readOnly", sm.isReadOnly());
      sessionChanged.fire({
        sessionManager: sm,
        sessionId: sm.getSessionId(),
        sessionFile: sm.getSessionFile(),
        readOnly: sm.isReadOnly(),
      });
    },
  });
  controllerRef = controller;
  context.subscriptions.push({ dispose: () => void controller.close() });

  async function askApproval(r: ToolApprovalRequest, summary: string, offer: ApprovalOffer): Promise<void> {
    // A write or edit opens its diff first, so the chat offers Accept and Reject next to it.
    const edited = await editReview.open(r);
    if (!controller.approvals?.pendingRequests().some((p) => p.toolCallId === r.toolCallId)) {
      void editReview.close(r.toolCallId);
      return;
    }
    postMainChat({
      type: "chat/approval",
      toolCallId: r.toolCallId,
      toolName: r.toolName,
      summary,
      ...(edited === undefined ? {} : { edit: { path: edited } }),
      ...(offer.rules.length > 0 ? { rules: offer.rules } : {}),
      ...(offer.local === undefined ? {} : { local: offer.local }),
    });
    if (chat.isReady && chat.isVisible && !watch.active) return;
    // The chat is hidden, or shows a watched branch (the card is easy to miss there): ask in a notification too; whichever answers first wins. An edit's diff is open and
    // answers from its title bar.
    if (edited !== undefined) return;
    // A local address is allowed for this call only; a rule is offered when one can cover the call.
    const choices =
      offer.local !== undefined
        ? ["Allow", "Deny"]
        : ["Allow", "Allow Always", ...(offer.rules.length > 0 ? [ALWAYS_IN_WORKSPACE] : []), "Deny"];
    const local = offer.local === undefined ? "" : ` (${offer.local})`;
    void vscode.window
      .showWarningMessage(`Agent wants to run ${r.toolName}: ${summary}${local}`, ...choices)
      .then((choice) => {
        if (choice)
          controller.approvals?.answer(
            r.toolCallId,
            choice !== "Deny",
            choice === "Allow Always",
            false,
            choice === ALWAYS_IN_WORKSPACE,
          );
      });
  }

  const opener = new SessionOpener(controller, cwd, log);
  const workerScript = vscode.Uri.joinPath(context.extensionUri, "dist", "search-worker.js").fsPath;
  const search = new SessionSearchUi({ cwd, controller, opener, tree, log, workerScript });
  context.subscriptions.push(search);
  // One notifier (its status line in one view: the chat, else the tree) and one lock on the workspace's files for
  // every operation (src/host/operations).
  const notify = new Notifier([chat, tree], log);
  const filesLock = new FilesLock();
  const fileActions = new CheckpointActions({ controller, service: checkpoints, notify, lock: filesLock });
  const actions = new HostActions({
    controller,
    opener,
    tree,
    input: chatInputHandoff,
    log,
    notify,
    filesFollow: () => fileActions.filesFollow(),
  });
  const credentials = new CredentialActions(modelService, () => controller.models(), context.globalState, notify);
  const models = new ModelActions(controller, modelService, credentials, notify, (line) => log.info(line));
  const exporter = new ExportActions(controller, actions, notify, context.extensionUri);
  const archive = new ArchiveActions({ controller, actions, notify });
  const panels = new ComparePanels(context.extensionUri, {
    log,
    reveal: (sessionId, entryId) => void compare.revealInTree(sessionId, entryId),
    files: (session) => fileActions.compareFiles(session),
  });
  const systemPrompt = new SystemPromptDocuments(controller);
  const compare: CompareActions = new CompareActions({ controller, notify, tree, panels, files: fileActions, log });
  context.subscriptions.push(panels);
  const chatInput = setUpChatInput({
    controller,
    actions,
    notify,
    tree,
    chat,
    input: chatInputHandoff,
    log,
    onRenamed: (sm) => tree.setDescription(sessionTitle(sm)),
    instructions: instructions.loader,
    operations: () => operations,
  });
  context.subscriptions.push(...chatInput.disposables);
  // A check per branch: it adopts and reads running branches through the actions below (called later).
  const checks = new BranchChecks({
    controller,
    checkpoints,
    copiesDir: branchCopiesDir(storage),
    notify,
    log,
    liveBranchIds: () => parallel.liveBranchIds(),
    // Through the table: Adopt This Branch's guards look at the branch picked.
    adopt: (entryId) => operations.run("agentTree.adoptBranch", entryId),
  });
  const parallel: ParallelActions = new ParallelActions({
    controller,
    mcpTools: (readOnly) => mcp.pool.source({ readOnly }).ready(),
    cwd,
    checkpoints,
    files: fileActions,
    systemPrompt: instructions.provider,
    pickNode: (title) => actions.pickNode(title),
    openCompare: (left, right) => {
      const sm = controller.sessionManager;
      if (sm) panels.show(sm, left, right);
    },
    revealInTree: (entryId) => tree.post({ type: "tree/reveal", entryId }),
    notify,
    copiesDir: branchCopiesDir(storage),
    log,
    postChat: postMainChat,
    checks,
    models,
    navigation: actions,
  });
  parallelRef.current = parallel;
  const open = controller.sessionManager;
  if (open) parallel.watch(open);
  // Copies left by branches that were adopted, archived or deleted meanwhile, or by a window that was killed.
  void parallel.removeOrphanCopies().catch((e: unknown) => log.warn(`Branch copies: ${errorText(e)}`));

  let opening: Promise<void> | undefined;
  const ensureSession = async (): Promise<boolean> => {
    if (controller.sessionManager) return false;
    if (opening) {
      // The opening ends by pushing the snapshots of every ready view (the caller's too, if it waits for
      // `ready`): pushing them again would send a big session's tree twice.
      await opening;
      return controller.sessionManager !== undefined;
    }
    opening = opener.openRecentOrNew().finally(() => (opening = undefined));
    await opening;
    return true;
  };
  /**
   * A view is about to load: open the session now, while its webview loads (seconds in a browser), rather
   * than on its `ready`. A big session's index is then built by the time the view asks for it.
   */
  const provider = (view: AgentWebviewView): vscode.WebviewViewProvider => ({
    resolveWebviewView: (webviewView) => {
      view.resolveWebviewView(webviewView);
      // The model library loads meanwhile too, beside the session's file: the agent needs both.
      void controller
        .models()
        .catch((e: unknown) => log.error(`The model library could not be loaded: ${errorText(e)}`));
      void ensureSession();
    },
  });

  const table = hostOperations({
    actions,
    archive,
    compare,
    files: fileActions,
    exporter,
    systemPrompt,
    parallel,
    checks,
    watch,
    renameSession: (name) => chatInput.renameSession(name),
  });
  const operations: Operations = new Operations(table, {
    state: sessionGuardState(controller, filesLock),
    notify,
    ensureSession,
    hasEntry: (id) => controller.hasEntry(id),
  });
  route = (raw, view) =>
    void routeWebviewMessage(raw, view, {
      controller,
      actions: { entryText: (requestId, entryId) => actions.entryText(requestId, entryId) },
      operations,
      models,
      chatInput: chatInput.service,
      watch,
      archived: archivedVisibility,
      log,
      ensureSession,
      runCommand: async (command) => void (await vscode.commands.executeCommand(WEBVIEW_COMMAND_IDS[command])),
      openDiff: (msg) =>
        msg.toolCallId !== undefined ? editReview.reopen(msg.toolCallId) : runChangesView.open(msg.file ?? -1),
    });

  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider("agentTree.tree", provider(tree)),
    vscode.window.registerWebviewViewProvider("agentTree.chat", provider(chat)),
    fileActions.registerDocuments(),
    editReview.register(),
    systemPrompt.register(),
    ...registerCommands({
      review: editReview,
      controller,
      opener,
      search,
      models,
      operations,
      ensureSession,
      chatInput: chatInput.service,
      views: [tree, chat],
      archived: archivedVisibility,
      mcpServers: new McpServersUi(mcp, log),
      toolRules: new ToolRulesUi(toolRules, folder?.scheme === "file" ? folder.fsPath : undefined),
      planMode: new PlanModeActions({ controller, notify, send: (text) => actions.submit(text) }),
    }),
    modelService.onDidChange(() => controller.refreshModels()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affects(e, "models.custom")) modelService.reloadCustomModels();
      if (["models", "model", "thinkingLevel", "compaction"].some((k) => affects(e, k))) {
        models.invalidate();
        controller.refreshModels();
      }
      if (affects(e, "checkpoints.maxFileSizeMB")) checkpoints.reset();
      if (affects(e, "chat.enterWhileRunning")) chatInput.service.settingsChanged();
      if (affects(e, "sessionDirectory")) {
        void vscode.window.showInformationMessage(
          "Agent Tree: the sessions folder changed. Use “Agent: Open Session…” or “Agent: New Session” to use it.",
        );
      }
    }),
  );

  const loadHooks = async (): Promise<void> => {
    if (!loadWorkspaceHooksSetting()) return;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const report = await loadWorkspaceHooks(folder.uri.fsPath, hookRegistry.api, vscode.workspace.isTrusted);
      if (report.skipped) log.info(`Workspace hooks in ${folder.name} not loaded: ${report.skipped}`);
      for (const f of report.loaded) log.info(`Loaded hook ${f}`);
      for (const f of report.failed) {
        log.error(`Hook ${f.file} failed: ${f.error}`);
        void vscode.window.showErrorMessage(`Agent Tree hook ${f.file} failed: ${f.error}`);
      }
    }
  };
  void loadHooks();
  context.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(() => checkpoints.reset()));
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void loadHooks()));

  log.info(`Activated for ${cwd}; sessions in ${opener.sessionDir()}`);
  return {
    hooks: hookRegistry.api,
    onDidChangeSession: sessionChanged.event,
    getSessionManager: () => controller.sessionManager,
    registerModelProvider: (create) => modelService.registerProvider(create),
  };
}

/** Flush and release the session file's lock. */
export async function deactivate(): Promise<void> {
  // The servers' processes end with the window (none is left behind).
  await Promise.all([controllerRef?.close(), mcpRef?.stop()]);
  controllerRef = undefined;
  mcpRef = undefined;
}
