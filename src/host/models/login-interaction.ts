/**
 * pi-ai's login conversation (`AuthInteraction`: prompts and notices of its OAuth and API-key flows) in VS Code's
 * terms: questions in an input box or a quick pick that stay open when focus moves to the browser, a browser step
 * through `vscode.env.openExternal` (VS Code asks before it opens a site), a device code shown in the progress
 * notification and offered for the clipboard, progress messages in the cancellable notification the login runs
 * in. A flow that races a pasted code against its local callback server closes the input box when the browser wins.
 * Nothing shown here is logged.
 */
import type { AuthEvent, AuthInteraction, AuthPrompt } from "@earendil-works/pi-ai";
import * as vscode from "vscode";

/** Where a login talks to the user. */
export interface LoginInteractionOptions {
  /** The title of its input boxes ("Log In to Anthropic"). */
  title: string;
  /** The login's progress notification. */
  progress: vscode.Progress<{ message?: string }>;
  /** Aborted when the user cancels the login. */
  signal: AbortSignal;
}

/** The rejection of a prompt the user closed. */
export class LoginCancelled extends Error {
  constructor() {
    super("Login cancelled");
    this.name = "LoginCancelled";
  }
}

function abortError(): Error {
  const e = new Error("The prompt was closed: the login went on without it");
  e.name = "AbortError";
  return e;
}

/** See the file comment. */
export function vscodeAuthInteraction(options: LoginInteractionOptions): AuthInteraction {
  return {
    signal: options.signal,
    prompt: (p) => ask(p, options),
    notify: (e) => tell(e, options),
  };
}

/** One question; rejects with LoginCancelled when closed, with an AbortError when the flow no longer needs it. */
function ask(p: AuthPrompt, options: LoginInteractionOptions): Promise<string> {
  return p.type === "select" ? choose(p, options) : type(p, options);
}

function whenAborted(signals: readonly (AbortSignal | undefined)[], then: () => void): () => void {
  const live = signals.filter((s): s is AbortSignal => s !== undefined);
  if (live.some((s) => s.aborted)) {
    then();
    return () => undefined;
  }
  for (const s of live) s.addEventListener("abort", then, { once: true });
  return () => {
    for (const s of live) s.removeEventListener("abort", then);
  };
}

/**
 * One ending for a login question: the first of an answer, a cancel or an abort of `signals` settles it, stops
 * listening for the aborts and disposes of the box; later ones do nothing.
 */
function settleOnce(
  signals: readonly (AbortSignal | undefined)[],
  ui: { dispose(): void },
  reject: (e: unknown) => void,
): { finish(act: () => void): void; settled(): boolean } {
  let done = false;
  let stop = (): void => undefined;
  const finish = (act: () => void): void => {
    if (done) return;
    done = true;
    stop();
    act();
    ui.dispose();
  };
  stop = whenAborted(signals, () => finish(() => reject(abortError())));
  return { finish, settled: () => done };
}

function type(p: Exclude<AuthPrompt, { type: "select" }>, options: LoginInteractionOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const box = vscode.window.createInputBox();
    box.title = options.title;
    box.prompt = p.message;
    box.placeholder = p.placeholder ?? "";
    box.password = p.type === "secret";
    // The user copies a code from the browser: the box must survive the trip.
    box.ignoreFocusOut = true;
    const { finish, settled } = settleOnce([p.signal, options.signal], box, reject);
    box.onDidChangeValue(() => (box.validationMessage = undefined));
    box.onDidAccept(() => {
      const value = box.value.trim();
      if (!value) {
        box.validationMessage = "Enter a value, or press Escape to cancel the login.";
        return;
      }
      finish(() => resolve(value));
    });
    box.onDidHide(() => finish(() => reject(new LoginCancelled())));
    if (!settled()) box.show();
  });
}

function choose(p: Extract<AuthPrompt, { type: "select" }>, options: LoginInteractionOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { id: string }>();
    pick.title = options.title;
    pick.placeholder = p.message;
    pick.ignoreFocusOut = true;
    pick.items = p.options.map((o) => ({ label: o.label, description: o.description, id: o.id }));
    const { finish, settled } = settleOnce([p.signal, options.signal], pick, reject);
    pick.onDidAccept(() => {
      const picked = pick.selectedItems[0];
      if (picked) finish(() => resolve(picked.id));
    });
    pick.onDidHide(() => finish(() => reject(new LoginCancelled())));
    if (!settled()) pick.show();
  });
}

function openLink(url: string): void {
  void vscode.env.openExternal(vscode.Uri.parse(url, true));
}

/** One notice of the flow. */
function tell(e: AuthEvent, options: LoginInteractionOptions): void {
  switch (e.type) {
    case "progress":
      options.progress.report({ message: e.message });
      return;
    case "info": {
      const links = (e.links ?? []).map((l) => ({ title: l.label ?? "More Information", url: l.url }));
      void vscode.window.showInformationMessage(e.message, ...links).then((l) => l && openLink(l.url));
      return;
    }
    case "auth_url": {
      options.progress.report({ message: "Complete the login in your browser…" });
      openLink(e.url);
      const text = e.instructions ?? "Complete the login in the browser page that opened.";
      void vscode.window
        .showInformationMessage(`${options.title}: ${text}`, "Open Browser Again", "Copy Link")
        .then((choice) => {
          if (choice === "Open Browser Again") openLink(e.url);
          if (choice === "Copy Link") void vscode.env.clipboard.writeText(e.url);
        });
      return;
    }
    case "device_code": {
      const copy = e.copyCodeOnConfirm !== false;
      const open = e.openBrowserOnConfirm !== false;
      options.progress.report({ message: `enter the code ${e.userCode} at ${e.verificationUri}` });
      const actions = [
        ...(copy && open ? ["Copy Code and Open Browser"] : []),
        ...(copy ? ["Copy Code"] : []),
        ...(!copy && open ? ["Open Browser"] : []),
      ];
      void vscode.window
        .showInformationMessage(`${options.title}: enter the code ${e.userCode} at ${e.verificationUri}`, ...actions)
        .then(async (choice) => {
          if (!choice) return;
          if (choice.startsWith("Copy")) await vscode.env.clipboard.writeText(e.userCode);
          if (choice.endsWith("Browser")) openLink(e.verificationUri);
        });
      return;
    }
  }
}
