/**
 * The edit reviews waiting for an answer (src/host/review/edit-review.ts): at most one per tool call, each under an id
 * of its own that its documents' URIs carry (edit-review-uri.ts). A diff editor left from an earlier review —
 * answered, or replaced by a new diff after the file changed — names an id no longer here, so its Accept answers
 * nothing instead of the call's current review. Pure: no `vscode`.
 */
import { randomUUID } from "node:crypto";

/** One pending review. */
export interface PendingReview<T> {
  reviewId: string;
  toolCallId: string;
  value: T;
}

/** See the file comment. */
export class PendingReviews<T> {
  private readonly byId = new Map<string, PendingReview<T>>();
  private readonly byCall = new Map<string, string>();
  /** Review ids, newest first: the palette's Accept answers the newest review when no diff editor is active. */
  private readonly order: string[] = [];

  constructor(private readonly newId: () => string = randomUUID) {}

  /** Adds the review of `toolCallId` (replacing the one it had), under a new id. */
  add(toolCallId: string, value: T): PendingReview<T> {
    this.remove(toolCallId);
    const review = { reviewId: this.newId(), toolCallId, value };
    this.byId.set(review.reviewId, review);
    this.byCall.set(toolCallId, review.reviewId);
    this.order.unshift(review.reviewId);
    return review;
  }

  /** The pending review of a tool call. */
  ofCall(toolCallId: string): PendingReview<T> | undefined {
    const id = this.byCall.get(toolCallId);
    return id === undefined ? undefined : this.byId.get(id);
  }

  /** The review of this id while it is pending. */
  get(reviewId: string): PendingReview<T> | undefined {
    return this.byId.get(reviewId);
  }

  /** The newest pending review. */
  newest(): PendingReview<T> | undefined {
    return this.order.length > 0 ? this.byId.get(this.order[0]) : undefined;
  }

  /** Forgets the review of a tool call; returns it (undefined when there was none). */
  remove(toolCallId: string): PendingReview<T> | undefined {
    const review = this.ofCall(toolCallId);
    if (!review) return undefined;
    this.byId.delete(review.reviewId);
    this.byCall.delete(toolCallId);
    this.order.splice(this.order.indexOf(review.reviewId), 1);
    return review;
  }

  /** How many reviews wait. */
  get size(): number {
    return this.byId.size;
  }
}
