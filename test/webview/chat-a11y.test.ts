/**
 * Screen-reader semantics of the windowed chat in real Chromium: the scrolled list is no live region
 * (rows mounted by scrolling back are not news), its roles are valid ARIA (Chromium's accessibility tree
 * is checked too), and the hidden live region says each new thing once: a sent message, a finished
 * reply, a tool error, an approval request.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatMessageDto } from "../../src/shared/protocol.js";
import { settle, webviewRig, withPage, type ViewPage } from "./harness.js";
import { call, chatSnapshot, GPT, msg, openChatView } from "./chat-fixtures.js";

const rig = webviewRig();

/** A path of `n` messages: questions, replies (some failed or aborted, some with tool calls), results. */
function path(n: number): ChatMessageDto[] {
  const out: ChatMessageDto[] = [];
  for (let i = 0; i < n; i++) {
    const id = `m${i}`;
    switch (i % 4) {
      case 0:
        out.push(msg(id, "user", `Old question ${i}`));
        break;
      case 1:
        out.push(msg(id, "assistant", `Old call ${i}`, { toolCalls: [call(`c${i}`, "bash", "{}")] }));
        break;
      case 2:
        out.push(
          msg(id, "toolResult", `old failure ${i}`, { toolCallId: `c${i - 1}`, toolName: "bash", isError: true }),
        );
        break;
      default:
        out.push(
          msg(id, "assistant", `Old answer ${i}\n\n${"text ".repeat(30)}`, {
            ...(i % 8 === 3
              ? { stopReason: "error", errorMessage: `old error ${i}`, failure: `Error: old error ${i}` }
              : {}),
            ...(i % 8 === 7 ? { stopReason: "aborted", failure: "Aborted" } : {}),
          }),
        );
    }
  }
  return out;
}

async function open(n: number, streaming: boolean): Promise<ViewPage> {
  const vp = await openChatView(rig, chatSnapshot(path(n), { streaming, model: GPT }), { height: 500 });
  await settleList(vp);
  return vp;
}

/** What the live region holds: one entry per announcement. */
async function announced(vp: ViewPage): Promise<string[]> {
  return (await vp.page.evaluate(
    `[...document.querySelectorAll('.chat-live > *')].map((e) => e.textContent)`,
  )) as string[];
}

async function mountedIds(vp: ViewPage): Promise<string[]> {
  return (await vp.page.evaluate(
    `[...document.querySelectorAll('.chat-messages [data-message-id]')].map((e) => e.getAttribute('data-message-id'))`,
  )) as string[];
}

/** Wait (bounded) until the mounted rows and scroll position stop changing. */
async function settleList(vp: ViewPage): Promise<void> {
  let prev = "";
  let same = 0;
  for (let i = 0; i < 60; i++) {
    await settle(vp.page);
    const sig = JSON.stringify([
      await mountedIds(vp),
      await vp.page.evaluate(`document.querySelector('.chat-messages').scrollTop`),
    ]);
    same = sig === prev ? same + 1 : 0;
    if (same >= 2) return;
    prev = sig;
  }
  throw new Error("chat list did not settle");
}

const count = (list: readonly string[], re: RegExp): number => list.filter((s) => re.test(s)).length;

/** Roles and live-region properties of Chromium's accessibility tree for the chat's elements. */
interface AxNode {
  role: string;
  name: string;
  parentRole: string | undefined;
  live: string | undefined;
}

async function axTree(vp: ViewPage): Promise<AxNode[]> {
  const cdp = await vp.page.context().newCDPSession(vp.page);
  try {
    await cdp.send("Accessibility.enable");
    const { nodes } = await cdp.send("Accessibility.getFullAXTree");
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    // Generic and ignored nodes stand between a list and its items in the raw tree: skip them.
    const effectiveParent = (id: string | undefined): string | undefined => {
      for (let p = id !== undefined ? byId.get(id) : undefined, i = 0; p !== undefined && i < 50; i++) {
        const role = String(p.role?.value ?? "");
        if (!p.ignored && role !== "generic" && role !== "none") return role;
        p = p.parentId !== undefined ? byId.get(p.parentId) : undefined;
      }
      return undefined;
    };
    return nodes
      .filter((n) => !n.ignored)
      .map((n) => ({
        role: String(n.role?.value ?? ""),
        name: String(n.name?.value ?? ""),
        parentRole: effectiveParent(n.parentId),
        live: n.properties?.find((p) => p.name === "live")?.value.value as string | undefined,
      }));
  } finally {
    await cdp.detach();
  }
}

