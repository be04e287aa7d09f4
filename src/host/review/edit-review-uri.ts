/**
 * The read-only documents of an edit under review: the file as it is and as the pending `write`/`edit` would
 * leave it, named `agent-tree-edit:/<path>?review=<review id>&side=before|after` (the path keeps the editor's
 * language by name; the diff editor's title bar offers Accept and Reject on this scheme). Each review has an id
 * of its own, not the tool call's: a provider may repeat call ids, and a call is reviewed again when its file
 * changed, while VS Code keeps a document it showed under its URI (a reused URI would show the old diff). Pure: no
 * `vscode`.
 */

/** The URI scheme of edit review documents (package.json's editor/title `when` names it). */
export const EDIT_REVIEW_SCHEME = "agent-tree-edit";

/** Which side of the review a document shows. */
export type ReviewSide = "before" | "after";

/** The parts of a review document's URI. */
export function reviewUriParts(
  reviewId: string,
  filePath: string,
  side: ReviewSide,
): { scheme: string; path: string; query: string } {
  const query = new URLSearchParams({ review: reviewId, side }).toString();
  return { scheme: EDIT_REVIEW_SCHEME, path: `/${filePath.replace(/^\/+/, "")}`, query };
}

/** The review and side a review document's URI names, or undefined when it is not one. */
export function parseReviewUri(uri: {
  scheme: string;
  query: string;
}): { reviewId: string; side: ReviewSide } | undefined {
  if (uri.scheme !== EDIT_REVIEW_SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  const reviewId = q.get("review");
  const side = q.get("side");
  if (!reviewId || (side !== "before" && side !== "after")) return undefined;
  return { reviewId, side };
}
