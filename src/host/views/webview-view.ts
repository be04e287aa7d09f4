/**
 * One webview view (tree or chat): the HTML shell, the `ready` handshake, and posting. Nothing is
 * posted before the view says `ready`; what it missed is covered by the snapshot the host sends then.
 * A shown view that does not say `ready` in time is re-created (see webview-ready-watchdog.ts).
 */
import * as fs from "node:fs";
import * as vscode from "vscode";
import { errorText } from "../../core/error-text.js";
import type { HostToWebview } from "../../shared/protocol.js";
import type { CommandId } from "../common/command-ids.js";
import { buildUnavailableHtml, buildWebviewHtml, makeNonce, WEBVIEW_ASSETS, type WebviewKind } from "./webview-html.js";
import { ReadyWatchdog, type OneAtATime } from "./webview-ready-watchdog.js";

/** Receives every raw message of a view (validated by the caller). */
export type RawMessageHandler = (raw: unknown, view: AgentWebviewView) => void;

/** The command behind "Reload View" (the notification and the view's own message); optional argument: the view kind. */
export const RELOAD_VIEWS_COMMAND = "agentTree.reloadViews" satisfies CommandId;

/** How long a shown view may take to say `ready` before it is re-created; a healthy view takes 0.5–2.5 s on a busy 2-core machine. */
export const READY_TIMEOUT_MS = 8_000;

/** Re-creations of a view before it shows "Reload View". */
export const READY_MAX_ATTEMPTS = 3;

/** Where a view logs and with whom it takes turns re-creating frames. */
export interface AgentWebviewViewDeps {
  extensionUri: vscode.Uri;
  onMessage: RawMessageHandler;
  log: vscode.LogOutputChannel;
  /** Shared by both views. */
  recreateQueue: OneAtATime;
}

