import assert from "node:assert/strict";
import { readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { buildExportData } from "../../../src/core/export/build-export-data.js";
import { createEntriesSource } from "../../../src/core/export/entries-source.js";
import { exportSessionToHtml, writeSessionHtml } from "../../../src/core/export/export-session.js";
import { embedJson, inlineScript, renderExportHtml } from "../../../src/core/export/html-template.js";
import { shrinkEntry } from "../../../src/core/export/shrink-entry.js";
import { assistant, user } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

function tinySession(): { sm: SessionManager; ids: Record<string, string> } {
  const sm = SessionManager.inMemory("/ws");
  const ts = Date.now();
  const u1 = sm.appendMessage(user("first question", ts));
  const a1 = sm.appendMessage(
    assistant("", [{ id: "c1", name: "read", args: { path: "a.ts" } }], {
      provider: "openai",
      model: "gpt",
      timestamp: ts,
    }),
  );
  const r1 = sm.appendMessage({
    role: "toolResult",
    toolCallId: "c1",
    toolName: "read",
    content: [{ type: "text", text: "x".repeat(50_000) }],
    isError: false,
    timestamp: ts,
  });
  sm.branch(u1);
  const a2 = sm.appendMessage(assistant("other branch", [], { provider: "openai", model: "gpt", timestamp: ts }));
  sm.appendLabelChange(a2, "keep");
  return { sm, ids: { u1, a1, r1, a2 } };
}

test("export data holds every entry, labels, the leaf; giant tool output is cut with a note", () => {
  const { sm, ids } = tinySession();
  const data = buildExportData(sm, {}, new Date("2026-01-01T00:00:00Z"));
  assert.equal(data.leafId, ids.a2);
  assert.equal(data.nodes.length, sm.getEntries().length);
  assert.equal(data.nodes.find((n) => n.id === ids.a2)?.label, "keep");
  assert.equal(data.nodes.find((n) => n.id === ids.a1)?.toolCallsOnly, true);
  assert.equal(data.nodes.find((n) => n.id === ids.r1)?.kind, "toolResult");
  assert.equal(data.title, "first question");
  assert.equal(data.truncatedCount, 1);
  const r1 = data.entries.find((e) => e.id === ids.r1);
  const text = JSON.stringify(r1);
  assert.ok(text.length < 25_000, `tool result cut (${text.length})`);
  assert.match(text, /30,000 more characters not included/);
  // The session itself is untouched.
  assert.match(JSON.stringify(sm.getEntry(ids.r1)), /x{50000}/);
});

test("export data sums the token use and cost of the exported entries and names their models", () => {
  const sm = SessionManager.inMemory("/ws");
  const usage = (input: number, output: number, cacheRead: number, total: number) => ({
    input,
    output,
    cacheRead,
    cacheWrite: 10,
    totalTokens: input + output + cacheRead + 10,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total },
  });
  const u1 = sm.appendMessage(user("q", 1));
  sm.appendMessage(assistant("a", [], { provider: "openai", model: "gpt", usage: usage(1000, 200, 0, 0.25) }));
  sm.branch(u1);
  sm.appendMessage(assistant("b", [], { provider: "anthropic", model: "claude", usage: usage(500, 50, 4000, 0.5) }));
  const data = buildExportData(sm);
  assert.deepEqual(data.usage, {
    input: 1500,
    output: 250,
    cacheRead: 4000,
    cacheWrite: 20,
    cost: 0.75,
    models: ["openai/gpt", "anthropic/claude"],
  });
  const branch = buildExportData(sm, { branchOnly: true });
  assert.deepEqual(branch.usage?.models, ["anthropic/claude"], "a branch export counts its path only");
  assert.equal(branch.usage?.input, 500);
});

