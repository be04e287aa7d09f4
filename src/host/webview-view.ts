/**
 * One webview view (tree or chat): the HTML shell, the `ready` handshake, and posting. Nothing is
 * posted before the view says `ready`; what it missed is covered by the snapshot the host sends then.
 */
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { HostToWebview } from "../shared/protocol.js";
import { buildWebviewHtml, makeNonce, type WebviewKind } from "./webview-html.js";

/** Receives every raw message of a view (validated by the caller). */
export type RawMessageHandler = (raw: unknown, view: AgentWebviewView) => void;

/** See the file comment. */
export class AgentWebviewView implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;
  private ready = false;
  private description: string | undefined;

  constructor(
    readonly kind: WebviewKind,
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: RawMessageHandler,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.ready = false;
    view.description = this.description;
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    const media = vscode.Uri.joinPath(this.extensionUri, "media");
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
    const styles = ["webview.css"]
      .filter((f) => fs.existsSync(vscode.Uri.joinPath(dist, f).fsPath))
      .map((f) => view.webview.asWebviewUri(vscode.Uri.joinPath(dist, f)).toString());
    view.webview.html = buildWebviewHtml({
      view: this.kind,
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, "webview.js")).toString(),
      styleUris: styles,
      nonce: makeNonce(),
      title: this.kind === "tree" ? "Session Tree" : "Chat",
    });
    view.webview.onDidReceiveMessage((raw: unknown) => this.onMessage(raw, this));
    view.onDidDispose(() => {
      if (this.view === view) {
        this.view = undefined;
        this.ready = false;
      }
    });
  }

  /** Text next to the view's title (session name, read-only marker); kept across re-resolves. */
  setDescription(text: string | undefined): void {
    this.description = text;
    if (this.view) this.view.description = text;
  }

  /** The webview said `ready`: posting may start. */
  markReady(): void {
    this.ready = true;
  }

  /** True once the view is resolved and has said `ready`. */
  get isReady(): boolean {
    return this.ready && this.view !== undefined;
  }

  /** True when the view is resolved and on screen. */
  get isVisible(): boolean {
    return this.view?.visible === true;
  }

  /** Post a message; dropped before `ready` (the snapshot on `ready` covers it). */
  post(msg: HostToWebview): void {
    if (!this.view || !this.ready) return;
    void this.view.webview.postMessage(msg);
  }

  /** Show the view (opens the Agent container). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`agentTree.${this.kind}.focus`);
  }
}
