/**
 * What the commands, context-menu items and webview messages do. They run through the operations table
 * (src/host/operations), whose guards checked what each needs (a session, writable, nothing at work where it acts,
 * the files free) before — a move holds the leaf meanwhile —, so they do not check it again; each reports its outcome
 * through the Notifier and never throws to its caller. `submit` and `entryText` are the chat's and the hover's (no
 * operation).
 */
import * as vscode from "vscode";
import { CompactionError } from "../../core/compaction/run-compaction.js";
import type { ImageContent, TextContent } from "../../core/messages.js";
import { claudeTranscriptPathOf } from "../../core/import/claude-session.js";
import type { ForkPosition } from "../../core/agent/fork.js";
import { treeRows } from "../../core/rows/tree-row.js";
import { entryFullText } from "../chat/chat-dto.js";
import { movedMessage, runNavigateFlow, type FilesFollow, type NavigateMode } from "./navigate-flow.js";
import { nodeRows } from "../common/pick-items.js";
import { pickValue } from "../common/pick-value.js";
import type { SessionController } from "../session/session-controller.js";
import type { SessionOpener } from "../session/session-opener.js";
import { askSetting } from "../common/settings.js";
import { vscodeNavigateUi } from "./vscode-navigate-ui.js";
import type { AgentWebviewView } from "../views/webview-view.js";
import type { ChatInputHandoff } from "../chat-input/chat-input-handoff.js";
import type { Notify } from "../common/notifier.js";
import { NO_SESSION_TEXT } from "../common/guard-texts.js";

/** What the actions need. */
export interface ActionDeps {
  controller: SessionController;
  opener: SessionOpener;
  tree: AgentWebviewView;
  /** The chat input's text from the host (a fork's user message; held while the chat view is not ready). */
  input: Pick<ChatInputHandoff, "setText">;
  log: vscode.LogOutputChannel;
  notify: Notify;
  /** The files step of a branch switch (checkpoint-actions.ts); undefined: files stay as they are. */
  filesFollow?(): Promise<FilesFollow | undefined>;
}

/** See the file comment. */
export class HostActions {
  constructor(private readonly d: ActionDeps) {}

  /**
   * Move to an entry (click, Enter, menus, commands, a picked node). Its operation holds the leaf meanwhile, so a
   * second move is refused by the guards while the summary question or progress is up.
   */
  async navigate(entryId: string, mode: NavigateMode): Promise<void> {
    const { controller, tree, input } = this.d;
    const { sm, agent } = controller.requireSession();
    const ui = vscodeNavigateUi(
      (busy, message) =>
        tree.post(busy && message ? { type: "tree/busy", busy, message } : { type: "tree/busy", busy }),
      (text, kind) => this.d.notify.status(text, kind),
    );
    // A move from the tree (a click, Enter, its menu) gives the focus back to the tree once the question closes;
    // one from the command palette's node picker (`choose`) leaves it where the workbench puts it.
    if (mode !== "choose") ui.questionsClosed = () => void tree.focus();
    const navigator = { getLeafId: () => sm.getLeafId(), navigateTree: agent.navigateTree.bind(agent) };
    const files = await this.d.filesFollow?.();
    const outcome = await runNavigateFlow(navigator, ui, entryId, mode, askSetting(), files);
    this.d.log.info(`navigate ${entryId} (${mode}): ${outcome.kind}`);
    if (outcome.kind === "aborted") this.d.notify.status("Branch switch cancelled; nothing changed.");
    if (outcome.kind !== "moved") return;
    tree.post({ type: "tree/reveal", entryId: sm.getLeafId() ?? entryId });
    // The tree's messages (its update, posted when the leaf moved, and the reveal) leave the extension host on a
    // timer of VS Code's message channel: without a turn of the event loop here they would wait for the chat's
    // update, which reads the new part of the path (50–100 ms for a 300 MB session on a busy machine).
    await new Promise((resolve) => setTimeout(resolve, 0));
    controller.pushChat();
    if (outcome.editorText !== undefined) input.setText(outcome.editorText);
    this.d.notify.status(movedMessage(outcome));
  }

