import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionSearchHit } from "../../src/core/search/types.js";
import { branchName, searchHitRow, searchTitle } from "../../src/host/search/search-items.js";

const hit = (extra: Partial<SessionSearchHit> = {}): SessionSearchHit => ({
  path: "/h/.pi/agent/sessions/--w--/s.jsonl",
  source: "pi",
  sessionTitle: "How should the deploy script pick its target?",
  entryId: "c0000003",
  kind: "user",
  timestamp: "2026-01-05T09:00:03.000Z",
  snippet: { text: "Use the zanzibar mirror\nas the default target.", ranges: [[8, 16]] },
  branch: { active: false, firstUserMessageId: "c0000003", firstUserMessage: "Use the zanzibar mirror" },
  ...extra,
});

test("a result row: snippet with the kind's icon, session and source, branch and time", () => {
  const row = searchHitRow(hit());
  assert.equal(row.label, "$(account) Use the zanzibar mirror as the default target.");
  assert.equal(row.description, "How should the deploy script pick its target? · pi · --w--");
  assert.match(row.detail ?? "", /^\$\(git-branch\) “Use the zanzibar mirror” \(abandoned branch\) · .+$/);
  assert.equal(row.value.entryId, "c0000003");
});

test("the branch is named by its label first; the entry's own label and the workspace's source", () => {
  const row = searchHitRow(
    hit({
      source: "workspace",
      kind: "toolResult",
      label: "the fix",
      branch: { active: true, label: "plan B", firstUserMessage: "ignored" },
    }),
  );
  assert.match(row.label, /^\$\(output\) /);
  assert.equal(row.description, "How should the deploy script pick its target?");
  assert.match(row.detail ?? "", /^\$\(git-branch\) plan B · \$\(tag\) the fix · /);
  assert.equal(branchName(hit({ branch: { active: true } })), "(no user message)");
  assert.equal(searchHitRow(hit({ sessionTitle: "" })).description, "(untitled session) · pi · --w--");
});

test("the title says how the search is going", () => {
  const base = { query: "zanzibar", hits: 0, sessions: 0, running: false, truncated: false };
  assert.equal(searchTitle({ ...base, query: " " }), "Search Sessions");
  assert.equal(searchTitle({ ...base, running: true, hits: 3 }), "Search Sessions — 3 found so far…");
  assert.equal(searchTitle(base), "Search Sessions — no matches");
  assert.equal(searchTitle({ ...base, hits: 1, sessions: 1 }), "Search Sessions — 1 in 1 session");
  assert.equal(
    searchTitle({ ...base, hits: 500, sessions: 7, truncated: true }),
    "Search Sessions — 500 in 7 sessions (the first ones; add words to narrow)",
  );
});
