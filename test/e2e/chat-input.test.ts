/**
 * End to end in code-server with the local fake model: the chat input's `@` list (pick a file, send, the
 * request holds the file's content — the README's screenshot of the list is taken here), **Agent: Add
 * Selection to Chat** (the request holds the selected text and its path), and `/` listing a prompt template
 * of the workspace's `.pi/prompts/` whose expansion is what the request holds; pi's `/copy` and `/session`. Each
 * step asserts on what the model server received.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import type { FrameLocator, Page } from "playwright-core";
import {
  chatInput,
  chatView,
  modelRequest,
  readSession,
  refreshDocsScreenshot,
  waitChatIdle,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import type { FakeRequestBody } from "../util/fake-openai-server.js";
import { expectVisible, quickOpenFile, runCommand, screenshot, setSidebarWidth, waitUntil } from "../util/workbench.js";

/** A word only the mentioned file holds: finding it in the request proves the file was attached. */
const UNIQUE = "QUOKKA-7731";

const { demo, fake, step, wb, openAgentTree } = demoWorkbenchSuite({
  name: "chat-input",
  model: { chunkDelayMs: 2 },
  isolateOtherTools: true,
  prepare: ({ demo }) => {
    writeFileSync(join(demo.workspace, "src", "release-notes.txt"), `Release notes: ${UNIQUE} ships today.\n`);
    mkdirSync(join(demo.workspace, ".pi", "prompts"), { recursive: true });
    writeFileSync(
      join(demo.workspace, ".pi", "prompts", "review.md"),
      '---\ndescription: Review a change\nargument-hint: "<topic> [focus]"\n---\nReview $1 carefully, focusing on ${2:-tests}.\n',
    );
  },
});

let page: Page;
let chat: FrameLocator;

/** The user text of the last request the model received. */
async function lastRequestText(count: number): Promise<string> {
  await modelRequest(fake(), count);
  const body: FakeRequestBody = fake().requests[fake().requests.length - 1];
  return JSON.stringify(body.messages ?? []);
}

function input(): ReturnType<FrameLocator["locator"]> {
  return chatInput(chat);
}

/** Types `/<name>`, picks it from the `/` list (Enter: `/<name> `) and sends it (Enter). */
async function typeCommand(name: string): Promise<void> {
  await input().pressSequentially(`/${name}`);
  await expectVisible(
    chat.locator('#chat-completions [role="option"]', { hasText: `/${name}` }).first(),
    `/${name} in the / list`,
  );
  await input().press("Enter");
  assert.equal(await input().inputValue(), `/${name} `);
  await input().press("Enter");
}

/** Send is enabled again once the reply ended (and the input holds text); the progress bar is gone. */
const waitIdle = (): Promise<void> => waitChatIdle(chat, "the reply to end");

