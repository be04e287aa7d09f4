/** Shared set-up of the provider stream tests (each against its fake server through the real SDK). */
import assert from "node:assert/strict";
import type { AssistantMessage } from "../../../src/core/messages.js";
import type { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import type { ModelInfo, StreamEvent, StreamRequest } from "../../../src/core/providers/types.js";
import { user } from "../../util/session-builder.js";
import { testModels } from "../../util/test-models.js";

let shared: ModelRegistry | undefined;
/** The registry the helpers stream through (pi-ai's providers and the fake servers'), made once per file. */
export function registry(): ModelRegistry {
  shared ??= testModels();
  return shared;
}

/** One streamed completion through the registry. */
export function streamCompletion(req: StreamRequest): AsyncIterable<StreamEvent> {
  return registry().stream(req);
}

/** A whole completion through the registry (rejects with a ProviderError on failure). */
export function completeText(req: StreamRequest): Promise<AssistantMessage> {
  return registry().complete(req);
}

/** Run one streamed completion to its end; it must end with exactly one `done` or `error` event. */
export async function collect(req: StreamRequest): Promise<{ events: StreamEvent[]; final: AssistantMessage }> {
  const events: StreamEvent[] = [];
  for await (const e of streamCompletion(req)) events.push(e);
  const last = events[events.length - 1];
  assert.ok(last.type === "done" || last.type === "error", "stream must end with done or error");
  assert.equal(events.filter((e) => e.type === "done" || e.type === "error").length, 1);
  return { events, final: last.message };
}

/**
 * The requests of a suite: one user prompt to `model()` with `apiKey` and short retry pauses, plus `extra`.
 * `model` is read per request, as the suite's server only has its address once its tests run.
 */
export function requestsTo(
  model: () => ModelInfo,
  apiKey: string,
  prompt: string,
): (extra?: Partial<StreamRequest>) => StreamRequest {
  return (extra = {}) => ({ model: model(), apiKey, messages: [user(prompt)], retryBaseDelayMs: 5, ...extra });
}

/** Stream `req` and abort it through its own signal at the first text delta; returns every event seen. */
export async function abortAtFirstDelta(req: (extra: Partial<StreamRequest>) => StreamRequest): Promise<StreamEvent[]> {
  const ac = new AbortController();
  const events: StreamEvent[] = [];
  for await (const e of streamCompletion(req({ signal: ac.signal }))) {
    events.push(e);
    if (e.type === "text_delta") ac.abort();
  }
  return events;
}
