/**
 * Agent: Show System Prompt — the prompt in force at a row of the tree (or at the leaf) as a read-only Markdown
 * document of its own scheme. Each opening gets its own address, so a document shows the prompt as it was when it
 * was asked for.
 */
import * as vscode from "vscode";
import { systemPromptAt } from "../../core/prompt/prompt-at-entry.js";
import type { SessionController } from "../session/session-controller.js";

/** The documents' URI scheme. */
export const SYSTEM_PROMPT_SCHEME = "agent-tree-prompt";

/** The text shown for a point of the session (pure, for tests). */
export function systemPromptDocumentText(recorded: string, next: string | undefined, where: string): string {
  if (recorded !== "") return recorded;
  if (next !== undefined && next !== "")
    return `<!-- No system prompt is recorded ${where} yet: this is the one the next request will send. -->\n\n${next}`;
  return `<!-- No system prompt is recorded ${where}. -->\n`;
}

/** See the file comment. */
export class SystemPromptDocuments {
  private readonly texts = new Map<string, string>();
  private seq = 0;

  constructor(private readonly controller: SessionController) {}

  /** Registers the content provider. */
  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.workspace.registerTextDocumentContentProvider(SYSTEM_PROMPT_SCHEME, {
        provideTextDocumentContent: (uri) => this.texts.get(uri.toString()) ?? "",
      }),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === SYSTEM_PROMPT_SCHEME) this.texts.delete(doc.uri.toString());
      }),
    );
  }

  /** Opens the prompt at `entryId` (default: the leaf). */
  async show(entryId?: string): Promise<void> {
    const sm = this.controller.sessionManager;
    if (!sm) {
      void vscode.window.showInformationMessage("Agent Tree: no session is open.");
      return;
    }
    const atLeaf = entryId === undefined || entryId === sm.getLeafId();
    const recorded = systemPromptAt(sm, entryId ?? sm.getLeafId());
    const next = atLeaf && recorded === "" ? await this.controller.agent?.previewSystemPrompt() : undefined;
    const where = atLeaf ? "in this session" : "at this point of the session";
    const label = atLeaf ? "leaf" : entryId.slice(0, 8);
    const uri = vscode.Uri.from({
      scheme: SYSTEM_PROMPT_SCHEME,
      path: `/System Prompt (${label}).md`,
      query: `${sm.getSessionId()}.${++this.seq}`,
    });
    this.texts.set(uri.toString(), systemPromptDocumentText(recorded, next, where));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: true });
  }
}
