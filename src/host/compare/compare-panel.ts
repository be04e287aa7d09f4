/**
 * The compare editor tabs: one WebviewPanel per comparison (opening the same one again shows its tab), running
 * the compare bundle under the views' strict CSP. Every message from a panel is checked by
 * validateCompareMessage before its CompareFeed sees it.
 */
import * as vscode from "vscode";
import type { CheckpointSessionView } from "../../core/checkpoints/session-link.js";
import { BranchComparison, type CompareSource } from "../../core/compare/compare-branches.js";
import { validateCompareMessage } from "../views/protocol-validation.js";
import { singleLine } from "../../core/rows/tree-row.js";
import { buildWebviewHtml, COMPARE_ASSETS, makeNonce } from "../views/webview-html.js";
import { CompareFeed, type CompareFilesHost } from "./compare-feed.js";

/** The session a comparison reads (SessionManager has all of it; the checkpoint lookups need `getChildIds`). */
export interface CompareSession extends CompareSource, CheckpointSessionView {
  getSessionId(): string;
  getSessionName(): string | undefined;
  hasEntry(id: string): boolean;
}

/** What the panels need from the extension. */
export interface ComparePanelDeps {
  log: vscode.LogOutputChannel;
  /** Show an entry of session `sessionId` in the tree. */
  reveal(sessionId: string, entryId: string): void;
  /** The files section's source for a comparison in `session` (the workspace checkpoints). */
  files?: (session: CompareSession) => CompareFilesHost | undefined;
}

/** See the file comment. */
export class ComparePanels implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly deps: ComparePanelDeps,
  ) {}

  /** Open (or show) the tab comparing the paths to `leftId` and `rightId`. Throws for unknown ids. */
  show(session: CompareSession, leftId: string, rightId: string): void {
    const sessionId = session.getSessionId();
    const key = `${sessionId}\n${leftId}\n${rightId}`;
    const open = this.panels.get(key);
    if (open) return open.reveal();
    const comparison = BranchComparison.create(session, leftId, rightId);
    const { left, right } = comparison.overview;
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    const media = vscode.Uri.joinPath(this.extensionUri, "media");
    const panel = vscode.window.createWebviewPanel(
      "agentTree.compare",
      `Compare: ${singleLine(left.label ?? left.title, 24)} ↔ ${singleLine(right.label ?? right.title, 24)}`,
      vscode.ViewColumn.Active,
      { enableScripts: true, localResourceRoots: [dist, media] },
    );
    panel.iconPath = vscode.Uri.joinPath(media, "agent.svg");
    const asset = (path: string): string =>
      panel.webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, path)).toString();
    panel.webview.html = buildWebviewHtml({
      view: "compare",
      cspSource: panel.webview.cspSource,
      scriptUri: asset(COMPARE_ASSETS.script),
      styleUris: [asset(COMPARE_ASSETS.style)],
      nonce: makeNonce(),
      title: "Compare Branches",
    });
    const name = session.getSessionName();
    const files = this.deps.files?.(session);
    const feed = new CompareFeed({
      comparison,
      post: (msg) => void panel.webview.postMessage(msg),
      ...(name !== undefined ? { sessionName: name } : {}),
      ...(files ? { files } : {}),
      reveal: (entryId) => this.deps.reveal(sessionId, entryId),
      warn: (message) => this.deps.log.warn(message),
    });
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      const result = validateCompareMessage(raw, { hasEntry: (id) => session.hasEntry(id) });
      if (result.ok) void feed.handle(result.message);
      else this.deps.log.warn(`Ignored a message from a compare panel: ${result.reason}`);
    });
    panel.onDidDispose(() => this.panels.delete(key));
    this.panels.set(key, panel);
  }

  /** Close every compare tab. */
  dispose(): void {
    for (const panel of [...this.panels.values()]) panel.dispose();
    this.panels.clear();
  }
}
