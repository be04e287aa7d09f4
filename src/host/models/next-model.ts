/** "Agent: Next Model": which model of the short list comes after the current one (pi's Ctrl+P cycle). Pure. */
import type { ScopedModel } from "../../core/providers/model-scope.js";
import { modelKey } from "./model-choice.js";

/**
 * The model after `currentKey` in `shortList`, wrapping around; the first one when the current model is not in it
 * (or there is none). Undefined for an empty list.
 */
export function nextInShortList(
  shortList: readonly ScopedModel[],
  currentKey: string | undefined,
): { scoped: ScopedModel; index: number } | undefined {
  if (shortList.length === 0) return undefined;
  const at = currentKey === undefined ? -1 : shortList.findIndex((s) => modelKey(s.model) === currentKey);
  const index = (at + 1) % shortList.length;
  return { scoped: shortList[index], index };
}
