/**
 * The pending edit reviews (src/host/review/pending-reviews.ts) and their documents' URIs: a provider that repeats a tool
 * call id, or a call reviewed again after its file changed, gets a review of its own under a new URI (VS Code keeps
 * a document it showed under its URI: a reused one would show the old diff), and an old diff answers nothing.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseReviewUri, reviewUriParts } from "../../src/host/review/edit-review-uri.js";
import { PendingReviews } from "../../src/host/review/pending-reviews.js";

test("a repeated tool call id gets a review of its own, under distinct URIs; the old one resolves to nothing", () => {
  const reviews = new PendingReviews<string>();
  const first = reviews.add("call_0", "first diff");
  const firstUri = reviewUriParts(first.reviewId, "src/a.ts", "after");
  assert.equal(reviews.remove("call_0")?.value, "first diff");
  // The provider's next call has the same id.
  const second = reviews.add("call_0", "second diff");
  const secondUri = reviewUriParts(second.reviewId, "src/a.ts", "after");
  assert.notDeepEqual(secondUri, firstUri, "distinct review URIs for one call id");
  assert.equal(reviews.get(parseReviewUri(secondUri)?.reviewId ?? "")?.value, "second diff");
  assert.equal(reviews.get(parseReviewUri(firstUri)?.reviewId ?? ""), undefined, "the old diff is no longer pending");
  assert.equal(reviews.ofCall("call_0")?.reviewId, second.reviewId);
  // A call reviewed again (its file changed) replaces its review: again a new id.
  const third = reviews.add("call_0", "third diff");
  assert.notEqual(third.reviewId, second.reviewId);
  assert.equal(reviews.get(second.reviewId), undefined);
  assert.equal(reviews.size, 1);
});

test("the newest pending review answers the palette; URIs keep the path and name the side", () => {
  const reviews = new PendingReviews<number>();
  reviews.add("a", 1);
  reviews.add("b", 2);
  assert.equal(reviews.newest()?.toolCallId, "b");
  reviews.remove("b");
  assert.equal(reviews.newest()?.toolCallId, "a");
  reviews.remove("a");
  assert.equal(reviews.newest(), undefined);
  const uri = reviewUriParts("r-1", "/src/x y.ts", "before");
  assert.equal(uri.path, "/src/x y.ts");
  assert.deepEqual(parseReviewUri(uri), { reviewId: "r-1", side: "before" });
  assert.equal(parseReviewUri({ scheme: "file", query: uri.query }), undefined);
  assert.equal(parseReviewUri({ scheme: uri.scheme, query: "call=c&side=after" }), undefined, "the old form");
});