test("scrolling back mounts old rows (errors among them) without a word in the live region", () =>
  withPage(open(400, false), async (vp) => {
    assert.deepEqual(await announced(vp), [], "opening a conversation announces nothing");
    assert.ok(!(await mountedIds(vp)).includes("m0"));
    for (let i = 0; i < 40 && !(await mountedIds(vp)).includes("m0"); i++) {
      await vp.page.evaluate(`document.querySelector('.chat-messages').scrollTop -= 1500`);
      await settleList(vp);
    }
    const ids = await mountedIds(vp);
    assert.ok(ids.includes("m0") && ids.includes("m3"), `old rows mounted: ${ids.join(",")}`);
    assert.match((await vp.page.textContent('[data-message-id="m3"] .msg-error')) ?? "", /old error 3/);
    assert.deepEqual(await announced(vp), [], "old rows are not announced");
    // Nothing inside the scrolled list is live (an alert there would be read again on every mount).
    const liveInList = await vp.page.evaluate(
      `document.querySelectorAll('.chat-messages [aria-live], .chat-messages [role="alert"], .chat-messages [role="log"], .chat-messages [role="status"]').length`,
    );
    assert.equal(liveInList, 0);
    const ax = await axTree(vp);
    const rowsLive = ax.filter((n) => n.role === "listitem" && n.live !== undefined && n.live !== "off");
    assert.equal(rowsLive.length, 0, "Chromium puts no row in a live region");
    assert.deepEqual((await vp.problems()).errors, []);
  }));

test("the list's roles are valid: a labelled focusable region, a list of listitems with their place in the path", () =>
  withPage(open(400, false), async (vp) => {
    const dom = (await vp.page.evaluate(`(() => {
      const region = document.querySelector('.chat-messages');
      const list = region.querySelector('[role="list"]');
      const kids = [...list.children].map((c) => c.getAttribute('aria-hidden') === 'true' ? 'hidden' : c.getAttribute('role'));
      const items = [...document.querySelectorAll('[role="listitem"]')];
      return {
        regionRole: region.getAttribute('role'), label: region.getAttribute('aria-label'), tabIndex: region.tabIndex,
        kids, strayItems: items.filter((i) => i.parentElement !== list).length,
        pos: items.map((i) => [Number(i.getAttribute('aria-posinset')), Number(i.getAttribute('aria-setsize')), Number(i.dataset.rowIndex)]),
      };
    })()`)) as {
      regionRole: string;
      label: string;
      tabIndex: number;
      kids: (string | null)[];
      strayItems: number;
      pos: [number, number, number][];
    };
    assert.equal(dom.regionRole, "region");
    assert.equal(dom.label, "Conversation");
    assert.equal(dom.tabIndex, 0, "the region takes focus for keyboard scrolling");
    assert.ok(dom.kids.includes("listitem"));
    assert.deepEqual(
      dom.kids.filter((k) => k !== "listitem" && k !== "hidden"),
      [],
      "the list holds only listitems (and hidden spacers)",
    );
    assert.equal(dom.strayItems, 0, "no listitem outside the list");
    // Tool results paired with their call are no rows: 400 messages make 300 rows.
    for (const [pos, size, index] of dom.pos) {
      assert.equal(size, 300);
      assert.equal(pos, index + 1);
    }

    const ax = await axTree(vp);
    const items = ax.filter((n) => n.role === "listitem");
    assert.ok(items.length > 0);
    assert.deepEqual([...new Set(items.map((n) => n.parentRole))], ["list"], "Chromium sees each item in a list");
    assert.ok(ax.some((n) => n.role === "region" && n.name === "Conversation"));
    const live = ax.filter((n) => n.live === "polite" || n.live === "assertive");
    assert.ok(live.length > 0, "Chromium reports the live region (so the check below means something)");
    assert.ok(
      live.every((n) => n.role !== "listitem" && n.role !== "list"),
      "the only live content is outside the list",
    );

    // Keyboard: Home from the focused region reaches the first message.
    await vp.page.focus(".chat-messages");
    await vp.page.keyboard.press("Home");
    for (let i = 0; i < 20 && !(await mountedIds(vp)).includes("m0"); i++) await settleList(vp);
    assert.ok((await mountedIds(vp)).includes("m0"));
    assert.deepEqual(await announced(vp), []);
  }));