test("an archived branch is left out of the whole-session export", () => {
  const { sm, ids } = tinySession();
  sm.archiveBranch(ids.a1);
  const data = buildExportData(sm);
  const exported = new Set(data.nodes.map((n) => n.id));
  assert.equal(exported.has(ids.a1), false);
  assert.equal(exported.has(ids.r1), false, "everything below the archived entry goes too");
  assert.equal(exported.has(ids.a2), true);
  assert.equal(
    JSON.stringify(data.entries).includes("x".repeat(100)),
    false,
    "no text of the archived branch is in the page",
  );
});

test("branch export keeps only root→leaf", () => {
  const { sm, ids } = tinySession();
  const data = buildExportData(sm, { leafId: ids.r1, branchOnly: true, title: "Mine" });
  assert.deepEqual(
    data.nodes.map((n) => n.id),
    [ids.u1, ids.a1, ids.r1],
  );
  assert.equal(data.leafId, ids.r1);
  assert.equal(data.branchOnly, true);
  assert.equal(data.title, "Mine");
  assert.throws(() => buildExportData(sm, { leafId: "nope" }), /not in this session/);
});

test("embedded JSON and inline script cannot close their elements", () => {
  const evil = { t: "</script><script>alert(1)</script><!-- \u2028" };
  const json = embedJson(evil);
  assert.ok(!json.includes("<"));
  assert.deepEqual(JSON.parse(json), evil);
  const js = inlineScript('var a="</script><!--x";var r=/<\\/script>/;');
  assert.ok(!/<\/script/i.test(js) && !js.includes("<!--"));
  // The escaped script still means the same.
  const fn = new Function(js + "; return [a, r.source];") as () => [string, string];
  assert.deepEqual(fn(), ["</script><!--x", "<\\/script>"]);
  assert.doesNotMatch(inlineScript("var b=1;\n//# sourceMappingURL=export.js.map\n"), /sourceMappingURL/);
  const { sm } = tinySession();
  const html = renderExportHtml(buildExportData(sm, { title: '<b>"t"</b>' }), "void 0;", "NONCE");
  assert.match(html, /<title>&#60;b&#62;&#34;t&#34;&#60;\/b&#62;<\/title>/);
  assert.match(html, /Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;nonce-NONCE&#39;/);
  assert.equal(html.match(/<script/g)?.length, 2);
});

test("shrinkEntry keeps ids and signatures, drops oversized images", () => {
  const big = "A".repeat(2_100_000);
  const { entry, truncated } = shrinkEntry(
    {
      type: "message",
      id: "x".repeat(30),
      parentId: null,
      timestamp: "t",
      message: {
        role: "user",
        content: [
          { type: "image", data: big, mimeType: "image/png" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
        timestamp: 0,
      },
    },
    10,
  );
  assert.equal(truncated, 1);
  assert.equal(entry.id, "x".repeat(30));
  const s = JSON.stringify(entry);
  assert.match(s, /image of 2,100,000 base64 characters not included/);
  assert.match(s, /"data":"AAAA"/);
});

test("exportSessionToHtml finds the page script in assetsDir; writeSessionHtml writes the file", async () => {
  const dir = tempDir("agent-tree-export-").dir;
  try {
    const { sm } = tinySession();
    await assert.rejects(exportSessionToHtml(sm), /pageScript or assetsDir/);
    await assert.rejects(exportSessionToHtml(sm, { assetsDir: dir }), /export\.js is missing/);
    await mkdir(join(dir, "dist"));
    await writeFile(join(dir, "dist", "export.js"), "window.__page = 1;");
    const out = join(dir, "out.html");
    const bytes = await writeSessionHtml(sm, out, { assetsDir: join(dir, "dist") });
    const html = await readFile(out, "utf8");
    assert.equal(Buffer.byteLength(html), bytes);
    assert.match(html, /window\.__page = 1;/);
    // An entries source (e.g. a converted transcript) exports the same way.
    const src = createEntriesSource({ sessionId: "s", cwd: "/", entries: sm.getEntries(), leafId: sm.getLeafId() });
    const html2 = await exportSessionToHtml(src, { pageScript: "0" });
    assert.match(html2, /"sessionId":"s"/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
