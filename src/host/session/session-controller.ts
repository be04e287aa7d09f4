/**
 * Owns the current session: the SessionManager, its AgentSession, and the syncs that mirror them into
 * the two webviews. Switching sessions disposes the old agent, closes the old store (releasing its
 * lock) and re-applies the host-level hook registrations. Pure: everything editor-specific arrives
 * through `ControllerDeps`, so it runs under plain Node in tests.
 */
import * as path from "node:path";
import { AgentSession, type SubagentSettings } from "../../core/agent/agent-session.js";
import type { AgentCheckpointHook } from "../../core/checkpoints/turn-checkpoints.js";
import type { ModelRegistry } from "../../core/providers/model-registry.js";
import type { CompactionSettings } from "../../core/compaction/settings.js";
import type { ModelInfo, ProviderErrorKind, ThinkingLevel } from "../../core/providers/types.js";
import type { QueuedKind } from "../../core/agent/prompt-queue.js";
import type { UserCommand } from "../../core/agent/user-command.js";
import type { ImageContent, TextContent } from "../../core/messages.js";
import type { LockHolderInfo, LockLossReason } from "../../core/session/errors.js";
import type { SessionManager } from "../../core/session/session-manager.js";
import type { DiskRefresh } from "../../core/session/types.js";
import type { CommandSandbox } from "../../core/tools/sandbox.js";
import type { AgentTool, AgentToolSource } from "../../core/tools/types.js";
import type { SystemPromptProvider } from "../../core/prompt/workspace-prompt.js";
import type { HostToWebview } from "../../shared/protocol.js";
import { usageOf } from "../chat/chat-dto.js";
import { ChatPath } from "../chat/chat-path.js";
import { ChatSync } from "../chat/chat-sync.js";
import { readOnlyReason, type ReadOnlyCause } from "./continue-plan.js";
import type { HookRegistry } from "../hooks/hook-registry.js";
import {
  modelKey,
  NO_MODEL_REASON,
  parseModelKey,
  pickDefaultModel,
  toModelDto,
  usableModels,
} from "../models/model-choice.js";
import { ApprovalBroker, type ApprovalRules, type ApprovalUi, type AutoApprove } from "../tools/tool-approval.js";
import { TreeSync } from "../tree/tree-sync.js";
import { errorText } from "../../core/error-text.js";
import { followRunInput } from "../chat/run-input-sync.js";

