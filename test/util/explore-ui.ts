/**
 * **Explore in Parallel…** as a user answers it in the workbench: its prompt (an input box), how many branches (a
 * quick pick), which models (a multi-select with the current model picked) and the check run as each branch
 * finishes (an input box, prefilled).
 */
import type { Page } from "playwright-core";
import { answerInputBox, expectVisible, pickQuickItem, quickInput } from "./workbench.js";

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
