/**
 * A reply streamed into the chat is rendered incrementally (webview/ui/markdown-stream.ts): what it shows after every
 * update must be exactly what a whole render of the same text shows, for tricky markdown cut anywhere; and the
 * blocks that are finished stay the same nodes while the reply grows (a selection in them survives).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { settle, webviewRig, withPage, type ViewPage } from "./harness.js";
import { chatSnapshot, msg, openChatView } from "./chat-fixtures.js";

const rig = webviewRig();

/** `lines` short lines of code, blank ones among them (at the ends of the blocks an open fence is shown in, too). */
function longCode(lines: number): string {
  return Array.from({ length: lines }, (_, i) => (i % 50 >= 48 || i % 7 === 0 ? "" : `line ${i}`)).join("\n");
}

/** Pieces that make the lexer change its mind as text arrives. */
const PIECES = [
  "Intro with **bold**, `code`, a [link](https://example.com) and <b>raw html</b>.",
  "# Heading",
  "Setext heading\n===",
  "Setext two\n---",
  "- one\n- two\n  - nested\n- three",
  "- loose\n\n- list\n\n  continued",
  "1. first\n2. second\n\n3. third",
  "1. item\n\n2",
  "* a\n\n**not a list**",
  "```ts\nconst x = 1;\n\nconst y = 2;\n```",
  "```\nunclosed fence\n\nwith blank lines",
  "~~~python\nprint('tilde')\n~~~",
  // An open fence's code is taken from the text while no added line may close it: lines that start with a backtick or
  // a tilde (closing or not), a fence closed by an indented line, an indented fence, a longer fence holding a shorter.
  "```js\nconst s = `a\n`;\n~~~ not a close\n ``not either\n  ```\nafter",
  "  ```\nindented fence\n  two\n   three\n```",
  "````md\n```\ninner\n```\n````",
  "~~~\r\ncrlf fence\r\n```\r\n~~~",
  // Long enough to be shown in blocks of lines while open, with blank lines where a block would end.
  "```\n" + longCode(130) + "\n```",
  "    indented code\n\n    more code",
  "| a | b |\n| --- | :-: |\n| 1 | 2 |\n| 3 | 4 |",
  "a | b\n--|--\n1 | 2",
  "> quote\n> more\n\n> another",
  "> lazy\ncontinuation",
  "---",
  "***",
  "<!-- a comment\n\nspanning blank lines -->",
  "<div>\nhtml block\n</div>",
  "Text with trailing spaces  \nhard break",
  "- [ ] task\n- [x] done",
  "Line\r\nwith CRLF\r\n\r\nend",
  "\ttab-indented\n\n\t\tmore",
  "",
  // Last: from here on every update renders the whole text.
  "[ref]: https://example.com/ref\n\nUses [ref] and [ref][].",
];

/**
 * Streams `chunks` (their concatenations, in order) as one live message, and after each also shows the same text in
 * a second message rendered whole; returns the first prefix whose two renderings differ, or undefined.
 */
async function firstMismatch(
  vp: ViewPage,
  prefixes: string[],
): Promise<{ text: string; live: string; whole: string } | undefined> {
  const src = `async (prefixes) => {
    const post = (m) => window.postMessage(m, "*");
    const frame = () => new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
    const base = { role: "assistant", title: "Assistant", icon: "hubot", timestamp: 1 };
    const usage = { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow: 0 };
    let n = 0;
    for (const text of prefixes) {
      post({ type: "chat/message", message: { ...base, id: "live", text } });
      // A new id each time, put in the previous one's place by a snapshot that keeps what comes before it: a fresh
      // row, so a fresh render of the whole text (a stored message replacing a streamed one keeps its row).
      post({ type: "chat/snapshot", start: 2, keep: true, streaming: true, usage, messages: [{ ...base, id: "whole-" + n, text }] });
      n++;
      await frame();
      const live = document.querySelector('[data-message-id="live"] .markdown');
      const whole = document.querySelector('[data-message-id="whole-' + (n - 1) + '"] .markdown');
      // An open fence streaming in is shown in blocks of lines: the same text, the same DOM once it closes.
      const unwrapped = (el) => {
        const copy = el.cloneNode(true);
        for (const chunk of copy.querySelectorAll(".code-chunk")) chunk.replaceWith(...chunk.childNodes);
        return copy.innerHTML;
      };
      const a = live ? unwrapped(live) : "(no live block)";
      const b = whole ? whole.innerHTML : "(no whole block)";
      if (text !== "" && a !== b) return { text, live: a, whole: b };
    }
    return undefined;
  }`;
  return (await vp.page.evaluate(`(${src})(${JSON.stringify(prefixes)})`)) as
    { text: string; live: string; whole: string } | undefined;
}

/** A fresh chat for one streamed reply (tall, so no row leaves the window). */
const openStreamChat = (): Promise<ViewPage> =>
  openChatView(rig, chatSnapshot([msg("u1", "user", "Go")], { streaming: true }), { height: 4000, width: 900 });

test("every prefix of each tricky piece, character by character, renders as the whole text does", () =>
  withPage(openStreamChat(), async (vp) => {
    const doc = PIECES.join("\n\n");
    const prefixes: string[] = [];
    for (let i = 1; i <= doc.length; i++) prefixes.push(doc.slice(0, i));
    assert.equal(await firstMismatch(vp, prefixes), undefined);
  }));

