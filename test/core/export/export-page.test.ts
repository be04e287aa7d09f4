/**
 * The exported page in headless Chromium: navigation, filters, search, inertness of message HTML, no network,
 * narrow layout. Skipped (with a message) when /usr/bin/chromium is missing.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import { type Browser, type Page } from "playwright-core";
import { entryView } from "../../../src/core/entries/entry-view.js";
import { emptyUsage, type AssistantMessage } from "../../../src/core/messages.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { writeSessionHtml } from "../../../src/core/export/export-session.js";
import { openClaudeTranscript } from "../../../src/core/import/claude-session.js";
import { CHROMIUM_PATH, launchHeadless } from "../../util/chromium.js";
import { buildPageScript } from "./page-script.js";
import { readFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
import { tempDir } from "../../util/temp-dir.js";

const XSS_TEXT =
  'Branch two <img src=x onerror="window.__xss=1"> </script><script>window.__xss=2</script> ' +
  '[link](javascript:window.__xss=3) <a href="javascript:window.__xss=4">a</a>';

let browser: Browser | undefined;
let dir: string;
let pageScript: string;

function assistant(text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    provider: "openai",
    model: "gpt-test",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: Date.now(),
    ...extra,
  };
}

/** A session with two branches, a tool call, a branch summary, a compaction, a label and hostile text. */
function buildSession(): { sm: SessionManager; ids: Record<string, string> } {
  const sm = SessionManager.inMemory("/ws");
  return { sm, ids: fillSession(sm) };
}

/** {@link buildSession}'s entries, appended to `sm`; their ids. */
function fillSession(sm: SessionManager): Record<string, string> {
  const t = Date.now();
  const u1 = sm.appendMessage({ role: "user", content: "Plan the alpha release", timestamp: t });
  const a1 = sm.appendMessage(
    assistant("Here is **the plan**:\n\n- step one\n- step two", {
      content: [
        { type: "thinking", thinking: "thinking it over" },
        { type: "text", text: "Here is **the plan**:\n\n- step one\n- step two" },
      ],
    }),
  );
  const u2 = sm.appendMessage({ role: "user", content: "alpha beta gamma question", timestamp: t });
  const a2 = sm.appendMessage(
    assistant("", {
      content: [{ type: "toolCall", id: "call1", name: "bash", arguments: { command: "ls -la" } }],
      stopReason: "toolUse",
    }),
  );
  const r2 = sm.appendMessage({
    role: "toolResult",
    toolCallId: "call1",
    toolName: "bash",
    content: [{ type: "text", text: "TOOLOUTPUT <b>not bold</b>" }],
    isError: false,
    timestamp: t,
  });
  sm.branch(a1);
  const u3 = sm.appendMessage({ role: "user", content: XSS_TEXT, timestamp: t });
  const a4 = sm.appendMessage(assistant("BRANCHTEXT answer with `code`"));
  sm.appendLabelChange(a4, "important");
  const bs = sm.branchWithSummary(r2, "SUMTEXT summary of branch two");
  const c = sm.appendCompaction("COMPTEXT compacted", u2, 1234);
  const a3 = sm.appendMessage(assistant("Final answer LEAFTEXT\n\n```ts\nconst answer: number = 42; // done\n```"));
  return { u1, a1, u2, a2, r2, u3, a4, bs, c, a3 };
}

interface Watched {
  page: Page;
  errors: string[];
  external: string[];
  dialogs: string[];
}

