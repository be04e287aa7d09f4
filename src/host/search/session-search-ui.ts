/**
 * "Agent: Search Sessions…": a quick pick that searches every session of the workspace as you type (our
 * folder, pi's folder, Claude Code's transcripts; src/core/search), showing hits as they stream in. Picking
 * one opens its session the way Open Session does (read-only for pi's other folder and Claude Code) and
 * reveals and selects the entry in the tree.
 */
import * as vscode from "vscode";
import { claudeTranscriptPathOf } from "../../core/import/claude-session.js";
import { findSearchTargets } from "../../core/search/search-targets.js";
import { SessionSearch } from "../../core/search/session-search.js";
import type { SearchTarget, SessionSearchHit } from "../../core/search/types.js";
import type { PickRow } from "../common/pick-items.js";
import { searchHitRow, searchTitle } from "./search-items.js";
import type { SessionController } from "../session/session-controller.js";
import type { SessionOpener } from "../session/session-opener.js";
import type { AgentWebviewView } from "../views/webview-view.js";
import { errorText } from "../../core/error-text.js";

/** Typing pauses this long before a search starts (each keystroke cancels the search before). */
const TYPING_PAUSE_MS = 150;
/** Rows are pushed to the quick pick at most this often while hits stream in. */
const REFRESH_MS = 100;
/** How long a reveal waits for the tree view to load after the session opened. */
const TREE_READY_WAIT_MS = 20_000;

type Row = PickRow<SessionSearchHit> & vscode.QuickPickItem;

/** What the search UI works with. */
export interface SessionSearchUiDeps {
  cwd: string;
  controller: SessionController;
  opener: SessionOpener;
  tree: AgentWebviewView;
  log: vscode.LogOutputChannel;
  /** The bundled search worker (dist/search-worker.js). */
  workerScript: string;
}

/** See the file comment. */
export class SessionSearchUi implements vscode.Disposable {
  private readonly search: SessionSearch;

  constructor(private readonly d: SessionSearchUiDeps) {
    this.search = new SessionSearch({ workerScript: d.workerScript });
  }

  /** Show the search quick pick; resolves when a result was opened or the pick was dismissed. */
  async show(): Promise<void> {
    let targets: SearchTarget[];
    try {
      targets = await findSearchTargets(this.d.cwd, { sessionDir: this.d.opener.sessionDir() });
    } catch (e) {
      void vscode.window.showErrorMessage(`Cannot list sessions: ${errorText(e)}`);
      return;
    }
    const picked = await this.pick(targets);
    if (picked) await this.openHit(picked);
  }

  dispose(): void {
    void this.search.dispose();
  }

  private pick(targets: readonly SearchTarget[]): Promise<SessionSearchHit | undefined> {
    const qp = vscode.window.createQuickPick<Row>();
    qp.title = searchTitle({ query: "", hits: 0, sessions: 0, running: false, truncated: false });
    qp.placeholder = `Words to find in ${targets.length} sessions of this workspace (every word must match)`;
    // Results are already filtered; matching on every field lets the quick pick highlight the query's words.
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.keepScrollPosition = true;
    let running: AbortController | undefined;
    let pause: ReturnType<typeof setTimeout> | undefined;
    const start = (query: string): void => {
      running?.abort();
      const abort = new AbortController();
      running = abort;
      const rows: Row[] = [];
      const sessions = new Set<string>();
      let refresh: ReturnType<typeof setTimeout> | undefined;
      const show = (done: boolean, truncated = false): void => {
        if (abort.signal.aborted) return;
        const active = qp.activeItems[0];
        qp.items = [...rows];
        // Keep the row the user is on (the same objects are handed in again).
        if (active && rows.includes(active)) qp.activeItems = [active];
        qp.title = searchTitle({ query, hits: rows.length, sessions: sessions.size, running: !done, truncated });
        qp.busy = !done;
      };
      qp.items = [];
      show(false);
      const began = Date.now();
      void this.search
        .search(
          query,
          targets,
          (hit) => {
            rows.push({ ...searchHitRow(hit), alwaysShow: true });
            sessions.add(hit.path);
            refresh ??= setTimeout(() => {
              refresh = undefined;
              show(false);
            }, REFRESH_MS);
          },
          { signal: abort.signal },
        )
        .then((outcome) => {
          if (refresh) clearTimeout(refresh);
          show(true, outcome.truncated);
          const s = outcome.stats;
          this.d.log.info(
            `Search "${query}": ${s.hits} hits in ${Date.now() - began} ms, ${s.files} files, ` +
              `${(s.bytes / 1e6).toFixed(1)} MB, ${s.candidateLines} lines decoded, ${s.corruptLines} corrupt, ` +
              `${s.skippedFiles} skipped, ${outcome.workers} workers${outcome.cancelled ? " (cancelled)" : ""}`,
          );
        });
    };
    return new Promise((resolve) => {
      qp.onDidChangeValue((value) => {
        if (pause) clearTimeout(pause);
        running?.abort();
        qp.busy = false;
        if (value.trim() === "") {
          qp.items = [];
          qp.title = searchTitle({ query: "", hits: 0, sessions: 0, running: false, truncated: false });
          return;
        }
        pause = setTimeout(() => start(value), TYPING_PAUSE_MS);
      });
      qp.onDidAccept(() => {
        const row = qp.selectedItems[0] ?? qp.activeItems[0];
        if (!row) return;
        resolve(row.value);
        qp.hide();
      });
      qp.onDidHide(() => {
        if (pause) clearTimeout(pause);
        running?.abort();
        qp.dispose();
        resolve(undefined);
      });
      qp.show();
    });
  }

  /** Open the hit's session (unless it is the open one) and select the entry in the tree. */
  private async openHit(hit: SessionSearchHit): Promise<void> {
    const { opener, controller, tree } = this.d;
    const sm = controller.sessionManager;
    const current = (sm && claudeTranscriptPathOf(sm)) ?? sm?.getSessionFile();
    if (current !== hit.path) {
      const opened =
        hit.source === "claude"
          ? await opener.openClaude(hit.path)
          : hit.source === "pi"
            ? await opener.openPiReadOnly(hit.path)
            : await opener.openPath(hit.path);
      if (!opened) return;
    }
    if (!controller.hasEntry(hit.entryId)) {
      void vscode.window.showInformationMessage("That entry is no longer in the session (the file changed).");
      return;
    }
    await tree.reveal();
    // Messages posted before the view has loaded are dropped (its snapshot covers them), so the reveal
    // waits until the view is ready; the snapshot of the opened session has gone out by then.
    const deadline = Date.now() + TREE_READY_WAIT_MS;
    while (!tree.isReady && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (!tree.isReady) {
      this.d.log.warn(`Search: the tree view did not load; entry ${hit.entryId} not revealed`);
      return;
    }
    tree.post({ type: "tree/reveal", entryId: hit.entryId });
  }
}