/** What the controller needs from the editor. */
export interface ControllerDeps {
  cwd: string;
  /**
   * The model registry, built on the first call (src/host/models/model-service.ts): a session's agent needs it, so the
   * model library loads when the first session opens, not at activation.
   */
  models(): Promise<ModelRegistry>;
  hookRegistry: HookRegistry;
  autoApprove(): AutoApprove;
  /** The setting agentTree.model (`provider/id`, or ""). */
  defaultModelKey(): string;
  /** pi's default model (settings.json `defaultProvider`/`defaultModel`), after the session's own ("" for none). */
  piDefaultModelKey?(): string;
  /** Compaction settings (pi's settings.json under VS Code's); none: pi's defaults. */
  compaction?(): CompactionSettings;
  /** The thinking level a new session starts with (pi's settings.json `defaultThinkingLevel`); none: "off". */
  defaultThinkingLevel?(): ThinkingLevel | undefined;
  postTree(msg: HostToWebview): void;
  postChat(msg: HostToWebview): void;
  /**
   * True when the view is loaded and listening. Snapshots are built only for such views (a big session's
   * tree costs a second to build and post); a view that becomes ready asks for its own.
   */
  isViewReady(view: "tree" | "chat"): boolean;
  /** Whether the tree shows archived branches (src/host/archive/archived-visibility.ts); none: hidden. */
  showArchived?(): boolean;
  approvalUi: ApprovalUi;
  /** The workspace's tool rules (src/host/tools/tool-rules.ts); none: only the setting and the answers decide. */
  approvalRules?: ApprovalRules;
  onStreaming(streaming: boolean): void;
  /** A different session is now current. */
  onSessionChanged(sm: SessionManager): void;
  /**
   * The current agent is another one (a session opened or closed, or its agent rebuilt): what follows its run
   * registry (AgentSession.runs) follows this one now.
   */
  onAgentChanged?(agent: AgentSession | undefined): void;
  /** A failure nobody else reports (closing the previous session). */
  onError?(message: string): void;
  /** A tool call the agent loop refused on its own (a file that kept changing under review): for the log. */
  onToolRefused?(message: string): void;
  /**
   * A model call of the current agent failed (the chat shows it already): what failed, whose, and the message, so
   * the host can offer the fix — a refused key ("auth") offers to set the provider's key or log in again.
   */
  onModelFailed?(failure: ModelFailure): void;
  /**
   * The current session lost its writer lock — another process took it over, or its file or folder was deleted
   * (`reason`) —: it is read-only now (say so).
   */
  onLockLost?(sm: SessionManager, newHolder: LockHolderInfo | undefined, reason: LockLossReason): void;
  /**
   * Another program (pi) appended to the current session and it was taken in (the views show it already when the
   * leaf followed): say what the user must know — entries on another branch, unreadable lines, a replaced file.
   */
  onAppendedByOther?(sm: SessionManager, refresh: DiskRefresh): void;
  /** Tools override (tests). */
  tools?: AgentTool[];
  /** Where the agent's bash commands run (agentTree.sandbox.mainAgent: src/host/tools/sandbox-choice.ts). */
  commandSandbox?: () => Promise<CommandSandbox | undefined>;
  /** Tools that come and go (MCP servers), offered after the built-in ones. */
  toolSource?: AgentToolSource;
  /** The `subagent` tool's settings (docs/subagents.md); none: the tool is not offered. */
  subagents?: SubagentSettings;
  /** What every agent builds its system prompt from (src/host/prompt/instructions-service.ts); none: no prompt. */
  systemPrompt?: SystemPromptProvider;
  /** Workspace checkpoints for every agent (src/host/checkpoints/checkpoint-service.ts); none: files are not recorded. */
  checkpoints?: AgentCheckpointHook;
  /** A run of the current agent ended; `firstUserId`: its first user message (the chat lists the files it changed). */
  onRunEnd?(sm: SessionManager, firstUserId: string | undefined): void;
}

/** A failed model call of the current agent, as {@link ControllerDeps.onModelFailed} gets it. */
export interface ModelFailure {
  provider: string;
  errorKind: ProviderErrorKind;
  error: string;
}

interface Current {
  sm: SessionManager;
  agent: AgentSession;
  tree: TreeSync;
  chat: ChatSync;
  /** What of the path the chat view holds. */
  chatPath: ChatPath;
  broker: ApprovalBroker;
  unsubscribe: () => void;
  /** Stops listening for the loss of the session's writer lock. */
  unsubscribeLock: () => void;
  /** Why a read-only session is read-only (the chat says so). */
  readOnlyCause: ReadOnlyCause;
}

/** A session being attached while the models load: its tree is in the tree view already. */
interface Opening {
  sm: SessionManager;
  tree: TreeSync;
  /** The tree view got its snapshot. */
  posted: boolean;
}

/** See the file comment. */
export class SessionController {
  private current: Current | undefined;
  private opening: Opening | undefined;
  private registry: ModelRegistry | undefined;

  constructor(private readonly deps: ControllerDeps) {}

  /** The current store, if a session is open. */
  get sessionManager(): SessionManager | undefined {
    return this.current?.sm;
  }

  /** The current agent, if a session is open. */
  get agent(): AgentSession | undefined {
    return this.current?.agent;
  }

  /**
   * The open session and its agent, for an operation whose guards checked that one is open (an invariant, not a
   * question to the user: it throws when none is).
   */
  requireSession(): { sm: SessionManager; agent: AgentSession } {
    const c = this.current;
    if (!c) throw new Error("No Agent session is open");
    return { sm: c.sm, agent: c.agent };
  }

  /** The models known to the host, once a session opened (or `models()` was awaited). */
  get modelRegistry(): ModelRegistry | undefined {
    return this.registry;
  }

  /** The model registry, built if it is not yet. */
  async models(): Promise<ModelRegistry> {
    this.registry ??= await this.deps.models();
    return this.registry;
  }

  /** Pending approvals and answers. */
  get approvals(): ApprovalBroker | undefined {
    return this.current?.broker;
  }

  /** True when the current session has this entry. */
  hasEntry(id: string): boolean {
    return this.current?.tree.hasEntry(id) ?? false;
  }