test("a sent message and a streamed reply are announced once each, the reply only when finished", () =>
  withPage(open(40, true), async (vp) => {
    // The host shows the user's message under a temporary id, then its stored entry replaces it.
    await vp.send({ type: "chat/message", message: msg("pending-1", "user", "Please **explain** it") });
    await vp.send({ type: "chat/message", message: msg("u1", "user", "Please **explain** it"), replaces: "pending-1" });
    let text = "The answer";
    for (let i = 0; i < 5; i++) {
      text += ` part ${i}`;
      await vp.send({ type: "chat/message", message: msg("pending-2", "assistant", text) });
      assert.equal(count(await announced(vp), /^Assistant/), 0, `chunk ${i} is not announced`);
    }
    const long = `${text}. ${"more words here ".repeat(30)}`;
    await vp.send({ type: "chat/message", message: msg("e1", "assistant", long), replaces: "pending-2" });
    await vp.send({ type: "chat/streaming", streaming: false });
    // The host refreshes the snapshot after a prompt: nothing in it is news.
    await vp.send(
      chatSnapshot([...path(40), msg("u1", "user", "Please **explain** it"), msg("e1", "assistant", long)], {
        model: GPT,
      }),
    );
    await settleList(vp);
    const said = await announced(vp);
    assert.deepEqual(
      said.filter((s) => s.startsWith("You said")),
      ["You said: Please explain it"],
    );
    const replies = said.filter((s) => s.startsWith("Assistant replied"));
    assert.equal(replies.length, 1, JSON.stringify(said));
    assert.ok(replies[0].startsWith("Assistant replied: The answer part 0 part 1 part 2 part 3 part 4."));
    assert.ok(replies[0].length <= "Assistant replied: ".length + 151, `short: ${replies[0].length} chars`);
    assert.ok(replies[0].endsWith("…"));
    assert.equal(said.length, 2);
  }));

test("approval requests, tool errors and failed replies are announced once", () =>
  withPage(open(8, true), async (vp) => {
    await vp.send({ type: "chat/approval", toolCallId: "k1", toolName: "bash", summary: "rm -rf build" });
    await vp.send({ type: "chat/approval", toolCallId: "k1", toolName: "bash", summary: "rm -rf build" });
    assert.equal(await vp.page.locator('[role="alertdialog"][aria-label="Approve bash"]').count(), 1);
    assert.deepEqual(await announced(vp), ["Approval needed: bash wants to run rm -rf build"]);
    await vp.send({ type: "chat/approvalDone", toolCallId: "k1" });
    await vp.send({
      type: "chat/message",
      message: msg("a9", "assistant", "", { toolCalls: [call("k1", "bash", "{}")] }),
    });
    await vp.send({
      type: "chat/message",
      message: msg("r9", "toolResult", "permission denied", { toolCallId: "k1", toolName: "bash", isError: true }),
    });
    await vp.send({
      type: "chat/message",
      message: msg("a10", "assistant", "Trying", {
        stopReason: "error",
        errorMessage: "rate limited",
        failure: "Error: rate limited",
      }),
    });
    await vp.send({ type: "chat/streaming", streaming: false });
    await settleList(vp);
    assert.deepEqual(await announced(vp), [
      "bash failed: permission denied",
      "Assistant called bash",
      "Assistant replied: Trying. Error: rate limited",
    ]);
    // The region keeps the last few; the approval was the first of four and has been dropped.
    const region = vp.page.locator(".chat-live");
    assert.equal(await region.getAttribute("aria-live"), "polite");
    const box = await region.boundingBox();
    assert.ok(box !== null && box.width <= 1 && box.height <= 1, `visually hidden: ${JSON.stringify(box)}`);
    // The failed reply's error is shown in its row, but not as an alert.
    assert.match((await vp.page.textContent('[data-message-id="a10"] .msg-error')) ?? "", /rate limited/);
    assert.equal(await vp.page.locator('[data-message-id="a10"] [role="alert"]').count(), 0);
  }));

