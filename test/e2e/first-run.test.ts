/**
 * End to end, in a real VS Code (code-server + Chromium): the first run of a daily user. A fresh browser profile and
 * VS Code user-data folder, a home folder and pi agent folder of their own (no `~/.pi` login or setting; only pi's
 * `models.json` sends Anthropic's models to a fake Anthropic server on 127.0.0.1, so nothing leaves the machine),
 * no key in the environment, a workspace without sessions:
 * 1. the Agent sidebar shows an empty tree and a chat that says why it cannot send yet, with Set API Key and Log In…,
 *    Send off (the box takes a draft) — never "undefined" or a stack;
 * 2. Set API Key from that notice → Anthropic → a key (a wrong one, as users mistype): the notice goes, the chat's
 *    model button names the model and provider; the first prompt gets HTTP 401, the chat says authentication failed
 *    for Anthropic, the Output channel logs it and a notification offers Set API Key for Anthropic; the user's prompt
 *    and the failed reply are in the session file;
 * 3. that offer → the right key → the same session's next prompt is answered (the key reached the server);
 * 4. a slow first token shows the chat waiting for the model, and Abort stops it; a reply that stalls mid-text is
 *    aborted (the partial reply kept as aborted); a stream cut mid-reply is said so
 *    (the partial reply kept as failed), and each time the next prompt is answered;
 * 5. no key is in the session file, the extension's logs or the chat.
 * Screenshots in test-results/e2e/first-run-*.png.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, after, describe, it } from "node:test";
import {
  chatInput,
  chatView,
  MODEL_TIMEOUT_MS,
  readSession,
  sendAndAwait,
  sendPrompt,
  sessionFiles,
  treeView,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { startFakeAnthropic } from "../util/fake-anthropic-server.js";
import type { FakeServer } from "../util/fake-provider-common.js";
import {
  answerInputBox,
  expectVisible,
  openViewContainer,
  pickQuickItem,
  quickInput,
  screenshot,
  waitUntil,
} from "../util/workbench.js";

/** The key the fake server takes, and the mistyped one entered first. */
const RIGHT_KEY = "sk-ant-firstrun-right-4c1f9e7a2b6d";
const WRONG_KEY = "sk-ant-firstrun-wrong-0b8d3a5c7e1f";

let fake: FakeServer | undefined;
const server = (): FakeServer => {
  if (!fake) throw new Error("the fake Anthropic server did not start");
  return fake;
};
before(async () => {
  fake = await startFakeAnthropic({ apiKey: RIGHT_KEY });
});
after(async () => {
  await fake?.close();
});

/** Every file under `dir` (logs), for the search for keys. */
function allFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

/** The messages of the session files, as stored. */
function storedMessages(sessionDir: string): Record<string, unknown>[] {
  return sessionFiles(sessionDir).flatMap((f) =>
    readSession(f).flatMap((l) => (l.type === "message" ? [l.message as Record<string, unknown>] : [])),
  );
}

