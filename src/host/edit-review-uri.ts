/**
 * The read-only documents of an edit under review: the file as it is and as the pending `write`/`edit` would
 * leave it, named `agent-tree-edit:/<path>?call=<toolCallId>&side=before|after` (the path keeps the editor's
 * language by name; the diff editor's title bar offers Accept and Reject on this scheme). Pure: no `vscode`.
 */

/** The URI scheme of edit review documents (package.json's editor/title `when` names it). */
export const EDIT_REVIEW_SCHEME = "agent-tree-edit";

/** Which side of the review a document shows. */
export type ReviewSide = "before" | "after";

/** The parts of a review document's URI. */
export function reviewUriParts(
  toolCallId: string,
  filePath: string,
  side: ReviewSide,
): { scheme: string; path: string; query: string } {
  const query = new URLSearchParams({ call: toolCallId, side }).toString();
  return { scheme: EDIT_REVIEW_SCHEME, path: `/${filePath.replace(/^\/+/, "")}`, query };
}

/** The tool call and side a review document's URI names, or undefined when it is not one. */
export function parseReviewUri(uri: {
  scheme: string;
  query: string;
}): { toolCallId: string; side: ReviewSide } | undefined {
  if (uri.scheme !== EDIT_REVIEW_SCHEME) return undefined;
  const q = new URLSearchParams(uri.query);
  const toolCallId = q.get("call");
  const side = q.get("side");
  if (!toolCallId || (side !== "before" && side !== "after")) return undefined;
  return { toolCallId, side };
}