/** See the file comment. */
export class AgentWebviewView implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private description: string | undefined;
  private readonly title: string;
  private readonly watchdog: ReadyWatchdog;
  /** When the current frame was shown (for the log line on `ready`). */
  private shownAt = 0;

  constructor(
    readonly kind: WebviewKind,
    private readonly deps: AgentWebviewViewDeps,
  ) {
    this.title = kind === "tree" ? "Session Tree" : "Chat";
    this.watchdog = new ReadyWatchdog({
      timeoutMs: READY_TIMEOUT_MS,
      maxAttempts: READY_MAX_ATTEMPTS,
      queue: deps.recreateQueue,
      isVisible: () => this.isVisible,
      recreate: (attempt) => this.recreate(attempt),
      giveUp: () => this.showUnavailable(),
    });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    view.description = this.description;
    const dist = vscode.Uri.joinPath(this.deps.extensionUri, "dist");
    const media = vscode.Uri.joinPath(this.deps.extensionUri, "media");
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [dist, media],
      // Only the "Reload View" link of the message shown when the view did not load.
      enableCommandUris: [RELOAD_VIEWS_COMMAND],
    };
    view.webview.html = this.appHtml(view);
    view.webview.onDidReceiveMessage((raw: unknown) => this.deps.onMessage(raw, this));
    view.onDidChangeVisibility(() => {
      if (this.view !== view) return;
      // Hidden, the view's frame is dropped (no retainContextWhenHidden); shown again, a new frame
      // loads the same HTML and says `ready` again, or is re-created like a new view.
      this.ready = false;
      if (view.visible) this.shown();
      else this.watchdog.pause();
    });
    view.onDidDispose(() => {
      if (this.view === view) {
        this.view = undefined;
        this.ready = false;
        this.watchdog.pause();
      }
    });
    if (view.visible) this.shown();
  }

  /** Text next to the view's title (session name, read-only marker); kept across re-resolves. */
  setDescription(text: string | undefined): void {
    this.description = text;
    if (this.view) this.view.description = text;
  }

  /** The webview said `ready`: posting may start. */
  markReady(): void {
    this.ready = true;
    this.watchdog.ready();
    this.deps.log.debug(`${this.title} view ready ${Date.now() - this.shownAt} ms after it was shown`);
  }

  /** True once the view is resolved and has said `ready`. */
  get isReady(): boolean {
    return this.ready && this.view !== undefined;
  }

  /** True when the view is resolved and on screen. */
  get isVisible(): boolean {
    return this.view?.visible === true;
  }

  /**
   * Post a message; dropped before `ready`. What a view shows has one owner in the host, which sends it again
   * when the view says `ready` (the snapshots, the chat input's held text and mentions: chat-input-handoff.ts).
   */
  post(msg: HostToWebview): void {
    if (!this.view || !this.ready) return;
    void this.view.webview.postMessage(msg);
  }

  /** Show the view (opens the Agent container). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`agentTree.${this.kind}.focus`);
  }

  /** Show the view and give it the focus (the view puts it on its list or input: webview/ui/focus-on-arrival.ts). */
  async focus(): Promise<void> {
    try {
      await vscode.commands.executeCommand(`agentTree.${this.kind}.focus`);
    } catch (e) {
      // Only the focus is lost (a window closing, say): nothing to tell the user.
      this.deps.log.debug(`${this.title} view: focus failed: ${errorText(e)}`);
    }
  }

  /** "Reload View": re-create the view's frame now (after the other view's, if that one is being re-created). */
  async reload(): Promise<void> {
    this.deps.log.info(`${this.title} view: reload requested`);
    this.ready = false;
    await this.watchdog.retry();
  }

  /** Stops waiting for `ready` (deactivation). */
  dispose(): void {
    this.watchdog.dispose();
  }

  private shown(): void {
    this.shownAt = Date.now();
    this.watchdog.expect();
  }

  private appHtml(view: vscode.WebviewView): string {
    const asset = (path: string): vscode.Uri => vscode.Uri.joinPath(this.deps.extensionUri, path);
    const styles = [WEBVIEW_ASSETS.style]
      .filter((f) => fs.existsSync(asset(f).fsPath))
      .map((f) => view.webview.asWebviewUri(asset(f)).toString());
    return buildWebviewHtml({
      view: this.kind,
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(asset(WEBVIEW_ASSETS.script)).toString(),
      styleUris: styles,
      // Fresh per load: a re-created frame gets a new document, never a replayed one.
      nonce: makeNonce(),
      title: this.title,
    });
  }

  /**
   * A new outer frame for the view: hiding the view disposes its frame (and this WebviewView), showing it
   * again makes VS Code create a new one and resolve it here. Setting the HTML again would reuse the stuck
   * frame. Shown again with "focus" (keeping the focus where it is) rather than a second toggle: that one
   * also opens the container, should hiding the view have emptied and closed it.
   */
  private async recreate(attempt: number): Promise<void> {
    this.deps.log.warn(
      `${this.title} view: not ready ${READY_TIMEOUT_MS / 1000} s after it was shown (blank); re-creating it (attempt ${attempt} of ${READY_MAX_ATTEMPTS})`,
    );
    await vscode.commands.executeCommand(`agentTree.${this.kind}.toggleVisibility`);
    await vscode.commands.executeCommand(`agentTree.${this.kind}.focus`, { preserveFocus: true });
  }

  /** Every attempt failed: say so in the view (if its frame can show anything) and in a notification. */
  private showUnavailable(): void {
    this.deps.log.error(`${this.title} view: still not ready after ${READY_MAX_ATTEMPTS} re-creations; giving up`);
    const view = this.view;
    if (view) {
      view.webview.html = buildUnavailableHtml({
        cspSource: view.webview.cspSource,
        nonce: makeNonce(),
        title: this.title,
        reloadCommandUri: `command:${RELOAD_VIEWS_COMMAND}?${encodeURIComponent(JSON.stringify([this.kind]))}`,
      });
    }
    void vscode.window
      .showErrorMessage(
        `Agent Tree: the ${this.title} view did not load (see the Agent Tree output channel).`,
        "Reload View",
      )
      .then((choice) => {
        if (choice === "Reload View") void this.reload();
      });
  }
}