describe("the chat input in VS Code (code-server)", { timeout: 10 * 60_000 }, () => {
  before(async () => {
    page = wb().page;
    await openAgentTree(520);
    chat = await chatView(page);
  });

  it(
    "@ + a file name lists it; picked and sent, the request holds the file's content",
    step("mention", async () => {
      const requests = fake().requests.length;
      // An open file comes first in the list (recently opened).
      await quickOpenFile(page, "cli.ts");
      await input().click();
      await input().pressSequentially("Summarize @");
      const options = chat.locator('#chat-completions [role="option"]');
      await expectVisible(options.nth(3), "the workspace's files and folders in the @ list");
      assert.match((await options.first().textContent()) ?? "", /@src\/cli\.ts.*recently opened/);
      assert.equal(await input().getAttribute("aria-expanded"), "true");
      refreshDocsScreenshot(await screenshot(page, "chat-input-mention-list"), "mention-list.png");
      await input().pressSequentially("relnotes");
      const option = chat.locator('#chat-completions [role="option"]', { hasText: "@src/release-notes.txt" });
      await expectVisible(option, "the file in the @ list");
      await option.click();
      assert.equal(await input().inputValue(), "Summarize @src/release-notes.txt ");
      await input().press("Enter");
      const sent = await lastRequestText(requests + 1);
      assert.ok(sent.includes(UNIQUE), "the file's content reached the model");
      assert.match(sent, /<file name=\\"[^"]*release-notes\.txt\\">/, "with its path, as pi attaches files");
      await expectVisible(chat.locator(".attachment-chip", { hasText: "release-notes.txt" }), "the attachment chip");
      assert.equal(await chat.getByText(UNIQUE).count(), 0, "the chat shows the mention, not the file");
      await waitIdle();
    }),
  );

  it(
    "Agent: Add Selection to Chat sends the selected text with its path and lines",
    step("selection", async () => {
      const requests = fake().requests.length;
      await quickOpenFile(page, "cli.ts");
      const editor = page.locator(".part.editor .monaco-editor .view-lines").first();
      await editor.click();
      await page.keyboard.press("Control+Home");
      await page.keyboard.press("Shift+ArrowDown");
      await page.keyboard.press("Shift+ArrowDown");
      await runCommand(page, "Agent: Add Selection to Chat");
      await waitUntil(
        async () => ((await input().inputValue()).includes("@src/cli.ts#1-2") ? true : undefined),
        "the selection's mention in the chat input",
      );
      await input().click();
      await input().press("End");
      await input().pressSequentially("explain this");
      await input().press("Enter");
      const sent = await lastRequestText(requests + 1);
      assert.ok(sent.includes("A tiny greeting CLI."), "the selected text reached the model");
      assert.ok(sent.includes('const name = process.argv[2] ?? \\"world\\";'), "its second line too");
      assert.ok(!sent.includes("console.log(`Hello"), "not the lines after the selection");
      assert.match(sent, /<file name=\\"[^"]*cli\.ts\\" lines=\\"1-2\\">/, "with its path and line range");
      await waitIdle();
    }),
  );

  it(
    "typing / lists a template of .pi/prompts; sending it puts the expansion in the request",
    step("template", async () => {
      await setSidebarWidth(page, 520);
      const requests = fake().requests.length;
      await input().click();
      await input().pressSequentially("/rev");
      const option = chat.locator('#chat-completions [role="option"]', { hasText: "/review" });
      await expectVisible(option, "the template in the / list");
      assert.match((await option.textContent()) ?? "", /<topic> \[focus\].*Review a change/);
      await input().press("Enter");
      assert.equal(await input().inputValue(), "/review ");
      await input().pressSequentially('"API compat" speed');
      await input().press("Enter");
      const sent = await lastRequestText(requests + 1);
      assert.ok(sent.includes("Review API compat carefully, focusing on speed."), `the expansion was sent: ${sent}`);
      assert.ok(!sent.includes("/review"), "not the command as typed");
      await waitIdle();
    }),
  );

  it(
    "/name names the session: pi's session_info entry, the tree's title; nothing goes to the model",
    step("name", async () => {
      const requests = fake().requests.length;
      await input().click();
      await input().pressSequentially("/name Release review");
      await input().press("Enter");
      await expectVisible(
        page.locator(".pane-header", { hasText: "Session Tree" }).getByText("Release review"),
        "the new name as the tree's title",
      );
      const info = readSession(demo().sessionFile).filter((l) => l.type === "session_info");
      assert.equal(info.at(-1)?.name, "Release review");
      assert.equal(fake().requests.length, requests, "a built-in command is not sent to the model");
      assert.equal(await input().inputValue(), "");
    }),
  );
  it(
    "pi's /copy puts the last reply on the clipboard and /session opens pi's figures beside the chat; neither goes to the model",
    step("pi-commands", async () => {
      const requests = fake().requests.length;
      const lines = readSession(demo().sessionFile);
      const replies = lines.filter(
        (l) => l.type === "message" && (l.message as { role?: string }).role === "assistant",
      );
      const last = replies.at(-1)?.message as { content: { type: string; text?: string }[] };
      const lastText = last.content
        .filter((c) => c.type === "text")
        .map((c) => c.text ?? "")
        .join("")
        .trim();
      assert.ok(lastText.length > 0, "the earlier steps left a reply");
      const origin = new URL(page.url()).origin;
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin });
      await page.evaluate(() => navigator.clipboard.writeText("before /copy"));

      await input().click();
      await typeCommand("copy");
      await expectVisible(
        chat.locator(".status-line", { hasText: "Copied last agent message to clipboard" }),
        "the status line saying it copied",
      );
      const copied = await waitUntil(async () => {
        const text = await page.evaluate(() => navigator.clipboard.readText());
        return text === "before /copy" ? undefined : text;
      }, "the clipboard to change");
      assert.equal(copied, lastText);

      await input().click();
      await typeCommand("session");
      const tab = page.locator(".tabs-container .tab", { hasText: /^Session [0-9a-f]{8}/ });
      await expectVisible(tab, "the session information's tab");
      const text = await waitUntil(async () => {
        // The editor renders spaces as no-break spaces.
        const t = (await page.locator(".editor-instance .view-lines").last().innerText()).replace(/\u00a0/g, " ");
        return t.includes("Tokens") ? t : undefined;
      }, "the session information's text");
      const id = lines.find((l) => l.type === "session")?.id as string;
      const users = lines.filter((l) => l.type === "message" && (l.message as { role?: string }).role === "user");
      assert.match(text, /Session Info/);
      assert.ok(text.includes(`ID: ${id}`), text);
      assert.ok(text.includes(`File: ${demo().sessionFile}`), text);
      assert.ok(text.includes(`User: ${users.length}`), text);
      assert.ok(text.includes(`Assistant: ${replies.length}`), text);
      assert.equal(fake().requests.length, requests, "neither went to the model");
      assert.equal(await input().inputValue(), "");
    }),
  );
});
