/**
 * What every feature of the host shares (docs/architecture.md, "The layout"): the extension's context, the log, the
 * workspace folder, the two views, the one notifier and files lock, settings and context keys, and the accessors of
 * what is built later in activation (the session controller, the operations table, the webview router). extension.ts
 * builds it first and passes it to each feature's `createX(services)` in order; a feature that needs a later one
 * calls its accessor when it acts, never while it is being built.
 */
import * as os from "node:os";
import * as vscode from "vscode";
import type { SessionManager } from "../../core/session/session-manager.js";
import { ArchivedVisibility } from "../archive/archived-visibility.js";
import { ChatInputHandoff } from "../chat-input/chat-input-handoff.js";
import type { Operations } from "../operations/operations.js";
import type { SessionController } from "../session/session-controller.js";
import { OneAtATime } from "../views/webview-ready-watchdog.js";
import { AgentWebviewView, type RawMessageHandler } from "../views/webview-view.js";
import { FilesLock } from "./files-lock.js";
import { Late } from "./late.js";
import { Notifier } from "./notifier.js";
import { affects } from "./settings.js";

/** See the file comment. */
export interface HostServices {
  readonly context: vscode.ExtensionContext;
  readonly log: vscode.LogOutputChannel;
  /** The workspace's first folder (the agent's working folder), else the home folder. */
  readonly cwd: string;
  /** The workspace's first folder when it is on disk. */
  readonly folderPath: string | undefined;
  /**
   * The tree and chat views: they exist before the features so any can post; their messages go to `router`. The
   * host owns what they show but their frames lose: whether archived branches show, the chat input's text handed
   * over (archived-visibility.ts, chat-input-handoff.ts).
   */
  readonly views: {
    readonly tree: AgentWebviewView;
    readonly chat: AgentWebviewView;
    readonly archived: ArchivedVisibility;
    readonly input: ChatInputHandoff;
  };
  /** The one way to tell the user how an operation went (its status line in one view: the chat, else the tree). */
  readonly notify: Notifier;
  /** The one lock on the workspace's files, for every operation that writes them. */
  readonly filesLock: FilesLock;
  /** The session controller (session/create-session.ts). */
  readonly controller: Late<SessionController>;
  /** The operations table (operations/create-operations.ts). */
  readonly operations: Late<Operations>;
  /** Where the views' messages go (views/create-views.ts). */
  readonly router: Late<RawMessageHandler>;
  /** Adds to what the extension disposes with the window. */
  subscribe(...disposables: vscode.Disposable[]): void;
  /** Sets a `when`-clause context key (menus, title bars, keybindings). */
  setContext(key: string, value: unknown): void;
  /** Calls `listener` when one of `keys` of the agentTree settings changes. */
  onSettingChange(keys: readonly string[], listener: () => void): void;
  /** Another session became current: listeners run in the order they were added, then the public event fires. */
  readonly sessionListeners: ((sm: SessionManager) => void)[];
  /** What deactivation awaits (the session's file flushed and unlocked, the MCP servers stopped). */
  readonly onDeactivate: (() => Promise<unknown>)[];
}

/** The services of one activation. */
export function createServices(context: vscode.ExtensionContext): HostServices {
  const log = vscode.window.createOutputChannel("Agent Tree", { log: true });
  context.subscriptions.push(log);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const router = new Late<RawMessageHandler>("the webview router");
  const viewDeps = {
    extensionUri: context.extensionUri,
    // A message before the router is built (none: the views load once registered, last) is dropped.
    onMessage: (raw: unknown, v: AgentWebviewView) => router.peek()?.(raw, v),
    log,
    recreateQueue: new OneAtATime(),
  };
  const tree = new AgentWebviewView("tree", viewDeps);
  const chat = new AgentWebviewView("chat", viewDeps);
  context.subscriptions.push(tree, chat);
  return {
    context,
    log,
    cwd: folder?.fsPath ?? os.homedir(),
    folderPath: folder?.scheme === "file" ? folder.fsPath : undefined,
    views: {
      tree,
      chat,
      archived: new ArchivedVisibility(
        context.workspaceState,
        (m) => tree.post(m),
        (m) => log.warn(m),
      ),
      input: new ChatInputHandoff(chat),
    },
    notify: new Notifier([chat, tree], log),
    filesLock: new FilesLock(),
    controller: new Late("the session controller"),
    operations: new Late("the operations table"),
    router,
    subscribe: (...disposables) => void context.subscriptions.push(...disposables),
    setContext: (key, value) => void vscode.commands.executeCommand("setContext", key, value),
    onSettingChange: (keys, listener) =>
      void context.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration((e) => {
          if (keys.some((k) => affects(e, k))) listener();
        }),
      ),
    sessionListeners: [],
    onDeactivate: [],
  };
}
