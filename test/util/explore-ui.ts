/**
 * **Explore in Parallel…** as a user answers it in the workbench: its prompt (an input box), how many branches (a
 * quick pick), which models (a multi-select with the current model picked) and the check run as each branch
 * finishes (an input box, prefilled); the suites of branches (their workbench, what the file says of them) and
 * **Adopt This Branch**'s question.
 */
import type { FrameLocator, Page } from "playwright-core";
import { chatView, readSession, sendPrompt, sessionFiles, waitForLeafRow, type SessionLine } from "./agent-ui.js";
import type { FakeReplyFn, FakeRequestBody } from "./fake-provider-common.js";
import { demoWorkbenchSuite, type DemoWorkbenchSuite } from "./demo-workbench.js";
import { answerInputBox, dialog, expectVisible, pickQuickItem, quickInput } from "./workbench.js";

/** Bounds every model-driven wait of the suites that run branches (several streams at once on a busy machine). */
export const BRANCHES_TIMEOUT_MS = 90_000;

/** A message of a Chat Completions request, as the suites' reply scripts read it. */
export interface WireMessage {
  role: string;
  content: unknown;
}

/** The messages of a Chat Completions request. */
export function wireMessages(body: FakeRequestBody): WireMessage[] {
  return Array.isArray(body.messages) ? (body.messages as WireMessage[]) : [];
}

/**
 * The workbench of a suite that runs branches: a new session with the fake model, `write` approved without a
 * question (the branches write in their copies) and no summary question on a move; `files` in the workspace, and
 * `replies` the fake model's default answer.
 */
export function branchesWorkbenchSuite(
  name: string,
  files: Record<string, string>,
  replies: FakeReplyFn,
): DemoWorkbenchSuite {
  return demoWorkbenchSuite({
    name,
    model: { chunkDelayMs: 5 },
    settings: { "agentTree.tools.autoApprove": ["write"], "agentTree.branchSummary.ask": "never" },
    newSession: true,
    files,
    // Once the fake server runs, before the workbench starts (a hook of the file's own could run before that).
    prepare: ({ fake }) => void fake?.setDefault(replies),
  });
}

/**
 * Opens the tree (520 px wide) and the chat, sends `prompt` and waits (up to `timeoutMs`) until its reply, an echo,
 * is the leaf: the node a suite of branches explores from, and the session file the prompt created.
 */
export async function firstReplyLeaf(
  suite: DemoWorkbenchSuite,
  prompt: string,
  timeoutMs: number,
): Promise<{ tree: FrameLocator; node: string; sessionFile: string }> {
  const tree = await suite.openAgentTree(520);
  await sendPrompt(await chatView(suite.page()), prompt);
  const node = await waitForLeafRow(tree, "Echo", "the first reply to become the leaf", timeoutMs);
  return { tree, node, sessionFile: sessionFiles(suite.demo().sessionDir)[0] };
}

/** Each branch's latest run state in the session file (its `agent-tree/branch-run` lines), by its first entry. */
export function branchRunStates(sessionFile: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of readSession(sessionFile))
    if (l.type === "custom" && l.customType === "agent-tree/branch-run" && typeof l.parentId === "string")
      out.set(l.parentId, String((l.data as { state?: unknown }).state));
  return out;
}

/** The newest message line below `branchId` in file order (the branch's own line when it has none). */
export function newestBelow(lines: SessionLine[], branchId: string): SessionLine {
  const below = new Set([branchId]);
  let newest = lines.find((l) => l.id === branchId) as SessionLine;
  for (const l of lines)
    if (typeof l.parentId === "string" && below.has(l.parentId) && l.id) {
      below.add(l.id);
      if (l.type === "message") newest = l;
    }
  return newest;
}

/** Waits for **Adopt This Branch**'s question, listing `file` among the changes it would bring. */
export async function expectAdoptQuestion(page: Page, file: string): Promise<void> {
  const question = dialog(page);
  await expectVisible(
    question.getByText("Adopt This Branch: bring its file changes into your workspace?"),
    "the adopt question",
  );
  await expectVisible(question.getByText(file), `${file} listed`);
}

/**
 * Answers the prompt and the number of branches of the open **Explore in Parallel…** questions and waits for the
 * models question; returns the step that accepts the picked models (Enter) and answers the check question with
 * `check` (default "": no check), which starts the branches, so a caller can time from it.
 */
export async function answerExploreQuestions(
  page: Page,
  prompt: string,
  branches: number,
  check = "",
): Promise<() => Promise<void>> {
  await answerInputBox(page, prompt);
  await pickQuickItem(page, String(branches));
  await expectVisible(quickInput(page).getByText("which models"), "the models question");
  return async () => {
    await quickInput(page).locator(".quick-input-box input").press("Enter");
    await expectVisible(quickInput(page).getByText("a check when each branch finishes"), "the check question");
    await answerInputBox(page, check);
  };
}