  /** Quick pick of the tree's nodes (an operation's picker); resolves to an entry id. */
  async pickNode(title: string): Promise<string | undefined> {
    const sm = this.d.controller.sessionManager;
    if (!sm) return void this.d.notify.info(NO_SESSION_TEXT);
    const rows = nodeRows(treeRows(sm), sm.getLeafId());
    if (rows.length === 0) return void this.d.notify.info("The session has no messages yet.");
    const leafRow = rows.find((r) => r.value === sm.getLeafId());
    return pickValue(rows, {
      title,
      placeholder: "● marks the active path; type to filter by role, label or text",
      // Start at the leaf, like pi's tree selector.
      active: leafRow,
    });
  }

  /** Set (or with an empty input, remove) an entry's label. */
  async labelEntry(id: string): Promise<void> {
    const { sm } = this.d.controller.requireSession();
    const current = sm.getLabel(id);
    const label = await vscode.window.showInputBox({
      title: "Label Entry",
      prompt: "A short name for this point of the conversation (empty removes the label)",
      value: current ?? "",
      validateInput: (v) => (v.length > 200 ? "Keep labels under 200 characters" : undefined),
    });
    // The workbench does not give the focus back to the tree when the input box closes.
    void this.d.tree.focus();
    if (label === undefined) return;
    this.writeLabel(id, label.trim() || undefined);
  }

  /** Remove an entry's label. */
  removeLabel(entryId: string): void {
    const { sm } = this.d.controller.requireSession();
    if (sm.getLabel(entryId) !== undefined) this.writeLabel(entryId, undefined);
  }

  /** Copy an entry's text to the clipboard. */
  async copyText(entryId: string): Promise<void> {
    const entry = this.d.controller.sessionManager?.getEntry(entryId);
    if (!entry) return;
    await vscode.env.clipboard.writeText(entryFullText(entry));
    this.d.notify.status("Copied to the clipboard.");
  }

  /** The whole text of an entry for the tree's hover. */
  entryText(requestId: number, entryId: string): void {
    const entry = this.d.controller.sessionManager?.getEntry(entryId);
    if (entry) this.d.tree.post({ type: "tree/entryText", requestId, entryId, text: entryFullText(entry) });
  }

  /**
   * Copy root→entry into a new session file and open it: before a user message (its text into the input), or with
   * `position` "at" (`/clone`) up to the entry itself.
   */
  async forkAt(id: string, position?: ForkPosition): Promise<void> {
    const { controller, opener, input } = this.d;
    const { sm, agent } = controller.requireSession();
    // A Claude Code view is converted (pi tool names, workspace folder), not copied as it is.
    if (claudeTranscriptPathOf(sm)) return void (await opener.continueInNewSession(id));
    try {
      const r = await agent.fork(id, position);
      if (r.cancelled || !r.newSessionFile) return;
      if (!(await opener.openPath(r.newSessionFile))) return;
      if (r.editorText !== undefined) input.setText(r.editorText);
      this.d.notify.status("Forked into a new session.");
    } catch (e) {
      this.d.notify.error("Fork failed", e);
    }
  }

  /** Summarize older history under a cancellable progress. */
  async compact(focus?: string): Promise<void> {
    const { agent } = this.d.controller.requireSession();
    try {
      const entry = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: "Compacting the conversation…", cancellable: true },
        (_p, token) => {
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort());
          return agent.compact(focus, controller.signal).finally(() => sub.dispose());
        },
      );
      this.d.controller.pushChat();
      this.d.notify.status(entry ? "Conversation compacted." : "Nothing to compact yet.");
    } catch (e) {
      this.d.notify.error(e instanceof CompactionError ? "Compaction failed" : "Cannot compact", e);
    }
  }

  /** Send a prompt from the chat input. */
  async submit(text: string, content?: string | (TextContent | ImageContent)[]): Promise<void> {
    const { controller, input } = this.d;
    const agent = controller.agent;
    if (!agent) return this.d.notify.info(NO_SESSION_TEXT);
    const readOnly = controller.readOnlyReason();
    if (readOnly !== undefined) return this.d.notify.status(readOnly, "error");
    try {
      await agent.prompt(text, typeof content === "object" ? { content } : {});
    } catch (e) {
      input.setText(text);
      this.d.notify.error("Cannot send", e);
    }
  }

  /** Stop the running reply at the leaf, and the command the user typed if one runs (Stop, Escape, Agent: Abort). */
  abort(): void {
    this.d.controller.agent?.abort();
    this.d.controller.agent?.abortBash();
  }

  private writeLabel(id: string, label: string | undefined): void {
    try {
      this.d.controller.sessionManager?.appendLabelChange(id, label);
    } catch (e) {
      this.d.notify.error("Cannot label", e);
    }
  }
}