describe("The first run: no model, no key, no session", { timeout: 15 * 60_000 }, () => {
  // Inside the suite: its start-up runs after the file's `before`, which started the fake server.
  const { demo, page, step, wb } = demoWorkbenchSuite({
    name: "first-run",
    model: "none",
    newSession: true,
    isolateOtherTools: true,
    prepare: ({ tmp, piAgentDir }) => {
      const home = join(tmp, "home");
      mkdirSync(home, { recursive: true });
      mkdirSync(piAgentDir, { recursive: true });
      // pi's way to put a provider behind a proxy: every Anthropic model goes to the fake server.
      writeFileSync(
        join(piAgentDir, "models.json"),
        JSON.stringify({ providers: { anthropic: { baseUrl: server().baseURL } } }),
      );
      return { HOME: home, ANTHROPIC_OAUTH_TOKEN: "", ANTHROPIC_AUTH_TOKEN: "", GEMINI_API_KEY: "" };
    },
  });

  it(
    "the sidebar says what to do: an empty tree, and a chat that asks for a key, Send off",
    step("empty", async () => {
      await openViewContainer(page(), "Agent");
      await treeView(page());
      const chat = await chatView(page());
      const notice = chat.locator(".notice");
      await expectVisible(notice, "the chat's notice that no model can be called");
      const text = (await notice.innerText()).trim();
      assert.match(text, /No model available/);
      assert.match(text, /Set API Key/);
      assert.match(text, /Log In/, "a subscription is offered too");
      assert.doesNotMatch(text, /undefined|Error:|\bat \S+:\d+/, "no stack or 'undefined' in the notice");
      // The box still takes a draft; sending waits for a model.
      assert.equal(await chatInput(chat).getAttribute("placeholder"), "Sending is unavailable (see above)");
      assert.equal(await chat.getByRole("button", { name: "Send" }).getAttribute("disabled"), "");
      assert.equal(await chat.locator(".chat-empty").count(), 0, "no invitation to start what cannot be sent");
      await screenshot(page(), "first-run-empty");
      // Log In… lists the subscription logins (nothing is logged in to here: the pick is closed).
      await notice.locator("vscode-button", { hasText: "Log In…" }).click();
      await expectVisible(
        quickInput(page()).locator(".quick-input-list .monaco-list-row", { hasText: "Claude Pro/Max" }),
        "the Log In pick offering Claude Pro/Max",
      );
      await page().keyboard.press("Escape");
      await quickInput(page()).waitFor({ state: "hidden" });
    }),
  );

  it(
    "Set API Key from the notice; a wrong key's 401 is said in the chat and offers Set API Key for Anthropic",
    step("wrong-key", async () => {
      const chat = await chatView(page());
      await chat.locator(".notice vscode-button", { hasText: "Set API Key" }).click();
      await pickQuickItem(page(), "Anthropic");
      await answerInputBox(page(), WRONG_KEY);
      await waitUntil(
        async () => ((await chat.locator(".notice").count()) === 0 ? true : undefined),
        "the notice to go once a key is stored",
      );
      const label = ((await chat.locator(".model-picker-label").first().textContent()) ?? "").trim();
      assert.match(label, / · anthropic$/, `the model button names the provider: "${label}"`);
      // The thinking picker shows the level the requests carry (a model that always reasons has no "off").
      const level = await chat.locator(".thinking-picker").getAttribute("current-value");
      assert.ok(level, "the thinking picker shows a level");
      assert.equal(
        await chat.locator(".thinking-picker vscode-option", { hasText: `Thinking: ${level}` }).count(),
        1,
        `the level shown (${level}) is one of the picker's`,
      );
      await sendPrompt(chat, "Hello from the first run");
      await expectVisible(
        chat.locator(".msg-error", { hasText: /Authentication failed for anthropic \(HTTP 401\)/ }),
        "the chat's failure row saying the key was refused",
        MODEL_TIMEOUT_MS,
      );
      const offer = page().locator(".notifications-toasts .notification-toast", {
        hasText: /Authentication failed for anthropic/,
      });
      await expectVisible(offer, "a notification offering to set the key again");
      await expectVisible(
        offer.locator(".monaco-button", { hasText: "Set API Key for Anthropic" }),
        "the notification's Set API Key for Anthropic button",
      );
      const log = allFiles(join(wb().server.runDir, "ud", "logs"))
        .filter((f) => f.endsWith("Agent Tree.log"))
        .map((f) => readFileSync(f, "utf8"))
        .join("\n");
      assert.match(log, /Model call failed \(auth\): Authentication failed for anthropic \(HTTP 401\)/);
      await screenshot(page(), "first-run-401");
      const messages = storedMessages(demo().sessionDir);
      const user = messages.find((m) => m.role === "user");
      assert.ok(user && JSON.stringify(user.content).includes("Hello from the first run"), "the prompt is stored");
      const failed = messages.find((m) => m.role === "assistant");
      assert.equal(failed?.stopReason, "error", "the failed reply is stored as pi stores one");
      assert.match(String(failed?.errorMessage), /HTTP 401/);
    }),
  );

  it(
    "the offer takes the right key, and the next prompt of the same session is answered",
    step("right-key", async () => {
      const offer = page().locator(".notifications-toasts .notification-toast", {
        hasText: /Authentication failed for anthropic/,
      });
      await offer.locator(".monaco-button", { hasText: "Set API Key for Anthropic" }).click();
      await answerInputBox(page(), RIGHT_KEY);
      const chat = await chatView(page());
      await expectVisible(chatInput(chat), "the chat input");
      await sendAndAwait(chat, "Say hello", "Echo: Say hello", "the fake model's echo of the second prompt");
      const keys = server().calls.map((c) => c.headers["x-api-key"]);
      assert.deepEqual([keys[0], keys.at(-1)], [WRONG_KEY, RIGHT_KEY], "the wrong key first, then the right one");
      const assistants = storedMessages(demo().sessionDir).filter((m) => m.role === "assistant");
      assert.equal(assistants.at(-1)?.stopReason, "stop");
      assert.equal(assistants.at(-1)?.provider, "anthropic");
      // The key's progress notification ended with the key's entry.
      await waitUntil(
        async () =>
          (await page().locator(".notification-toast", { hasText: "API Key for Anthropic" }).count()) === 0
            ? true
            : undefined,
        "the key's progress notification to close",
      );
      await screenshot(page(), "first-run-answered");
    }),
  );

  it(
    "a slow first token: the chat says it waits for the model; Abort before it or mid-text keeps the prompt; the next prompt is answered",
    step("abort", async () => {
      const chat = await chatView(page());
      // Its first word comes after 30 s: the user aborts long before.
      server().enqueue({ text: "Too late", chunks: 1, chunkDelayMs: 30_000 });
      await sendPrompt(chat, "A slow question");
      await expectVisible(
        chat.locator(".chat-waiting", { hasText: /Waiting for .+… \(Escape or Abort stops it\)/ }),
        "the chat waiting for the model's first token",
      );
      await screenshot(page(), "first-run-waiting");
      await chat.getByRole("button", { name: "Abort" }).click();
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the run to end");
      assert.equal(await chat.locator(".chat-waiting").count(), 0);
      const before = storedMessages(demo().sessionDir).slice(-2);
      assert.match(JSON.stringify(before[0]?.content), /A slow question/, "the prompt is kept");
      assert.equal(before[1]?.stopReason, "aborted", "the empty reply is kept as aborted");

      server().enqueue({ stall: true, text: "Half an answer" });
      await sendPrompt(chat, "A long question");
      await expectVisible(chat.getByText("Half an answer"), "the partial reply", MODEL_TIMEOUT_MS);
      await expectVisible(chat.locator('[role="progressbar"]'), "the chat's progress bar while it works");
      await chat.getByRole("button", { name: "Abort" }).click();
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the run to end");
      const aborted = storedMessages(demo().sessionDir).at(-1);
      assert.equal(aborted?.stopReason, "aborted", "the partial reply is kept as aborted, as pi keeps it");
      assert.match(JSON.stringify(aborted?.content), /Half an answer/);
      await sendAndAwait(chat, "After the abort", "Echo: After the abort", "the answer after the abort");
    }),
  );

  it(
    "a stream cut mid-reply says the connection was lost and keeps the partial reply; the next prompt is answered",
    step("cut", async () => {
      const chat = await chatView(page());
      server().enqueue({ cutAfterChunks: 3, text: "Words before the connection drops and the rest never comes" });
      await sendPrompt(chat, "Tell me more");
      await expectVisible(
        chat.locator(".msg-error", { hasText: /was lost mid-reply|ended before the reply was complete/ }),
        "the failure row of the cut reply",
        MODEL_TIMEOUT_MS,
      );
      const cut = storedMessages(demo().sessionDir).at(-1);
      assert.equal(cut?.stopReason, "error");
      assert.match(JSON.stringify(cut?.content), /Words before/);
      await expectVisible(chat.locator(".status-line.status-error"), "the failure's status line");
      await sendAndAwait(chat, "Once more", "Echo: Once more", "the answer after the cut");
      assert.equal(await chat.locator(".status-line.status-error").count(), 0, "the next run cleared the old failure");
      await screenshot(page(), "first-run-cut");
    }),
  );

  it(
    "no key is in the session file, the extension's logs or the chat",
    step("secrets", async () => {
      const chat = await chatView(page());
      const places: [string, string][] = [
        ...sessionFiles(demo().sessionDir).map((f): [string, string] => [f, readFileSync(f, "utf8")]),
        ...allFiles(join(wb().server.runDir, "ud", "logs")).map((f): [string, string] => [f, readFileSync(f, "utf8")]),
        ["the chat webview", await chat.locator("body").innerText()],
      ];
      assert.ok(
        places.some(([f]) => f.endsWith(".jsonl")) && places.some(([f]) => /Agent Tree\.log$/.test(f)),
        `the session file and the extension's log were searched: ${places.map(([f]) => f).join(", ")}`,
      );
      for (const [where, text] of places)
        for (const key of [RIGHT_KEY, WRONG_KEY]) assert.ok(!text.includes(key), `${where} holds a key`);
    }),
  );
});