  /**
   * Make `sm` the current session (closing the previous one) and push snapshots to both views.
   * `readOnlyCause` says why a read-only `sm` is read-only (default: another writer holds its lock).
   */
  async attach(sm: SessionManager, readOnlyCause: ReadOnlyCause = "locked"): Promise<void> {
    try {
      await this.close();
    } catch (e) {
      // The old session is detached either way; say what went wrong closing it, then go on.
      this.deps.onError?.(`Closing the previous session failed: ${errorText(e)}`);
    }
    // The tree needs no model: it goes to the tree view while the agent waits for the models (the first attach loads
    // pi-ai and its catalog, up to seconds beside a big session's open; later ones find them loaded).
    const opening: Opening = { sm, tree: this.newTree(sm), posted: false };
    this.opening = opening;
    // Asked first, so the library's files are read while the snapshot is encoded.
    const models = this.models();
    this.pushTree();
    // The view is still loading: encode its snapshot meanwhile, so that its `ready` is answered at once.
    if (!opening.posted) opening.tree.prepare();
    try {
      await models;
    } catch (e) {
      // The caller closes `sm`.
      if (this.opening === opening) {
        this.opening = undefined;
        opening.tree.dispose();
      }
      throw e;
    }
    // A later attach, or close(), took it over and closed it.
    if (this.opening !== opening) return;
    this.opening = undefined;
    this.current = this.build(sm, readOnlyCause, opening.tree);
    this.deps.onSessionChanged(sm);
    if (!opening.posted) this.pushTree();
    this.pushChat();
  }

  /**
   * Stop the agent's runs (waiting until each wrote what it had), dispose it and close the store (flush, release the
   * lock); a session still being attached too.
   */
  async close(): Promise<void> {
    const opening = this.opening;
    if (opening) {
      this.opening = undefined;
      opening.tree.dispose();
      await opening.sm.close();
    }
    const c = this.current;
    if (!c) return;
    this.current = undefined;
    // A run going on is stopped and writes what it had before the file is closed: nothing of it is lost.
    await c.agent.stopAll();
    this.teardown(c);
    await c.sm.close();
  }

  /**
   * Why the open session cannot be changed, and how to continue — or undefined when it can (or none is open): the
   * read-only flag and its reason, answered together.
   */
  readOnlyReason(): string | undefined {
    const c = this.current;
    return c?.sm.isReadOnly() === true ? readOnlyReason(c.readOnlyCause) : undefined;
  }

  /** The tree view's mirror of `sm`. */
  private newTree(sm: SessionManager): TreeSync {
    return new TreeSync(
      sm,
      (m) => this.deps.postTree(m),
      () => this.deps.showArchived?.() === true,
    );
  }

