/**
 * The compare panel in real Chromium against a fake host: both sides and the ancestor drawn, changed words
 * marked, HTML in message text inert, pages asked for as the windowed list scrolls, keyboard navigation between
 * differences and turns, "show in tree", the files section, and the position restored after a reload.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { CompareOverview, CompareStatus, CompareTurn } from "../../src/core/compare/compare-types.js";
import { STATUS_CODES } from "../../src/core/compare/compare-types.js";
import type { CompareToHost, HostToCompare } from "../../src/shared/protocol.js";
import { settle, webviewRig, type ViewPage } from "./harness.js";

const rig = webviewRig();

type Page = ViewPage<HostToCompare, CompareToHost>;

const XSS = `<img src=x onerror=alert(1)> <script>alert(2)</script>`;

function overview(statuses: CompareStatus[]): CompareOverview {
  return {
    left: { entryId: "L", title: "assistant: Approach A works", label: "plan-a", turns: statuses.length },
    right: { entryId: "R", title: "assistant: Approach B is slow", turns: statuses.length },
    ancestor: {
      entryId: "anc",
      sharedTurns: 1,
      items: [{ entryId: "anc", kind: "assistant", text: "Which **approach**?", prose: true }],
    },
    statuses: statuses.map((s) => STATUS_CODES[s]).join(""),
  };
}

/** A turn as the host would send it: `changed` turns differ in one word, one-sided turns have one side. */
function turn(index: number, status: CompareStatus): CompareTurn {
  // Messages are prose, as the host marks them.
  const user = (side: string) => ({
    entryId: `${side}u${index}`,
    kind: "user" as const,
    text: `question ${index}`,
    prose: true,
  });
  const reply = (side: string, word: string) => ({
    entryId: `${side}a${index}`,
    kind: "assistant" as const,
    text: `answer ${index} uses ${word} here`,
    prose: true,
  });
  if (status === "left") return { index, status, kind: "turn", rows: [{ status: "left", left: { item: user("l") } }] };
  if (status === "right")
    return { index, status, kind: "turn", rows: [{ status: "right", right: { item: user("r") } }] };
  const rows: CompareTurn["rows"] = [{ status: "same", left: { item: user("l") }, right: { item: user("r") } }];
  if (status === "same")
    rows.push({ status: "same", left: { item: reply("l", "alpha") }, right: { item: reply("r", "alpha") } });
  else
    rows.push({
      status: "changed",
      left: {
        item: reply("l", "alpha"),
        spans: [{ text: `answer ${index} uses ` }, { text: "alpha", changed: true }, { text: " here" }],
      },
      right: {
        item: reply("r", "beta"),
        spans: [{ text: `answer ${index} uses ` }, { text: "beta", changed: true }, { text: " here" }],
      },
    });
  return { index, status, kind: "turn", rows };
}

/** Answers every page request the view made so far with turns of `statuses`. */
async function answerRequests(vp: Page, statuses: CompareStatus[], answered: Set<number>): Promise<void> {
  for (const m of await vp.posted()) {
    if (m.type !== "compare/requestTurns" || answered.has(m.start)) continue;
    answered.add(m.start);
    const turns: CompareTurn[] = [];
    for (let i = m.start; i < Math.min(statuses.length, m.start + m.count); i++) turns.push(turn(i, statuses[i]));
    await vp.send({ type: "compare/turns", turns });
  }
}

/**
 * Lets frames pass until the view is still: three settles in a row with no new post and the same turns drawn at
 * the same list height and scroll position. A drawn turn (or placeholder) is measured a frame after it is drawn,
 * and each measurement can widen the window, so the pages a view needs are asked for over a few frames, not all
 * in the first. With `answer`, page requests are answered as they come, as the host does. Bounded.
 */
async function untilStill(vp: Page, answer?: { statuses: CompareStatus[]; answered: Set<number> }): Promise<void> {
  let last = "";
  let still = 0;
  for (let i = 0; i < 200; i++) {
    if (answer) await answerRequests(vp, answer.statuses, answer.answered);
    await settle(vp.page);
    const now = await vp.page.evaluate(
      () =>
        `${(window as unknown as { __fake: { posted: unknown[] } }).__fake.posted.length} ` +
        `${(document.querySelector(".cmp-list") as HTMLElement).style.height} ` +
        `${(document.querySelector(".cmp-scroll") as HTMLElement).scrollTop} ` +
        [...document.querySelectorAll("article.cmp-turn")].map((e) => (e as HTMLElement).dataset.index).join(),
    );
    still = now === last ? still + 1 : 0;
    last = now;
    if (still === 3) return;
  }
  throw new Error(`the compare view kept changing: ${last}`);
}