test("an approval answered from the keyboard hands the focus on: to the next prompt, then to the message box", () =>
  withPage(open(8, true), async (vp) => {
    await vp.send({ type: "chat/approval", toolCallId: "k1", toolName: "bash", summary: "ls" });
    await vp.send({ type: "chat/approval", toolCallId: "k2", toolName: "bash", summary: "pwd" });
    const focused = (): Promise<string> =>
      vp.page.evaluate(() => {
        const a = document.activeElement;
        const prompt = a?.closest(".approval")?.getAttribute("aria-label");
        return a === null || a === document.body ? "page" : prompt ? `${prompt}: ${a.textContent}` : a.tagName;
      });
    // From the message box, Shift+Tab reaches the prompts' buttons (the last prompt's Deny first).
    await vp.page.focus("textarea");
    await vp.page.keyboard.press("Shift+Tab");
    assert.equal(await focused(), "Approve bash: Deny");
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    assert.deepEqual(
      (await vp.posted()).filter((m) => m.type === "chat/approve"),
      [{ type: "chat/approve", toolCallId: "k2", approved: false }],
    );
    assert.equal(await focused(), "Approve bash: Allow", "the other prompt's first button, not the page");
    await vp.page.keyboard.press("Space");
    await settle(vp.page);
    assert.equal((await vp.posted()).filter((m) => m.type === "chat/approve").length, 2);
    assert.equal(await focused(), "TEXTAREA", "the message box once no prompt is left");
    // A prompt the host takes back (the run was stopped) while it has the focus hands it on too.
    await vp.send({ type: "chat/approval", toolCallId: "k3", toolName: "bash", summary: "whoami" });
    await vp.page.keyboard.press("Shift+Tab");
    assert.match(await focused(), /^Approve bash: /);
    await vp.send({ type: "chat/approvalDone", toolCallId: "k3" });
    await settle(vp.page);
    assert.equal(await focused(), "TEXTAREA");
  }));

test("a queued message edited or removed from the keyboard keeps the focus in the chat", () =>
  withPage(open(8, true), async (vp) => {
    const items = [
      { id: "q1", kind: "followUp" as const, text: "later please" },
      { id: "q2", kind: "steer" as const, text: "now please" },
    ];
    await vp.send({ type: "chat/queue", items });
    const focused = (): Promise<string> =>
      vp.page.evaluate(() => {
        const a = document.activeElement;
        return a === null || a === document.body ? "page" : (a.getAttribute("aria-label") ?? a.tagName);
      });
    const edit = vp.page.locator('vscode-button[aria-label="Edit queued message: later please"]');
    await edit.focus();
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    assert.equal(await focused(), "Edit queued message");
    await vp.page.keyboard.press("Escape");
    await settle(vp.page);
    assert.equal(await focused(), "Edit queued message: later please", "Escape: back to the button that opened it");
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    await vp.page.keyboard.type(" now");
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    assert.deepEqual(
      (await vp.posted()).filter((m) => m.type === "chat/queueEdit"),
      [{ type: "chat/queueEdit", id: "q1", text: "later please now" }],
    );
    assert.equal(await focused(), "Edit queued message: later please", "Enter: back to the button that opened it");
    // Remove: the host drops the item (and its focused button with it); the focus goes to the message box.
    await vp.page.keyboard.press("Tab");
    assert.equal(await focused(), "Remove queued message: later please");
    await vp.page.keyboard.press("Enter");
    await vp.send({ type: "chat/queue", items: items.slice(1) });
    await settle(vp.page);
    assert.equal(await focused(), "Message");
    // A focus the user takes away from the queue (a click on no control) stays where it went, render after render.
    await vp.page.locator('vscode-button[aria-label="Remove queued message: now please"]').focus();
    await vp.page.locator(".usage-line").click();
    await vp.send({ type: "chat/queue", items: items.slice(1).map((i) => ({ ...i, text: "now, please" })) });
    await settle(vp.page);
    assert.equal(await focused(), "page");
  }));