  private build(sm: SessionManager, readOnlyCause: ReadOnlyCause, tree = this.newTree(sm)): Current {
    const d = this.deps;
    // Only tools that change something ask; unknown names ask too (safe default).
    let mutating = (_name: string): boolean => true;
    const broker = new ApprovalBroker(
      () => d.autoApprove(),
      d.approvalUi,
      (name) => mutating(name),
      {
        cwd: d.cwd,
        ...(d.approvalRules ? { rules: d.approvalRules } : {}),
        ...(d.onError ? { onError: d.onError } : {}),
      },
    );
    const agent = new AgentSession({
      sessionManager: sm,
      cwd: d.cwd,
      modelRegistry: this.requireRegistry(),
      ...(d.compaction ? { compaction: d.compaction() } : {}),
      approve: broker.policy,
      selectModel: (sessionModel) =>
        pickDefaultModel(this.usable(), d.defaultModelKey(), sessionModel, d.piDefaultModelKey?.() ?? ""),
      ...(d.tools ? { tools: d.tools } : {}),
      ...(d.commandSandbox ? { commandSandbox: d.commandSandbox } : {}),
      ...(d.toolSource ? { toolSource: d.toolSource } : {}),
      ...(d.subagents ? { subagents: d.subagents } : {}),
      ...(d.checkpoints ? { checkpoints: d.checkpoints } : {}),
      ...(d.systemPrompt ? { systemPrompt: d.systemPrompt } : {}),
    });
    // As pi: a new session starts at the default level, recorded (clamped to the model) with its first message.
    const startLevel = d.defaultThinkingLevel?.();
    const model = agent.getModel();
    if (startLevel && model && sm.getEntryCount() === 0 && !sm.isReadOnly())
      agent.setThinkingLevel(this.requireRegistry().clampThinkingLevel(model, startLevel));
    const tools = agent.getTools();
    mutating = (name) => {
      const tool = tools.find((t) => t.name === name);
      return tool?.mutates !== false || tool.asks === true;
    };
    const chat = new ChatSync((m) => d.postChat(m), {
      onSettled: () => this.pushChat(),
      onStreaming: (s) => d.onStreaming(s),
    });
    const unsubscribeChat = agent.subscribe((e) => {
      chat.handle(e);
      if (e.type === "error" && e.source === "tool") d.onToolRefused?.(e.error);
      if (e.type === "error" && e.source === "model" && e.errorKind && e.provider)
        d.onModelFailed?.({ provider: e.provider, errorKind: e.errorKind, error: e.error });
    });
    const unsubscribeInput = followRunInput(
      agent,
      broker,
      (m) => d.postChat(m),
      (first) => d.onRunEnd?.(sm, first),
    );
    // What pi (in a terminal, no lock) appends shows here as it is written (docs/tree-navigation.md).
    const unsubscribeDisk = sm.onAppendedByOther((r) => this.appendedByOther(sm, r));
    const stopWatch = sm.watchDisk({
      // While the agent works its next entries go on from the leaf: it stays.
      keepLeaf: () => agent.isStreaming || agent.isBashRunning,
      onError: (e) => d.onError?.(`Following ${path.basename(sm.getSessionFile() ?? "")} failed: ${errorText(e)}`),
    });
    const unsubscribe = (): void => {
      unsubscribeChat();
      unsubscribeInput();
      unsubscribeDisk();
      stopWatch();
    };
    const unsubscribeLock = sm.onLockLost((newHolder, reason) => this.lockLost(sm, newHolder, reason));
    d.hookRegistry.attach(agent.hooks);
    d.onAgentChanged?.(agent);
    return { sm, agent, tree, chat, chatPath: new ChatPath(sm), broker, unsubscribe, unsubscribeLock, readOnlyCause };
  }

  /**
   * Another program appended to the open session (SessionManager.refreshFromDisk): the tree has their rows already
   * (TreeSync follows the store); the chat shows their messages when the leaf followed them; the rest (another
   * branch, lines that could not be read, a replaced file) the editor says.
   */
  private appendedByOther(sm: SessionManager, refresh: DiskRefresh): void {
    const c = this.current;
    if (!c || c.sm !== sm) return;
    if (refresh.followed) this.pushChat();
    this.deps.onAppendedByOther?.(sm, refresh);
  }

  /**
   * The writer lock was taken over: nothing more can be written, so a running prompt stops, the views show
   * the session read-only with the reason, and the editor says so.
   */
  private lockLost(sm: SessionManager, newHolder: LockHolderInfo | undefined, reason: LockLossReason): void {
    const c = this.current;
    if (!c || c.sm !== sm) return;
    c.readOnlyCause = reason === "file-gone" ? "fileGone" : "lockLost";
    c.agent.abort();
    this.deps.onLockLost?.(sm, newHolder, reason);
    this.pushAll();
  }

  /**
   * Write the current session back after its file or folder was deleted while open (SessionManager.saveAgain),
   * then show it writable again. Throws what saveAgain throws (the session stays read-only then).
   */
  async saveAgain(sm: SessionManager): Promise<void> {
    const c = this.current;
    if (!c || c.sm !== sm) return;
    await sm.saveAgain();
    if (this.current !== c) return;
    // A fresh agent: the old one was aborted and built for a read-only session.
    this.teardown(c);
    this.current = this.build(sm, "locked");
    this.deps.onSessionChanged(sm);
    this.pushAll();
  }

  private teardown(c: Current): void {
    this.deps.hookRegistry.attach(undefined);
    this.deps.onAgentChanged?.(undefined);
    c.broker.cancelAll();
    c.unsubscribe();
    c.unsubscribeLock();
    c.agent.dispose();
    c.chat.dispose();
    c.tree.dispose();
  }

