/** Tool-call ids travel between providers (a session may switch models); keep them valid for both. */

/** Anthropic requires ^[a-zA-Z0-9_-]{1,64}$; OpenAI accepts that too. Deterministic, so calls and results still pair. */
export function normalizeToolCallId(id: string): string {
  const clean = id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
  return clean || "call";
}