test("random documents of those pieces, cut into random chunks, render as the whole text does", async () => {
  const docs = fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom("\n", "\n\n", "\n\n\n", " ", "\n  ")), {
    minLength: 1,
    maxLength: 10,
  });
  const property = fc.asyncProperty(docs, fc.array(fc.nat(), { minLength: 1, maxLength: 30 }), async (parts, cuts) => {
    const doc = parts.map(([piece, sep]) => piece + sep).join("");
    const ends = [...new Set(cuts.map((c) => (c % doc.length) + 1)), doc.length].sort((a, b) => a - b);
    const vp = await openStreamChat();
    try {
      const mismatch = await firstMismatch(
        vp,
        ends.map((e) => doc.slice(0, e)),
      );
      assert.equal(mismatch, undefined, `document ${JSON.stringify(doc)}`);
    } finally {
      await vp.close();
    }
  });
  await fc.assert(property, { numRuns: 25, seed: 39 });
});

test("a streamed reply keeps the nodes of its finished blocks while it grows, so a selection in them survives", () =>
  withPage(openStreamChat(), async (vp) => {
    const base = { title: "Assistant", icon: "hubot" };
    let text = "First paragraph stays.\n\nSecond one.\n\n";
    await vp.send({ type: "chat/message", message: msg("live", "assistant", text, base) });
    await vp.page.evaluate(`(() => {
      const p = document.querySelector('[data-message-id="live"] .markdown p');
      window.__first = p;
      const range = document.createRange();
      range.selectNodeContents(p);
      getSelection().removeAllRanges();
      getSelection().addRange(range);
    })()`);
    for (let i = 0; i < 5; i++) {
      text += `More text ${i} **bold**.\n\n`;
      await vp.send({ type: "chat/message", message: msg("live", "assistant", text, base) });
    }
    await settle(vp.page);
    const kept = await vp.page.evaluate(`(() => {
      const p = document.querySelector('[data-message-id="live"] .markdown p');
      return { same: p === window.__first, selected: String(getSelection()) };
    })()`);
    assert.deepEqual(kept, { same: true, selected: "First paragraph stays." });
    assert.equal(
      await vp.page.locator('[data-message-id="live"] .markdown p').count(),
      7,
      "every paragraph streamed is shown",
    );
  }));

test("the stored reply replacing the streamed one keeps its row: nothing is rendered again, the stored text shows", () =>
  withPage(openStreamChat(), async (vp) => {
    const base = { title: "Assistant", icon: "hubot" };
    // The first paragraph is finished (a finished block after it): the streamed rendering keeps its node.
    const text = "A long reply.\n\nIts second paragraph.\n\nAnd a third";
    await vp.send({ type: "chat/message", message: msg("pending-1", "assistant", text, base) });
    await vp.page.evaluate(`window.__first = document.querySelector('[data-message-id="pending-1"] .markdown p')`);
    await vp.send({
      type: "chat/message",
      message: msg("e1", "assistant", text + " Stored.", base),
      replaces: "pending-1",
    });
    await settle(vp.page);
    const after = await vp.page.evaluate(`(() => {
      const p = document.querySelector('[data-message-id="e1"] .markdown p');
      return {
        same: p === window.__first,
        rows: document.querySelectorAll('[data-message-id="pending-1"], [data-message-id="e1"]').length,
        stored: document.querySelector('[data-message-id="e1"] .markdown').textContent.includes("third Stored."),
      };
    })()`);
    assert.deepEqual(after, { same: true, rows: 1, stored: true });
  }));

test("an open fence streamed in is shown in blocks of lines, and as a whole render once it closes", () =>
  withPage(openStreamChat(), async (vp) => {
    const base = { title: "Assistant", icon: "hubot" };
    const code = longCode(240).split("\n");
    let text = "Some code:\n\n```ts\n";
    for (const line of code) {
      text += line + "\n";
      await vp.send({ type: "chat/message", message: msg("live", "assistant", text, base) });
    }
    const open = (await vp.page.evaluate(`(() => {
      const code = document.querySelector('[data-message-id="live"] .markdown pre code');
      return { blocks: code.querySelectorAll(":scope > .code-chunk").length, text: code.textContent };
    })()`)) as { blocks: number; text: string };
    assert.ok(open.blocks >= 4, `the open fence's code is in blocks (${open.blocks})`);
    assert.equal(open.text, code.join("\n") + "\n");
    text += "```\n\nDone.";
    await vp.send({ type: "chat/message", message: msg("live", "assistant", text, base) });
    await vp.send({ type: "chat/message", message: msg("whole", "assistant", text, base) });
    await settle(vp.page);
    const closed = await vp.page.evaluate(`(() => {
      const live = document.querySelector('[data-message-id="live"] .markdown');
      const whole = document.querySelector('[data-message-id="whole"] .markdown');
      return { blocks: live.querySelectorAll(".code-chunk").length, same: live.isEqualNode(whole) };
    })()`);
    assert.deepEqual(closed, { blocks: 0, same: true });
  }));