  /** Snapshots for both views (after attach, a model change, a settings change). */
  pushAll(): void {
    this.pushTree();
    this.pushChat();
  }

  /** The tree snapshot to the tree view. */
  pushTree(): void {
    const opening = this.opening;
    const tree = this.current?.tree ?? opening?.tree;
    if (!tree || !this.deps.isViewReady("tree")) return;
    this.deps.postTree(tree.snapshot());
    if (opening) opening.posted = true;
  }

  /** The chat view was (re)loaded: it holds nothing yet, so it gets the newest window of the path. */
  chatViewLoaded(): void {
    this.current?.chatPath.reset();
    this.pushChat();
  }

  /** Answers the chat view's request for the messages before its first one (nothing when it is stale). */
  pushOlderChat(requestId: number, before: number, beforeId: string): void {
    const page = this.current?.chatPath.older(before, beforeId);
    if (page) this.deps.postChat({ type: "chat/older", requestId, ...page });
  }

  /** The chat snapshot (what changed on the path since the last one) and model list to the chat view. */
  pushChat(): void {
    const c = this.current;
    if (!c || !this.deps.isViewReady("chat")) return;
    c.tree.flush();
    this.deps.postChat(this.chatSnapshot(c));
    // The snapshot drops a reply still streaming from the view: its next update goes whole.
    c.chat.resendStreamed();
    this.deps.postChat(this.modelsMessage());
    this.deps.postChat({ type: "chat/queue", items: [...c.agent.getQueuedMessages()] });
    // A reloaded chat view lost its approval prompts: show them again.
    for (const p of c.broker.pendingPrompts()) this.deps.approvalUi.ask(p.request, p.summary, p.offer);
  }

  /** The chat of the current path, as the chat view needs it after what it was sent before (see ChatPath). */
  private chatSnapshot(c: Current): Extract<HostToWebview, { type: "chat/snapshot" }> {
    const path = c.chatPath.update();
    const model = c.agent.getModel();
    const msg: Extract<HostToWebview, { type: "chat/snapshot" }> = {
      type: "chat/snapshot",
      start: path.start,
      keep: path.keep,
      messages: path.messages,
      // A command the user typed counts: the chat offers Abort (and Escape) while it runs.
      streaming: c.agent.isStreaming || c.agent.isBashRunning,
      usage: usageOf(path.usage, model?.contextWindow ?? 0),
    };
    if (path.todos) msg.todos = path.todos;
    const plan = c.agent.getPlanModeState();
    if (plan.enabled) msg.planMode = true;
    if (plan.planId !== undefined) msg.planId = plan.planId;
    if (model) msg.model = toModelDto(model);
    const readOnly = this.readOnlyReason();
    if (readOnly !== undefined) msg.noModelReason = readOnly;
    else if (!model || !this.isUsable(model)) {
      // The session may name a model whose key is missing: say which, when others would work.
      msg.noModelReason =
        model && this.usable().length > 0
          ? `No API key for ${modelKey(model)}: pick another model or run “Agent: Set API Key”.`
          : NO_MODEL_REASON;
    }
    return msg;
  }

  /**
   * The thinking level the current agent's requests carry: a recorded one the model does not take (a new session's
   * "off", for a model that always reasons) is sent as the nearest it does, and the pickers show that one.
   */
  thinkingLevelInUse(): ThinkingLevel | undefined {
    const agent = this.current?.agent;
    const model = agent?.getModel();
    if (!agent || !model || !this.registry) return agent?.getThinkingLevel();
    return this.registry.clampThinkingLevel(model, agent.getThinkingLevel());
  }

  /** The picker's models. */
  modelsMessage(): Extract<HostToWebview, { type: "chat/models" }> {
    const current = this.current?.agent.getModel();
    const msg: Extract<HostToWebview, { type: "chat/models" }> = {
      type: "chat/models",
      // The picker is the host's QuickPick (models/model-picker.ts): the view needs the current model only.
      models: current ? [toModelDto(current)] : [],
    };
    if (current) msg.current = modelKey(current);
    const agent = this.current?.agent;
    if (agent) {
      msg.thinkingLevels = agent.getSupportedThinkingLevels();
      msg.thinkingLevel = this.thinkingLevelInUse() ?? agent.getThinkingLevel();
    }
    return msg;
  }