async function articles(vp: Page): Promise<number[]> {
  return vp.page.$$eval("article.cmp-turn", (els) => els.map((e) => Number((e as HTMLElement).dataset.index)));
}

describe("compare panel", () => {
  test("shows the ends, the ancestor, both sides of each turn with changed words marked", async () => {
    const statuses: CompareStatus[] = ["changed", "same", "left", "right"];
    const vp = await rig.openCompareView({ width: 1000, height: 700 });
    await vp.send({ type: "compare/snapshot", overview: overview(statuses), sessionName: "Demo" });
    const asked = (await vp.posted()).filter((m) => m.type === "compare/requestTurns");
    assert.deepEqual(asked, [{ type: "compare/requestTurns", start: 0, count: 4 }]);
    await answerRequests(vp, statuses, new Set());
    await settle(vp.page);

    const text = await vp.page.innerText("body");
    assert.match(text, /Compare branches — Demo/);
    assert.match(text, /1 changed · 1 only left · 1 only right · 1 same/);
    assert.match(text, /\[plan-a\]/);
    assert.match(text, /Approach B is slow/);
    assert.match(text, /Common ancestor/);
    assert.equal(await vp.page.locator(".cmp-ancestor strong").innerText(), "approach", "ancestor as markdown");
    const first = vp.page.locator('article[data-index="0"]');
    assert.match(await first.innerText(), /changed/);
    assert.deepEqual(await first.locator("mark.cmp-del").allInnerTexts(), ["alpha"]);
    assert.deepEqual(await first.locator("mark.cmp-ins").allInnerTexts(), ["beta"]);
    assert.match(await vp.page.locator('article[data-index="2"]').innerText(), /only left/);
    assert.equal(await vp.page.locator('article[data-index="2"] .cmp-gap.right').count(), 1, "the empty side");
    assert.equal(await vp.page.locator('article[data-index="3"] .cmp-gap.left').count(), 1);
    const problems = await vp.problems();
    assert.deepEqual(problems, { violations: [], errors: [] });
    await vp.close();
  });

  test("HTML in message text stays text (markdown and changed runs alike)", async () => {
    const vp = await rig.openCompareView();
    await vp.send({ type: "compare/snapshot", overview: overview(["changed"]) });
    const evil: CompareTurn = {
      index: 0,
      status: "changed",
      kind: "turn",
      rows: [
        {
          status: "changed",
          left: { item: { entryId: "l", kind: "user", text: XSS, prose: true }, spans: [{ text: XSS, changed: true }] },
          right: {
            item: { entryId: "r", kind: "user", text: "plain", prose: true },
            spans: [{ text: "plain", changed: true }],
          },
        },
        {
          status: "left",
          left: { item: { entryId: "l2", kind: "assistant", text: `**bold** ${XSS}`, prose: true } },
        },
      ],
    };
    await vp.send({ type: "compare/turns", turns: [evil] });
    await settle(vp.page);
    assert.equal(await vp.page.locator("article img, article script").count(), 0);
    assert.match(await vp.page.locator("article").innerText(), /<img src=x onerror=alert\(1\)>/);
    assert.deepEqual(vp.dialogs, []);
    await vp.close();
  });

  test("a long comparison is windowed: only nearby turns are drawn and asked for", async () => {
    const statuses: CompareStatus[] = Array.from({ length: 5000 }, (_, i) => (i % 7 === 3 ? "changed" : "same"));
    const vp = await rig.openCompareView({ width: 1000, height: 700 });
    await vp.send({ type: "compare/snapshot", overview: overview(statuses) });
    // Before any page arrives, the window grows as its placeholders are measured: what it asks for then is fixed.
    await untilStill(vp);
    const answered = new Set<number>();
    await answerRequests(vp, statuses, answered);
    await untilStill(vp);
    const drawn = await articles(vp);
    assert.ok(drawn.length > 0 && drawn.length < 60, `${drawn.length} turns in the DOM`);
    assert.deepEqual([...answered], [0, 20], "the first pages only");

    await vp.page.evaluate(() => {
      const el = document.querySelector(".cmp-scroll") as HTMLElement;
      el.scrollTop = el.scrollHeight / 2;
    });
    await untilStill(vp, { statuses, answered });
    const middle = await articles(vp);
    assert.ok(Math.min(...middle) > 1000, `drawn ${Math.min(...middle)}…${Math.max(...middle)}`);
    assert.ok(answered.size < 12, `${answered.size} pages asked for`);
    const shown = middle.find((i) => i % 7 !== 3) as number;
    assert.match(await vp.page.locator(`article[data-index="${shown}"]`).innerText(), new RegExp(`answer ${shown}`));
    await vp.close();
  });

  test("F7 / Shift+F7 go from difference to difference, PageDown to the next turn; items show in the tree", async () => {
    const statuses: CompareStatus[] = Array.from({ length: 200 }, (_, i) =>
      i === 30 || i === 120 ? "changed" : i === 150 ? "right" : "same",
    );
    const vp = await rig.openCompareView({ width: 1000, height: 600 });
    await vp.send({ type: "compare/snapshot", overview: overview(statuses) });
    const answered = new Set<number>();
    const focusedIndex = async (): Promise<number> => {
      for (let i = 0; i < 10; i++) {
        await answerRequests(vp, statuses, answered);
        await settle(vp.page);
      }
      return vp.page.evaluate(() => Number((document.activeElement as HTMLElement | null)?.dataset.index ?? -1));
    };
    await answerRequests(vp, statuses, answered);
    await vp.page.locator(".cmp-scroll").focus();
    await vp.page.keyboard.press("F7");
    assert.equal(await focusedIndex(), 30);
    await vp.page.keyboard.press("F7");
    assert.equal(await focusedIndex(), 120);
    await vp.page.keyboard.press("F7");
    assert.equal(await focusedIndex(), 150);
    await vp.page.keyboard.press("Shift+F7");
    assert.equal(await focusedIndex(), 120);
    await vp.page.keyboard.press("PageDown");
    assert.equal(await focusedIndex(), 121);
    const top = await vp.page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return (
        el.getBoundingClientRect().top -
        (document.querySelector(".cmp-scroll") as HTMLElement).getBoundingClientRect().top
      );
    });
    assert.ok(top >= 0 && top < 100, `the focused turn is at the top of the view (${top}px)`);
    await vp.page.getByRole("button", { name: "Next difference (F7)" }).click();
    assert.equal(await focusedIndex(), 150);

    await vp.clearPosted();
    await vp.page.locator('article[data-index="150"] .cmp-reveal').first().click();
    assert.deepEqual(
      (await vp.posted()).filter((m) => m.type === "compare/reveal"),
      [{ type: "compare/reveal", entryId: "ru150" }],
    );
    await vp.close();
  });

  test("the files section lists the files (renames with both names) and opens one", async () => {
    const vp = await rig.openCompareView();
    await vp.send({ type: "compare/snapshot", overview: overview(["changed"]) });
    await vp.send({
      type: "compare/files",
      files: [
        { path: "src/cli.ts", change: "modified" },
        { path: "src/new.ts", change: "added" },
        { path: "docs/guide.md", change: "renamed", oldPath: "docs/old-guide.md" },
      ],
    });
    const section = await vp.page.locator(".cmp-files").innerText();
    assert.match(section, /Files that differ[\s\S]*modified src\/cli\.ts/);
    assert.match(section, /renamed docs\/old-guide\.md → docs\/guide\.md/, "a rename shows both names");
    await vp.page.getByRole("button", { name: /src\/new\.ts/ }).click();
    assert.deepEqual(
      (await vp.posted()).filter((m) => m.type === "compare/openFile"),
      [{ type: "compare/openFile", path: "src/new.ts" }],
    );
    await vp.close();
  });

  test("after a reload the view comes back to the turn it showed", async () => {
    const statuses: CompareStatus[] = Array.from({ length: 300 }, () => "changed");
    const vp = await rig.openCompareView({ state: { left: "L", right: "R", turn: 140 } });
    await vp.send({ type: "compare/snapshot", overview: overview(statuses) });
    const answered = new Set<number>();
    for (let i = 0; i < 6; i++) {
      await answerRequests(vp, statuses, answered);
      await settle(vp.page);
    }
    const drawn = await articles(vp);
    assert.ok(drawn.includes(140) && Math.min(...drawn) > 100, `drawn ${Math.min(...drawn)}…${Math.max(...drawn)}`);
    await vp.close();
  });

  test("same node on both sides: says there is nothing after the ancestor", async () => {
    const vp = await rig.openCompareView();
    await vp.send({ type: "compare/snapshot", overview: overview([]) });
    assert.match(await vp.page.innerText("body"), /No turns after the common ancestor/);
    assert.deepEqual(
      (await vp.posted()).filter((m) => m.type === "compare/requestTurns"),
      [],
    );
    await vp.close();
  });
});