async function open(file: string, width = 1200, hash = "", colorScheme: "light" | "dark" = "light"): Promise<Watched> {
  assert.ok(browser);
  const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme });
  const w: Watched = { page, errors: [], external: [], dialogs: [] };
  page.on("pageerror", (e) => w.errors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") w.errors.push(`console: ${m.text()}`);
  });
  page.on("dialog", (d) => {
    w.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.route("**/*", async (route) => {
    const url = route.request().url();
    if (url.startsWith("file:") || url.startsWith("data:")) await route.continue();
    else {
      w.external.push(url);
      await route.abort();
    }
  });
  await page.goto(pathToFileURL(file).href + hash);
  await page.waitForSelector("body[data-ready=true]");
  return w;
}

/** The test session exported to `dir/name` and opened (`width` wide, at the `hash` of its ids). */
async function openExport(
  name: string,
  width = 1200,
  hash: (ids: Record<string, string>) => string = () => "",
): Promise<ReturnType<typeof buildSession> & { w: Watched; page: Page }> {
  const { sm, ids } = buildSession();
  const file = join(dir, name);
  await writeSessionHtml(sm, file, { pageScript });
  const w = await open(file, width, hash(ids));
  return { sm, ids, w, page: w.page };
}

async function finish(w: Watched): Promise<void> {
  await w.page.close();
  assert.deepEqual(w.errors, [], "no script errors");
  assert.deepEqual(w.external, [], "no network requests");
  assert.deepEqual(w.dialogs, [], "no dialogs");
}

const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** axe's violations in the page, one line each: rule, impact and the first offending elements. */
async function violations(page: Page): Promise<string[]> {
  // Evaluated, not a script tag: the page's CSP admits only its own script.
  await page.evaluate(`${AXE};0`);
  return (await page.evaluate(`(async () => {
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => v.id + " (" + v.impact + "): " + v.nodes.slice(0, 2).map((n) => n.html.slice(0, 120)).join(" | "));
  })()`)) as string[];
}

const skip = existsSync(CHROMIUM_PATH) ? false : `${CHROMIUM_PATH} is not installed`;

before(async () => {
  if (skip) return;
  dir = tempDir("agent-tree-export-page-").dir;
  pageScript = await buildPageScript();
  browser = await launchHeadless();
});
after(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("clicking a node shows its path; back to the session leaf", { skip }, async () => {
  const { sm, ids, w, page } = await openExport("session.html");
  const msgs = page.locator("#messages .msg");
  assert.equal(await msgs.count(), sm.getPath(ids.a3).length);
  assert.match((await page.locator("#messages .msg.target").textContent()) ?? "", /LEAFTEXT/);
  const all = (await page.locator("#messages").textContent()) ?? "";
  assert.match(all, /SUMTEXT/);
  assert.match(all, /COMPTEXT/);
  assert.match(all, /TOOLOUTPUT <b>not bold<\/b>/, "tool output is text");
  assert.equal(await page.locator("#messages strong").first().textContent(), "the plan", "markdown rendered");
  assert.equal(await page.locator(`#tree .row[data-id="${ids.a3}"] .leaf-mark`).count(), 1);
  // The whole tree's messages counted as pi's page counts them.
  assert.equal(
    await page.locator("#message-counts").textContent(),
    "Messages: 3 user, 4 assistant, 1 tool result, 1 compaction, 1 branch summary · Tool calls: 1",
  );
  // Headings are the entry view's titles (src/core/entries), the same every view shows.
  const headings = await page.locator("#messages .msg > .head .role").allTextContents();
  const titles = sm.getPath(ids.a3).map((e) => entryView(e).title);
  assert.deepEqual(headings, titles);
  assert.ok(headings.includes("Tool result") && headings.includes("Compaction summary"), headings.join(", "));
  assert.match(
    (await page.locator("#messages details.tool-call summary").first().textContent()) ?? "",
    /→ bash ls -la/,
  );

  await page.click(`#tree .row[data-id="${ids.a4}"]`);
  assert.equal(await msgs.count(), 4);
  const branch = (await page.locator("#messages").textContent()) ?? "";
  assert.match(branch, /BRANCHTEXT/);
  assert.doesNotMatch(branch, /LEAFTEXT/);
  assert.equal(await page.locator(`#tree .row[data-id="${ids.a4}"]`).getAttribute("aria-selected"), "true");
  assert.match((await page.locator("#messages .msg.target .label").textContent()) ?? "", /important/);

  await page.click("#back-to-leaf");
  assert.match((await page.locator("#messages .msg.target").textContent()) ?? "", /LEAFTEXT/);
  assert.equal(await msgs.count(), sm.getPath(ids.a3).length);

  // Keyboard: the row above the leaf is the compaction.
  await page.focus("#tree");
  await page.keyboard.press("ArrowUp");
  assert.match((await page.locator("#messages .msg.target").textContent()) ?? "", /COMPTEXT/);
  await page.keyboard.press("ArrowDown");
  assert.match((await page.locator("#messages .msg.target").textContent()) ?? "", /LEAFTEXT/);

  // Tool calls and results are collapsible.
  const details = page.locator("#messages details.tool-call").first();
  assert.equal(await details.getAttribute("open"), null);
  await details.locator("summary").click();
  assert.equal(await details.getAttribute("open"), "");
  assert.match((await details.textContent()) ?? "", /ls -la/);
  await finish(w);
});

test("filters and search behave like the sidebar", { skip }, async () => {
  const { sm, ids, w, page } = await openExport("filters.html");
  const rows = page.locator("#tree .row");
  // Default hides labels, leaf markers and the tool-call-only assistant turn.
  const defaultCount = await rows.count();
  assert.equal(await page.locator(`#tree .row[data-id="${ids.a2}"]`).count(), 0);
  assert.equal(await page.locator(`#tree .row.kind-label`).count(), 0);

  // Branches fold and unfold from their twisty without changing the selection.
  const a4Row = page.locator(`#tree .row[data-id="${ids.a4}"]`);
  assert.equal(await a4Row.count(), 1);
  await page.click(`#tree .row[data-id="${ids.u3}"] .twisty`);
  assert.equal(await a4Row.count(), 0);
  assert.equal(await page.locator(`#tree .row[data-id="${ids.u3}"]`).getAttribute("aria-expanded"), "false");
  assert.match((await page.locator("#messages .msg.target").textContent()) ?? "", /LEAFTEXT/);
  await page.click(`#tree .row[data-id="${ids.u3}"] .twisty`);
  assert.equal(await a4Row.count(), 1);

  await page.selectOption("#filter", "user-only");
  assert.equal(await rows.count(), 3);
  assert.equal(await page.locator("#tree .row.kind-user").count(), 3);

  await page.selectOption("#filter", "labeled-only");
  assert.equal(await rows.count(), 1);
  assert.equal(await rows.first().getAttribute("data-id"), ids.a4);

  await page.selectOption("#filter", "no-tools");
  assert.equal(await page.locator("#tree .row.kind-toolResult").count(), 0);
  assert.equal(await rows.count(), defaultCount - 1);

  await page.selectOption("#filter", "all");
  assert.equal(await rows.count(), sm.getEntries().length);

  await page.selectOption("#filter", "default");
  await page.fill("#search", "alpha beta");
  const hits = page.locator("#tree .row:not(.context)");
  assert.equal(await hits.count(), 1, "every token must match");
  assert.equal(await hits.first().getAttribute("data-id"), ids.u2);
  assert.equal(await page.locator(`#tree .row.context[data-id="${ids.u1}"]`).count(), 1, "ancestors kept");
  assert.match((await page.locator("#tree-status").textContent()) ?? "", /1 of \d+ entries shown/);
  await page.fill("#search", "important");
  assert.equal(await page.locator("#tree .row:not(.context)").first().getAttribute("data-id"), ids.a4);
  await page.fill("#search", "");
  assert.equal(await rows.count(), defaultCount);
  await finish(w);
});

test("HTML in messages stays inert", { skip }, async () => {
  // A link to an entry (#id) opens its path.
  const { w, page } = await openExport("xss.html", 1200, (ids) => `#${ids.a4}`);
  assert.match((await page.locator("#messages .msg.target").textContent()) ?? "", /BRANCHTEXT/);
  const text = (await page.locator("#messages").textContent()) ?? "";
  assert.ok(text.includes('<img src=x onerror="window.__xss=1">'), "shown as text");
  assert.ok(text.includes("</script><script>window.__xss=2</script>"), "shown as text");
  assert.equal(await page.locator("img").count(), 0);
  assert.equal(await page.locator("script").count(), 2);
  assert.equal(await page.locator('a[href^="javascript"]').count(), 0);
  assert.equal(await page.evaluate("typeof window.__xss"), "undefined");
  // The tree's previews are text too.
  await page.fill("#search", "onerror");
  assert.equal(await page.locator("#tree img").count(), 0);
  assert.equal(await page.evaluate("typeof window.__xss"), "undefined");
  await finish(w);
});

test("a narrow screen collapses the sidebar behind a toggle", { skip }, async () => {
  const { ids, w, page } = await openExport("narrow.html", 480);
  assert.equal(await page.locator("#sidebar").isVisible(), false);
  // The ☰ button is named in words (a screen reader would say the symbol) and says whether the tree shows.
  const toggle = page.getByRole("button", { name: "Session tree", exact: true });
  assert.equal(await toggle.getAttribute("aria-expanded"), "false");
  assert.equal(await page.locator("#messages .msg.target").isVisible(), true);
  await page.click("#toggle-sidebar");
  assert.equal(await page.locator("#sidebar").isVisible(), true);
  await page.click(`#tree .row[data-id="${ids.u3}"]`);
  assert.equal(await page.locator("#sidebar").isVisible(), false, "choosing a node closes the overlay");
  assert.equal(await page.locator("#messages .msg").count(), 3);
  await page.setViewportSize({ width: 1200, height: 800 });
  await page.waitForSelector("#sidebar", { state: "visible" });
  await finish(w);
});

test("a Claude Code transcript exports with its sidechain and branch-only export", { skip }, async () => {
  const sm = await openClaudeTranscript(join(__dirname, "../../fixtures/claude/sidechain-task.jsonl"), {
    tempDir: join(dir, "views"),
  });
  try {
    const file = join(dir, "claude.html");
    await writeSessionHtml(sm, file, { pageScript });
    const w = await open(file);
    assert.equal(await w.page.locator("#tree .row .label", { hasText: "sidechain: Search env var usage" }).count(), 1);
    assert.match((await w.page.locator("#messages").textContent()) ?? "", /Request interrupted/);
    await finish(w);

    const branchFile = join(dir, "branch.html");
    await writeSessionHtml(sm, branchFile, { pageScript, branchOnly: true });
    const b = await open(branchFile);
    await b.page.selectOption("#filter", "all");
    assert.equal(await b.page.locator("#tree .row").count(), await b.page.locator("#messages .msg").count());
    assert.equal(await b.page.locator("#tree .row .label", { hasText: "sidechain" }).count(), 0);
    await finish(b);
  } finally {
    await sm.close();
  }
});

test("long paths render their end first and earlier entries on request", { skip }, async () => {
  const sm = SessionManager.inMemory("/ws");
  for (let i = 0; i < 450; i++) {
    if (i % 2 === 0) sm.appendMessage({ role: "user", content: `question ${i}`, timestamp: i });
    else sm.appendMessage(assistant(`answer ${i}`));
  }
  const file = join(dir, "long.html");
  await writeSessionHtml(sm, file, { pageScript });
  const w = await open(file);
  const { page } = w;
  const msgs = page.locator("#messages .msg");
  assert.equal(await msgs.count(), 200);
  assert.match((await msgs.first().textContent()) ?? "", /question 250/);
  await page.click("#show-earlier");
  assert.equal(await msgs.count(), 400);
  await page.click("#show-earlier");
  assert.equal(await msgs.count(), 450);
  assert.match((await msgs.first().textContent()) ?? "", /question 0/);
  assert.equal(await page.locator("#show-earlier").isVisible(), false);
  await finish(w);
});

test("a page without valid data says so instead of failing", { skip }, async () => {
  const file = join(dir, "broken.html");
  await writeFile(
    file,
    `<!doctype html><div id="app"></div><script type="application/json" id="agent-tree-data">{"format":"x"}</script><script>${pageScript}</script>`,
  );
  assert.ok(browser);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  assert.match((await page.locator("#app").textContent()) ?? "", /not an Agent Tree export/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("a message's attachments fold under their names and its images show", { skip }, async () => {
  const sm = SessionManager.inMemory("/ws");
  const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
  const id = sm.appendMessage({
    role: "user",
    content: [
      { type: "text", text: "look at @a.md" },
      { type: "text", text: '<file name="/ws/a.md">\n# HEADING **not bold**\n</file>' },
      { type: "image", data: png, mimeType: "image/png" },
    ],
    timestamp: Date.now(),
  });
  const file = join(dir, "attachments.html");
  await writeSessionHtml(sm, file, { pageScript });
  const w = await open(file, 1200, `#${id}`);
  const { page } = w;
  const details = page.locator("#messages details.attachment");
  assert.equal(await details.locator("summary").textContent(), "file /ws/a.md");
  assert.equal(await details.getAttribute("open"), null, "folded");
  assert.equal(await details.locator("pre").textContent(), "# HEADING **not bold**", "plain text, not markdown");
  assert.equal(await page.locator("#messages img.attached").count(), 1);
  await finish(w);
});

test(
  "remote images and long lines: nothing is fetched, text stays text, the page does not scroll sideways",
  { skip },
  async () => {
    const sm = SessionManager.inMemory("/ws");
    const word = "W".repeat(6000);
    const id = sm.appendMessage({
      role: "user",
      content: `See ![diagram](https://example.com/d.png) <img src="https://example.com/e.png"> [js](javascript:void(0)) ${word}`,
      timestamp: Date.now(),
    });
    const a = sm.appendMessage(
      assistant("```\n" + "c".repeat(5000) + "\n```\n\n| a | b |\n|---|---|\n| " + word + " | 2 |"),
    );
    const file = join(dir, "remote.html");
    await writeSessionHtml(sm, file, { pageScript });
    const w = await open(file, 1000, `#${a}`);
    const { page } = w;
    const text = (await page.locator(`#messages .msg[data-id="${id}"]`).textContent()) ?? "";
    assert.ok(text.includes("[image: diagram]"), "a markdown image is named, not loaded");
    assert.ok(text.includes('<img src="https://example.com/e.png">'), "HTML is shown as text");
    assert.equal(await page.locator("#messages img, #messages a[href^=javascript]").count(), 0);
    const widths = (await page.evaluate(`[document.documentElement.scrollWidth, innerWidth,
    ...[...document.querySelectorAll("#messages .msg")].map((m) => m.scrollWidth - m.clientWidth)]`)) as number[];
    assert.ok(widths[0] <= widths[1], `the page is ${widths[0]} px wide in a ${widths[1]} px window`);
    assert.deepEqual(widths.slice(2), [0, 0], "long lines wrap inside their message");
    assert.deepEqual(
      await violations(page),
      [],
      "a path without folds: the message pane is still reachable by keyboard",
    );
    await finish(w);
  },
);

test("axe finds nothing in the page, light and dark", { skip }, async () => {
  for (const scheme of ["light", "dark"] as const) {
    const { sm, ids } = buildSession();
    const file = join(dir, `axe-${scheme}.html`);
    await writeSessionHtml(sm, file, { pageScript });
    const w = await open(file, 1200, "", scheme);
    // The leaf's code block, highlighted: its token colours are checked for contrast too.
    await w.page.waitForSelector("#messages .hljs-keyword");
    assert.deepEqual(await violations(w.page), [], `${scheme}: the leaf selected`);
    await w.page.click(`#tree .row[data-id="${ids.a4}"]`);
    await w.page.locator("#messages details").first().locator("summary").click();
    assert.deepEqual(await violations(w.page), [], `${scheme}: a labelled entry selected, a fold open`);
    // Every fold open (the buttons pressed), the tool arguments highlighted as JSON.
    await w.page.click(`#tree .row[data-id="${ids.a3}"]`);
    await w.page.locator("#content").focus();
    await w.page.keyboard.press("t");
    await w.page.keyboard.press("o");
    await w.page.waitForSelector("#messages details.tool-call code.hljs");
    assert.deepEqual(await violations(w.page), [], `${scheme}: all folds open`);
    await finish(w);
  }
});

test("the tree names its selected row to screen readers as the keyboard moves", { skip }, async () => {
  const { ids, w, page } = await openExport("active.html");
  const active = async (): Promise<string | null> => {
    const ref = await page.getAttribute("#tree", "aria-activedescendant");
    return ref === null ? null : page.getAttribute(`#${ref}`, "data-id");
  };
  assert.equal(await active(), ids.a3, "the leaf at the start");
  await page.focus("#tree");
  await page.keyboard.press("Home");
  assert.equal(await active(), ids.u1);
  await page.keyboard.press("ArrowDown");
  assert.equal(await active(), ids.a1);
  assert.equal(await page.locator("#tree [aria-selected=true]").count(), 1);
  // Only the rows in view are in the page: each says where it stands in its sibling set (as in the sidebar, a
  // branch's start and its chain are one set: the root's chain is the first message and the reply it branches at).
  const place = (id: string) =>
    page.locator(`#tree .row[data-id="${id}"]`).evaluate((el) => [el.ariaPosInSet, el.ariaSetSize].join(" of "));
  assert.equal(await place(ids.u1), "1 of 2");
  assert.equal(await place(ids.a1), "2 of 2");
  const places = await page
    .locator("#tree .row")
    .evaluateAll((els) => els.map((el) => [Number(el.ariaPosInSet), Number(el.ariaSetSize)]));
  assert.ok(places.length > 2 && places.every(([p, n]) => p >= 1 && p <= n), JSON.stringify(places));
  await finish(w);
});

test("printing shows the whole path, folds open, without the sidebar and the buttons", { skip }, async () => {
  const { w, page } = await openExport("print.html");
  await page.emulateMedia({ media: "print" });
  const shown = (await page.evaluate(`["sidebar", "toggle-sidebar", "back-to-leaf", "controls"].map(
    (id) => getComputedStyle(document.getElementById(id)).display)`)) as string[];
  assert.ok(
    shown.slice(0, 3).every((d) => d === "none"),
    shown.join(", "),
  );
  const box = (await page.evaluate(`(() => { const c = document.getElementById("content");
    return [c.scrollHeight, c.clientHeight, document.documentElement.scrollHeight]; })()`)) as number[];
  assert.ok(box[0] <= box[1], `the path is cut: ${box[0]} px in a ${box[1]} px box`);
  assert.ok(box[2] >= box[0], "the document grows with the path");
  // Folds print open: the stylesheet opens them on paper, the page script before printing (other browsers).
  const shownBodies = () =>
    page.locator("#messages details > .body").evaluateAll((els) => els.filter((e) => e.checkVisibility()).length);
  const folds = await page.locator("#messages details").count();
  assert.ok(folds > 2, `${folds} folds`);
  assert.equal(await page.locator("#messages details[open]").count(), 0, "folded on the page");
  assert.equal(await shownBodies(), folds, "every fold's body on paper");
  await page.emulateMedia({ media: "screen" });
  assert.equal(await shownBodies(), 0, "folded again on screen");
  await page.evaluate(`window.dispatchEvent(new Event("beforeprint"))`);
  assert.equal(await page.locator("#messages details[open]").count(), folds);
  assert.equal(await page.locator("#messages code[data-lang]").count(), 0, "every block highlighted");
  await page.evaluate(`window.dispatchEvent(new Event("afterprint"))`);
  assert.equal(await page.locator("#messages details[open]").count(), 0, "closed as they were");
  await finish(w);
});

test("the page names the session's models, tokens and cost, as pi's export does", { skip }, async () => {
  const sm = SessionManager.inMemory("/ws");
  sm.appendMessage({ role: "user", content: "q", timestamp: 1 });
  const usage = { ...emptyUsage(), input: 12_000, output: 3400, cacheRead: 1_500_000 };
  usage.cost = { ...usage.cost, total: 0.1234 };
  sm.appendMessage(assistant("a", { usage }));
  const file = join(dir, "usage.html");
  await writeSessionHtml(sm, file, { pageScript });
  const w = await open(file);
  const info = (await w.page.locator("#session-info").textContent()) ?? "";
  assert.match(info, /openai\/gpt-test/);
  assert.match(info, /12k in/);
  assert.match(info, /3k out/);
  assert.match(info, /1\.5M cache read/);
  assert.match(info, /\$0\.1234/);
  assert.equal(await w.page.locator("#message-counts").textContent(), "Messages: 1 user, 1 assistant · Tool calls: 0");
  await finish(w);
});

test("code blocks and files read, written and edited are highlighted by language, as text", { skip }, async () => {
  const sm = SessionManager.inMemory("/ws");
  const t = Date.now();
  sm.appendMessage({ role: "user", content: "show me", timestamp: t });
  const hostile = 'x = "<img src=x onerror=window.__xss=5>"';
  sm.appendMessage(
    assistant("Fenced:\n\n```python\ndef greet():\n    return 1\n```\n\nPlain:\n\n```\nno language here\n```"),
  );
  sm.appendMessage(
    assistant("", {
      content: [
        { type: "toolCall", id: "r1", name: "read", arguments: { path: "src/app.py" } },
        { type: "toolCall", id: "w1", name: "write", arguments: { path: "lib/main.rs", content: "fn main() {}\n" } },
        {
          type: "toolCall",
          id: "e1",
          name: "edit",
          arguments: { path: "a.ts", oldText: "let a = 1;", newText: "const a = 2;" },
        },
      ],
      stopReason: "toolUse",
    }),
  );
  const result = (id: string, name: string, text: string) =>
    sm.appendMessage({
      role: "toolResult",
      toolCallId: id,
      toolName: name,
      content: [{ type: "text", text }],
      isError: false,
      timestamp: t,
    });
  result("r1", "read", `import os\n${hostile}\nclass Thing:\n    pass`);
  result("w1", "write", "Wrote lib/main.rs");
  result("e1", "edit", "Edited a.ts");
  const file = join(dir, "highlight.html");
  await writeSessionHtml(sm, file, { pageScript });
  const w = await open(file);
  const { page } = w;
  const tokens = (scope: string, cls: string) => page.locator(`${scope} .hljs-${cls}`).allTextContents();
  await page.waitForSelector("#messages .md pre code.hljs");
  assert.deepEqual(await tokens("#messages .md", "keyword"), ["def", "return"], "the python fence");
  assert.equal(await page.locator("#messages .md pre code").nth(1).locator("span").count(), 0, "no language: plain");
  // Folded blocks are highlighted when they are opened (not before: the page opens as fast as without).
  const readOut = page.locator("#messages .msg.kind-toolResult").first().locator("details");
  assert.equal(await readOut.locator("span").count(), 0, "not highlighted while folded");
  await readOut.locator("summary").click();
  await page.waitForSelector("#messages .msg.kind-toolResult details code.hljs");
  const read = (await readOut.locator("code").textContent()) ?? "";
  assert.ok(read.includes(hostile), "the text is unchanged");
  assert.ok((await tokens("#messages .msg.kind-toolResult", "keyword")).includes("import"), "the .py file read");
  assert.equal(await page.locator("#messages img").count(), 0, "HTML in code stays text");
  assert.equal(await page.evaluate("window.__xss"), undefined);
  const calls = page.locator("#messages details.tool-call");
  for (let i = 0; i < 3; i++) await calls.nth(i).locator("summary").click();
  await page.waitForFunction(() => document.querySelectorAll("details.tool-call code[data-lang]").length === 0);
  assert.deepEqual(await calls.nth(1).locator(".hljs-keyword").allTextContents(), ["fn"], "the .rs file written");
  assert.deepEqual(await calls.nth(2).locator(".hljs-keyword").allTextContents(), ["let", "const"], "the .ts edit");
  assert.deepEqual(await calls.nth(2).locator(".arg-name").allTextContents(), ["oldText", "newText"]);
  assert.ok((await calls.nth(0).locator(".hljs-attr").count()) > 0, "other arguments as JSON");
  await finish(w);
});

test(
  "each entry's button copies a link to it; the link opens its path, in this page or a new one",
  { skip },
  async () => {
    const { ids, w, page } = await openExport("links.html");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const u2 = page.locator(`#messages .msg[data-id="${ids.u2}"]`);
    await u2.locator("button.copy-link").click();
    await page.waitForFunction(() => document.querySelector("[aria-live]")?.textContent === "Link copied");
    const link = (await page.evaluate("navigator.clipboard.readText()")) as string;
    assert.equal(link, `${page.url().split("#")[0]}#${encodeURIComponent(ids.u2)}`);
    assert.equal(
      await page.locator("#messages button.copy-link").count(),
      await page.locator("#messages .msg").count(),
    );

    // Opened: the path to that entry, the entry marked and its row selected, as a click on the row does.
    assert.equal(link.split("#")[0], pathToFileURL(join(dir, "links.html")).href);
    const o = await open(join(dir, "links.html"), 1200, link.slice(link.indexOf("#")));
    assert.equal(await o.page.locator("#messages .msg.target").getAttribute("data-id"), ids.u2);
    assert.equal(await o.page.locator(`#tree .row[data-id="${ids.u2}"]`).getAttribute("aria-selected"), "true");
    assert.equal(await o.page.locator("#messages .msg").count(), 3, "root → u2");
    await finish(o);

    // Followed inside the open page (a link in a message, the address bar): the page goes there.
    await page.evaluate(`location.hash = ${JSON.stringify("#" + encodeURIComponent(ids.a4))}`);
    await page.waitForFunction(
      (id) => document.querySelector("#messages .msg.target")?.getAttribute("data-id") === id,
      ids.a4,
    );
    assert.match((await page.locator("#messages .msg.target").textContent()) ?? "", /BRANCHTEXT/);
    assert.equal(await page.locator(`#tree .row[data-id="${ids.a4}"]`).getAttribute("aria-selected"), "true");
    await finish(w);
  },
);

test("the system prompt and the tools in force at the entry shown sit folded above its path", { skip }, async () => {
  const sm = SessionManager.inMemory("/ws");
  const t = Date.now();
  sm.appendMessage({
    role: "system",
    content: "You are PROMPTTEXT.",
    sections: { rules: "RULESTEXT <b>not bold</b>" },
    toolsAdded: [
      {
        name: "read",
        description: "Read a file",
        parameters: {
          type: "object",
          properties: { path: { type: "string", description: "File path" } },
          required: ["path"],
        },
      },
      { name: "bash", description: "Run a command" },
    ],
    timestamp: t,
  });
  const u1 = sm.appendMessage({ role: "user", content: "first", timestamp: t });
  sm.appendMessage({
    role: "system",
    content: "",
    sections: { rules: null },
    toolsRemoved: [{ name: "bash" }],
    timestamp: t,
  });
  sm.appendMessage({ role: "user", content: "second", timestamp: t });
  const file = join(dir, "system.html");
  // The agent's current prompt is not shown where the session records one.
  await writeSessionHtml(sm, file, { pageScript, currentSystemPrompt: "CURRENTPROMPT" });
  const w = await open(file);
  const { page } = w;
  const prompt = page.locator("#system details.system-prompt");
  const tools = page.locator("#system details.tool-list");
  assert.equal(await prompt.getAttribute("open"), null, "folded");
  assert.equal(await tools.getAttribute("open"), null, "folded");
  // At the leaf: the update removed the rules section and bash.
  assert.match((await prompt.locator("summary").textContent()) ?? "", /System prompt \(1 line\)/);
  assert.equal(await prompt.locator("pre").textContent(), "You are PROMPTTEXT.");
  assert.equal(await tools.locator("summary").textContent(), "Tools (1): read");
  await tools.locator("summary").click();
  assert.equal(
    await tools.locator("li.tool").first().textContent(),
    "read — Read a filepath string, required — File path",
  );

  // Before the update: the rules (as text) and both tools.
  await page.click(`#tree .row[data-id="${u1}"]`);
  await page.waitForFunction(
    (id) => document.querySelector("#messages .msg.target")?.getAttribute("data-id") === id,
    u1,
  );
  assert.equal(await prompt.locator("pre").textContent(), "You are PROMPTTEXT.\n\nRULESTEXT <b>not bold</b>");
  assert.equal(await page.locator("#system b").count(), 0, "the prompt is text");
  assert.equal(await tools.locator("summary").textContent(), "Tools (2): read, bash");
  await prompt.locator("summary").click();
  assert.deepEqual(await violations(page), [], "both open");
  assert.equal(await page.getByText("CURRENTPROMPT").count(), 0);
  await finish(w);

  // A session that records no prompt shows none, unless the export was given the agent's current one (as pi's
  // export falls back to its agent's prompt): then that one, said to be so, as text.
  const plain = join(dir, "no-system.html");
  await writeSessionHtml(buildSession().sm, plain, { pageScript });
  const w2 = await open(plain);
  assert.equal(await w2.page.locator("#system > *").count(), 0);
  await finish(w2);
  const current = join(dir, "current-system.html");
  await writeSessionHtml(buildSession().sm, current, { pageScript, currentSystemPrompt: "Now <b>CURRENT</b>\nline 2" });
  const w3 = await open(current);
  const fallback = w3.page.locator("#system details.system-prompt");
  assert.equal(
    await fallback.locator("summary").textContent(),
    "System prompt at the time of the export — this session records none (2 lines)",
  );
  assert.equal(await fallback.locator("pre").textContent(), "Now <b>CURRENT</b>\nline 2");
  assert.equal(await w3.page.locator("#system b").count(), 0, "the prompt is text");
  await finish(w3);
});

test(
  "T and O open and close all thinking and all tool folds, / goes to the search; typing there is no shortcut",
  { skip },
  async () => {
    const { ids, w, page } = await openExport("keys.html");
    const openCount = (sel: string) =>
      page.locator(`#messages ${sel}`).evaluateAll((els) => els.filter((d) => (d as HTMLDetailsElement).open).length);
    const tools = "details.tool-call, details.output";
    assert.match((await page.locator("#keys-help").textContent()) ?? "", /T thinking · O tool calls and output/);
    const thinking = await page.locator("#messages details.thinking").count();
    const toolFolds = await page.locator(`#messages ${tools}`).count();
    assert.ok(thinking > 0 && toolFolds > 1, `${thinking} thinking, ${toolFolds} tool folds`);
    assert.equal(await openCount("details"), 0);
    await page.locator("#content").focus();
    await page.keyboard.press("t");
    assert.equal(await openCount("details.thinking"), thinking);
    assert.equal(await openCount(tools), 0);
    assert.equal(await page.getAttribute("button[title*='(T)']", "aria-pressed"), "true");
    await page.keyboard.press("o");
    assert.equal(await openCount(tools), toolFolds);
    // Another path keeps the folds as the keys left them.
    await page.click(`#tree .row[data-id="${ids.a1}"]`);
    assert.equal(await openCount("details.thinking"), 1);
    await page.click(`#tree .row[data-id="${ids.a3}"]`);
    assert.equal(await openCount(tools), toolFolds);
    await page.locator("#content").focus();
    await page.keyboard.press("o");
    assert.equal(await openCount(tools), 0);
    assert.equal(await page.getAttribute("button[title*='(O)']", "aria-pressed"), "false");
    // The search: "/" focuses it; letters typed there are text, not shortcuts; Escape empties it.
    await page.keyboard.press("/");
    assert.equal(await page.evaluate("document.activeElement.id"), "search");
    await page.keyboard.type("to");
    assert.equal(await page.inputValue("#search"), "to");
    assert.equal(await openCount(tools), 0, "o typed into the search");
    assert.equal(await openCount("details.thinking"), thinking, "t typed into the search");
    await page.keyboard.press("Escape");
    assert.equal(await page.inputValue("#search"), "");
    // The button does what the key does.
    await page.click("button[title*='(T)']");
    assert.equal(await openCount("details.thinking"), 0);
    await finish(w);
  },
);

test(
  "messages hooks kept out of the chat are hidden until H (or its button) shows them, as on pi's page",
  { skip },
  async () => {
    const sm = SessionManager.inMemory("/ws");
    sm.appendMessage({ role: "user", content: "visible question", timestamp: Date.now() });
    const hiddenId = sm.appendCustomMessageEntry("memo", "HIDDENMEMO for the model only", false);
    const shownId = sm.appendCustomMessageEntry("note", "SHOWNNOTE for everyone", true);
    sm.appendMessage(assistant("the answer"));
    const file = join(dir, "hidden.html");
    await writeSessionHtml(sm, file, { pageScript });
    const w = await open(file);
    const { page } = w;
    const visible = (id: string) => page.locator(`#messages .msg[data-id="${id}"]`).isVisible();
    assert.equal(await visible(shownId), true);
    assert.equal(await visible(hiddenId), false, "hidden from the chat, hidden on the page");
    assert.match((await page.locator("#path-header").textContent()) ?? "", /1 hidden from the chat: H shows/);
    assert.match(
      (await page.locator("#message-counts").textContent()) ?? "",
      /^Messages: 1 user, 1 assistant, 2 hook messages/,
    );
    assert.match((await page.locator("#keys-help").textContent()) ?? "", /H hidden messages/);
    await page.locator("#content").focus();
    await page.keyboard.press("h");
    assert.equal(await visible(hiddenId), true);
    assert.equal(await page.getAttribute("button[title*='(H)']", "aria-pressed"), "true");
    await page.click("button[title*='(H)']");
    assert.equal(await visible(hiddenId), false);
    // Typed into the search, h is a letter.
    await page.keyboard.press("/");
    await page.keyboard.type("h");
    assert.equal(await visible(hiddenId), false);
    // A link to the hidden message itself shows it.
    await page.evaluate(`location.hash = "#${hiddenId}"`);
    await page.waitForSelector(`#messages .msg.target[data-id="${hiddenId}"]`, { state: "visible" });
    assert.equal(await page.getAttribute("button[title*='(H)']", "aria-pressed"), "true");
    await finish(w);
  },
);

test("the bar beside the tree resizes it, by pointer or keys, and the width is kept", { skip }, async () => {
  const { w, page } = await openExport("resize.html");
  const width = () => page.locator("#sidebar").evaluate((el) => Math.round(el.getBoundingClientRect().width));
  const bar = page.locator("#sidebar-resizer");
  assert.equal(await width(), 360);
  const box = await bar.boundingBox();
  assert.ok(box);
  await page.mouse.move(box.x + box.width / 2, box.y + 100);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 100, box.y + 100, { steps: 4 });
  await page.mouse.up();
  const dragged = await width();
  assert.ok(Math.abs(dragged - 460) <= 4, `dragged to ${dragged}`);
  await bar.focus();
  await page.keyboard.press("ArrowLeft");
  assert.equal(await width(), dragged - 20);
  assert.equal(await bar.getAttribute("aria-valuenow"), String(dragged - 20));
  await page.reload();
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(await width(), dragged - 20, "kept");
  // Never wider than half the window.
  await page.locator("#sidebar-resizer").focus();
  for (let i = 0; i < 20; i++) await page.keyboard.press("ArrowRight");
  assert.equal(await width(), 600);
  await finish(w);
});

test("an edit's recorded diff shows coloured, with its context, as text; axe light and dark", { skip }, async () => {
  const sm = SessionManager.inMemory("/ws");
  const t = Date.now();
  sm.appendMessage({ role: "user", content: "fix it", timestamp: t });
  sm.appendMessage(
    assistant("", {
      content: [
        {
          type: "toolCall",
          id: "e1",
          name: "edit",
          arguments: { path: "a.ts", oldText: "let a = 1;", newText: "const a = 2;" },
        },
      ],
      stopReason: "toolUse",
    }),
  );
  // pi's edit tool records this shape (edit-diff.js): context rows start with a space.
  const diff = [
    "  1 // <img src=x onerror=window.__xss=6>",
    "- 2 let a = 1;",
    "+ 2 const a = 2;",
    "  3 export { a };",
  ].join("\n");
  const id = sm.appendMessage({
    role: "toolResult",
    toolCallId: "e1",
    toolName: "edit",
    content: [{ type: "text", text: "Successfully replaced text in a.ts." }],
    details: { diff, firstChangedLine: 2 },
    isError: false,
    timestamp: t,
  });
  const file = join(dir, "diff.html");
  await writeSessionHtml(sm, file, { pageScript });
  for (const scheme of ["light", "dark"] as const) {
    const w = await open(file, 1200, `#${id}`, scheme);
    const { page } = w;
    const fold = page.locator("#messages .msg.kind-toolResult details.output");
    assert.match((await fold.locator("summary").textContent()) ?? "", /✓ .*diff \(\+1 −1\)/);
    await fold.locator("summary").click();
    const rows = (cls: string) => fold.locator(`pre.diff > .${cls}`).allTextContents();
    assert.deepEqual(await rows("diff-removed"), ["- 2 let a = 1;"]);
    assert.deepEqual(await rows("diff-added"), ["+ 2 const a = 2;"]);
    assert.deepEqual(await rows("diff-context"), ["  1 // <img src=x onerror=window.__xss=6>", "  3 export { a };"]);
    const colours = (await fold
      .locator("pre.diff > span")
      .evaluateAll((els) => els.map((e) => getComputedStyle(e).color))) as string[];
    assert.equal(new Set(colours).size, 3, `added, removed and context differ: ${colours.join(", ")}`);
    assert.equal(await page.locator("#messages img").count(), 0, "HTML in a diff stays text");
    assert.deepEqual(await violations(page), [], `${scheme}: the diff open`);
    await finish(w);
  }
});

test(
  "↓ JSONL downloads the session file from the page itself: the same bytes; a branch, whole, as its own session",
  {
    skip,
  },
  async () => {
    const sm = await SessionManager.create("/ws", join(dir, "jsonl-sessions"));
    fillSession(sm);
    sm.appendMessage({ role: "user", content: 'unicode ✓ 🌳 \u2028 </script> "quoted"', timestamp: 1 });
    const source = sm.getSessionFile();
    assert.ok(source);
    const file = join(dir, "jsonl.html");
    await writeSessionHtml(sm, file, { pageScript });
    await sm.close();
    const download = async (w: Watched): Promise<{ name: string; text: string }> => {
      const [d] = await Promise.all([w.page.waitForEvent("download"), w.page.click("#download-jsonl")]);
      return { name: d.suggestedFilename(), text: await readFile(await d.path(), "utf8") };
    };
    const w = await open(file);
    const whole = await download(w);
    assert.equal(whole.text, await readFile(source, "utf8"), "the session file, byte for byte");
    assert.equal(whole.name, `${sm.getSessionId()}.jsonl`);
    await finish(w);

    // A branch of a pi session, whose label entries sit in the chain (pi moves the leaf onto a label): the branch
    // export leaves the label out, so the download chains each entry to the one before it.
    const entry = (id: string, parentId: string | null, rest: Record<string, unknown>) =>
      JSON.stringify({ id, parentId, timestamp: "2026-01-01T00:00:00.000Z", ...rest });
    const user = (text: string) => ({ type: "message", message: { role: "user", content: text, timestamp: 1 } });
    const piFile = join(dir, "pi-labels.jsonl");
    await writeFile(
      piFile,
      [
        JSON.stringify({
          type: "session",
          version: 3,
          id: "pi-sess",
          timestamp: "2026-01-01T00:00:00.000Z",
          cwd: "/ws",
        }),
        entry("u1", null, user("first")),
        entry("l1", "u1", { type: "label", targetId: "u1", label: "start" }),
        entry("u2", "l1", user("second")),
        entry("x1", "u1", user("other branch")),
        entry("u3", "u2", user("third")),
      ].join("\n") + "\n",
    );
    const pi = await SessionManager.open(piFile, { readOnly: true });
    const branchFile = join(dir, "jsonl-branch.html");
    await writeSessionHtml(pi, branchFile, { pageScript, branchOnly: true, leafId: "u3" });
    await pi.close();
    const b = await open(branchFile);
    assert.equal(await b.page.locator("#messages .msg").count(), 3, "the page shows the whole branch");
    const branch = await download(b);
    await finish(b);
    assert.equal(branch.name, "pi-sess-branch.jsonl");
    const lines = branch.text
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((l) => [l.type === "session" ? "header" : l.id, l.parentId]),
      [
        ["header", undefined],
        ["u1", null],
        ["u2", "u1"],
        ["u3", "u2"],
      ],
    );
  },
);

/** A `width`×`height` grey PNG, base64. */
function greyPng(width: number, height: number): string {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter: none
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return png.toString("base64");
}

test(
  "an image opens larger in a dialog by click or Enter/Space; Esc closes it and the focus returns",
  { skip },
  async () => {
    const sm = SessionManager.inMemory("/ws");
    const id = sm.appendMessage({
      role: "user",
      content: [
        { type: "text", text: "see this" },
        { type: "image", data: greyPng(900, 700), mimeType: "image/png" },
      ],
      timestamp: Date.now(),
    });
    const file = join(dir, "zoom.html");
    await writeSessionHtml(sm, file, { pageScript });
    const w = await open(file, 1200, `#${id}`);
    const { page } = w;
    const dialog = page.locator("dialog#image-zoom");
    const height = (sel: string) => page.locator(sel).evaluate((el) => Math.round(el.getBoundingClientRect().height));
    const small = await height("#messages img.attached");
    assert.ok(small <= 480, `inline: ${small} px`);
    const zoom = page.getByRole("button", { name: "Enlarge attached image" });
    await zoom.click();
    assert.equal(await dialog.isVisible(), true);
    const big = await height("dialog#image-zoom img");
    assert.ok(big > small, `enlarged: ${big} px against ${small} px`);
    assert.equal(await page.evaluate("document.activeElement.textContent"), "Close");
    assert.deepEqual(await violations(page), [], "the dialog open");
    // T and O do nothing behind the dialog; Esc closes it and the image has the focus again.
    await page.keyboard.press("t");
    assert.equal(await page.getAttribute("button[title*='(T)']", "aria-pressed"), "false");
    await page.keyboard.press("Escape");
    assert.equal(await dialog.isVisible(), false);
    assert.equal(await zoom.evaluate((el) => el === document.activeElement), true, "focus back on the image");
    // By keyboard: Enter and Space open it; a click on it closes it.
    await page.keyboard.press("Enter");
    assert.equal(await dialog.isVisible(), true);
    await page.click("dialog#image-zoom img");
    assert.equal(await dialog.isVisible(), false);
    await zoom.focus();
    await page.keyboard.press(" ");
    assert.equal(await dialog.isVisible(), true);
    await page.keyboard.press("Enter"); // on Close
    assert.equal(await dialog.isVisible(), false);
    assert.equal(await zoom.evaluate((el) => el === document.activeElement), true);
    await finish(w);
  },
);

test(
  "a code block naming no language gets a confident guess, as pi's page guesses; prose and huge blocks stay plain",
  {
    skip,
  },
  async () => {
    const sm = SessionManager.inMemory("/ws");
    const py =
      'import os\n\ndef main(path):\n    with open(path) as f:\n        for line in f:\n            print(line.strip())\n\nif __name__ == "__main__":\n    main("<b>a.txt</b>")';
    const fence = (info: string, body: string) => "```" + info + "\n" + body + "\n```";
    const id = sm.appendMessage(
      assistant(
        [
          fence("", py),
          fence("", "The quick brown fox jumps over the lazy dog.\nJust some words a tool printed."),
          fence("text", py),
          fence("", (py + "\n").repeat(100)), // over 10,000 characters
        ].join("\n\n"),
      ),
    );
    const file = join(dir, "guess.html");
    await writeSessionHtml(sm, file, { pageScript });
    const w = await open(file, 1200, `#${id}`);
    const { page } = w;
    const blocks = page.locator("#messages .md pre code");
    await page.waitForSelector("#messages .md pre code.hljs");
    // Every block seen (the last is long: scroll it into view) before looking.
    await blocks.nth(3).scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll("#messages code[data-lang]").length === 0);
    assert.equal(await blocks.nth(0).getAttribute("data-guessed"), "python");
    assert.deepEqual([...new Set(await blocks.nth(0).locator(".hljs-keyword").allTextContents())].sort(), [
      "as",
      "def",
      "for",
      "if",
      "import",
      "in",
      "with",
    ]);
    assert.equal(await blocks.nth(0).textContent(), py + "\n", "the text is unchanged");
    for (const [i, why] of [
      [1, "prose: no confident guess"],
      [2, "a fence saying text"],
      [3, "longer than the guess's cap"],
    ] as const) {
      assert.equal(await blocks.nth(i).locator("span").count(), 0, why);
      assert.equal(await blocks.nth(i).getAttribute("data-guessed"), null, why);
    }
    assert.equal(await page.locator("#messages b").count(), 0, "HTML in code stays text");
    await finish(w);
  },
);