  /**
   * While the agent works: queue a follow-up or a steering message, with the attachments `content` holds after its
   * text (src/core/mentions/user-content.ts). When the run ended meanwhile, it is sent as a prompt instead (`send`),
   * so nothing typed is lost. Returns an error message, or undefined.
   */
  queueMessage(
    kind: QueuedKind,
    text: string,
    content: string | (TextContent | ImageContent)[],
    send: () => Promise<void>,
  ): string | undefined {
    const c = this.current;
    if (!c) return "No session is open.";
    if (!c.agent.isStreaming) {
      void send();
      return undefined;
    }
    try {
      c.agent.queueMessage(kind, text, typeof content === "string" ? [] : content.slice(1));
    } catch (e) {
      return errorText(e);
    }
    return undefined;
  }

  /**
   * Runs a command the user typed (`!command`, `!!command`) in the workspace and records it on the path
   * (AgentSession.executeBash); while a prompt runs, once it ended. Resolves when it ended and was recorded; rejects
   * with the reason when it cannot run (no session, read-only, a command already running, a move in progress).
   */
  async runUserCommand(command: UserCommand): Promise<void> {
    const c = this.current;
    if (!c) throw new Error("No session is open.");
    const readOnly = this.readOnlyReason();
    if (readOnly !== undefined) throw new Error(readOnly);
    await c.agent.executeBash(command.command, { excludeFromContext: command.excludeFromContext });
  }

  /** Change (empty text: remove) a queued message; nothing happens when it was already delivered. */
  editQueuedMessage(id: string, text: string): void {
    this.current?.agent.editQueuedMessage(id, text);
  }

  /** Remove a queued message; nothing happens when it was already delivered. */
  removeQueuedMessage(id: string): void {
    this.current?.agent.removeQueuedMessage(id);
  }

  /** Switch the thinking level (recorded as a thinking_level_change). Returns an error message, or undefined. */
  selectThinkingLevel(level: ThinkingLevel): string | undefined {
    const c = this.current;
    if (!c) return "No session is open.";
    if (c.sm.isReadOnly()) return this.readOnlyReason();
    if (!c.agent.getSupportedThinkingLevels().includes(level)) {
      const model = c.agent.getModel();
      return `${model ? model.name : "No model"} does not take the thinking level "${level}".`;
    }
    try {
      c.agent.setThinkingLevel(level);
    } catch (e) {
      return errorText(e);
    }
    this.pushChat();
    return undefined;
  }

  /**
   * True when the model can be called: its provider has credentials (a stored key or login, the environment, VS Code)
   * or needs none — the registry's readiness snapshot.
   */
  isUsable(m: ModelInfo): boolean {
    return this.registry?.isReady(m.provider) === true;
  }

  /** Models usable now. */
  usable(): ModelInfo[] {
    return usableModels(this.registry?.all() ?? [], (m) => this.isUsable(m));
  }

  private requireRegistry(): ModelRegistry {
    if (!this.registry) throw new Error("The model library is not loaded");
    return this.registry;
  }

  /**
   * Switch the model by key. Returns an error message, or undefined on success. In a session that
   * had no model, the new one is simply adopted (the model_change entry comes with it).
   */
  selectModel(key: string): string | undefined {
    const c = this.current;
    if (!c) return "No session is open.";
    const parsed = parseModelKey(key);
    const model = parsed ? this.registry?.find(parsed.provider, parsed.id) : undefined;
    if (!model) return `Unknown model "${key}".`;
    const readOnly = this.readOnlyReason();
    if (readOnly !== undefined) return readOnly;
    try {
      c.agent.setModel(model);
    } catch (e) {
      return errorText(e);
    }
    this.pushChat();
    return undefined;
  }

  /**
   * Keys or model settings changed. A session without a usable model gets a fresh agent so it picks one up
   * (without writing a model_change: nothing was said with it yet); the picker is refreshed.
   */
  refreshModels(): void {
    const c = this.current;
    if (!c) return;
    const model = c.agent.getModel();
    // Not while anything works in the session (a reply, a branch beside it): a new agent would stop it.
    if ((!model || !this.isUsable(model)) && c.agent.runs.list().length === 0 && this.usable().length > 0) {
      this.teardown(c);
      this.current = this.build(c.sm, c.readOnlyCause);
    }
    this.pushChat();
  }
}
