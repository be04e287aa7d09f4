/**
 * End to end, in a real VS Code (code-server + Chromium), the models other extensions bring
 * (test/fixtures/models-extension, installed beside Agent Tree as a .vsix):
 * - VS Code's language models: the fixture registers a chat model provider with `vscode.lm`
 *   (registerLanguageModelChatProvider, VS Code >= 1.104; skipped on the oldest code-server, whose VS Code 1.100 has no
 *   such API). Agent: Select Model lists its model under the vendor's name, a chat with it streams a reply, and a
 *   tool call through it runs our `read` tool and the result goes back to the model; the session stores the reply
 *   under the vendor's provider.
 * - Logins: the fixture adds, through Agent Tree's API (registerModelProvider), a pi-ai provider made with
 *   `createProvider` whose only auth is a fake OAuth login. Agent: Log In… runs it (device code, a typed code), the
 *   credential is stored, the first request refreshes the expired token and uses the new one, the next request the
 *   stored refreshed one, and Agent: Log Out… removes it (the picker offers to log in again).
 * - Agent: Next Model cycles the short list (`agentTree.models.enabled`, pi's `enabledModels`: both local models).
 * - A tool that reads the token finds it redacted; no access or refresh token appears in the session files, the
 *   extension's logs or the chat webview.
 * Screenshots in test-results/e2e/models-host-*.png.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { chatView, MODEL_TIMEOUT_MS, readSession, sendAndAwait, sendPrompt, sessionFiles } from "../util/agent-ui.js";
import { CODE_SERVER, REPO_ROOT } from "../util/code-server.js";
import { vscodeVersion } from "../util/code-server-install.js";
import { DEMO_MODEL } from "../../demo/generate-demo.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import {
  answerInputBox,
  expectVisible,
  pickQuickItemContaining,
  quickInput,
  quickPickRows,
  runCommand,
  screenshot,
  waitUntil,
} from "../util/workbench.js";

/** The fixture's tokens (test/fixtures/models-extension/extension.js). */
const ACCESS_1 = "fake-oauth-access-token-first-3f9c1d7e5b";
const ACCESS_2 = "fake-oauth-access-token-refreshed-8a2e6c4f0d";
const REFRESH_1 = "fake-oauth-refresh-token-first-71b5e9d3c2";
const REFRESH_2 = "fake-oauth-refresh-token-second-c0d4a8f6e1";
const TOKENS = [ACCESS_1, ACCESS_2, REFRESH_1, REFRESH_2];

/** The file the VS Code model has our `read` tool read. */
const FILE = "lm-notes.txt";
const FILE_TEXT = "The word of the day is marmalade.";

/** The short list's second model (the demo's model is the first). */
const SECOND_MODEL = "Second local model";

/** VS Code's chat model provider API arrived (finalized) in 1.104. */
function hasChatProviderApi(): boolean {
  const [major = 0, minor = 0] = (vscodeVersion(CODE_SERVER) ?? "0.0").split(".").map(Number);
  return major > 1 || (major === 1 && minor >= 104);
}
const NO_LM_PROVIDER_API = hasChatProviderApi()
  ? false
  : `VS Code ${vscodeVersion(CODE_SERVER) ?? "?"} has no vscode.lm.registerLanguageModelChatProvider (since 1.104): no extension can add a chat model there`;

const { demo, fake, step, page, wb, openAgentTree } = demoWorkbenchSuite({
  name: "models-host",
  model: { chunkDelayMs: 5 },
  settings: { "agentTree.branchSummary.ask": "never" },
  newSession: true,
  isolateOtherTools: true,
  files: { [FILE]: `${FILE_TEXT}\n` },
  installExtensions: [{ folder: join(REPO_ROOT, "test", "fixtures", "models-extension") }],
  prepare(setup) {
    // A second local model, and both local models as the short list (pi's enabledModels) Agent: Next Model cycles.
    const settingsFile = join(setup.demo.workspace, ".vscode", "settings.json");
    const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
    const models = settings["agentTree.models.custom"] as Record<string, unknown>[];
    settings["agentTree.models.custom"] = [...models, { ...models[0], id: "second-model", name: SECOND_MODEL }];
    settings["agentTree.models.enabled"] = ["local/*"];
    writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + "\n");
    return { AGENT_TREE_TEST_OAUTH_BASE_URL: setup.fake?.baseURL ?? "" };
  },
});

/**
 * Picks a model in Agent: Select Model by searching for its name; returns the picker's rows as it opened (group
 * separators show only without a search) and for that search.
 */
async function selectModel(name: string): Promise<{ opened: string[]; rows: string[] }> {
  await runCommand(page(), "Agent: Select Model");
  const opened = await quickPickRows(page(), "Select Model");
  await quickInput(page()).locator(".quick-input-box input").fill(name);
  const rows = await waitUntil(async () => {
    const all = await quickPickRows(page(), "Select Model");
    return all.some((r) => r.includes(name)) ? all : undefined;
  }, `"${name}" in the model picker`);
  await pickQuickItemContaining(page(), name, name);
  return { opened, rows };
}

/** The label of the chat's model button once it names `name`. */
async function expectCurrentModel(name: string): Promise<void> {
  const chat = await chatView(page());
  await expectVisible(chat.locator(".model-picker-label", { hasText: name }), `the chat's model to be ${name}`);
}

/** What the chat's model button says now ("<name> · <provider>"). */
async function currentModelLabel(): Promise<string> {
  const chat = await chatView(page());
  return ((await chat.locator(".model-picker-label").first().textContent()) ?? "").trim();
}

/** Every file under `dir` (logs), for the search for tokens. */
function allFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

/** The assistant messages of the session files, as stored. */
function assistantMessages(): Record<string, unknown>[] {
  return sessionFiles(demo().sessionDir).flatMap((f) =>
    readSession(f).flatMap((l) => {
      const m = l.message as Record<string, unknown> | undefined;
      return l.type === "message" && m?.role === "assistant" ? [m] : [];
    }),
  );
}

describe(
  "Models of other extensions: VS Code's language models and a login (code-server)",
  { timeout: 15 * 60_000 },
  () => {
    before(async () => {
      await openAgentTree(400);
    });

    it(
      "a vscode.lm model is listed under its vendor, streams a reply and calls our read tool",
      { skip: NO_LM_PROVIDER_API },
      step("lm", async () => {
        const { opened, rows } = await selectModel("Echo LM");
        assert.ok(
          rows.some((r) => /Echo LM/.test(r) && /\d+k context · through VS Code/.test(r)),
          `the row shows its context window and that VS Code serves it:\n${rows.join("\n")}`,
        );
        assert.ok(
          opened.some((r) => r.includes("Test Models")),
          `the model is grouped under its vendor's name:\n${opened.join("\n")}`,
        );
        await screenshot(page(), "models-host-lm-picker");
        await expectCurrentModel("Echo LM");
        const chat = await chatView(page());
        // VS Code may ask once whether Agent Tree may use the other extension's models: allowed as a user would.
        const allow = page()
          .locator(".monaco-dialog-box .monaco-button", { hasText: /^Allow/ })
          .first();
        let consentAsked = false;
        void allow
          .waitFor({ state: "visible", timeout: MODEL_TIMEOUT_MS })
          .then(async () => {
            consentAsked = true;
            await allow.click();
          })
          .catch(() => undefined);
        await sendAndAwait(
          chat,
          "hello from the test",
          "LM echo: hello from the test (streamed)",
          "the VS Code model's reply",
        );
        await sendPrompt(chat, `read ${FILE}`);
        await expectVisible(
          chat.getByText(/LM saw: .*marmalade/),
          "the model's answer quoting what our read tool returned",
          MODEL_TIMEOUT_MS,
        );
        console.log(`VS Code asked for consent to use the other extension's model: ${consentAsked}`);
        await screenshot(page(), "models-host-lm-chat");
        const replies = assistantMessages().filter((m) => m.model === "echo-lm");
        assert.ok(replies.length >= 3, `three replies of the VS Code model stored, found ${replies.length}`);
        assert.ok(
          replies.every((m) => m.provider === "vscode-agent-tree-test"),
          `stored under the vendor's provider: ${replies.map((m) => String(m.provider)).join(", ")}`,
        );
        const call = replies
          .flatMap((m) => (m.content as { type: string; name?: string }[]) ?? [])
          .find((c) => c.type === "toolCall");
        assert.equal(call?.name, "read", "the model's tool call is stored as pi stores tool calls");
      }),
    );

    it(
      "Agent: Log In… runs a provider's login, the token refreshes, Agent: Log Out… removes it",
      step("login", async () => {
        await runCommand(page(), "Agent: Log In…");
        const offered = await quickPickRows(page(), "Log In");
        assert.ok(
          offered.some((r) => r.includes("Log in with the fake subscription")),
          `Log In offers the provider's login:\n${offered.join("\n")}`,
        );
        await pickQuickItemContaining(page(), "fake subscription", "Log in with the fake subscription");
        // The device code shows while the login asks for the code.
        await expectVisible(
          page().locator(".notification-list-item-message", { hasText: "FAKE-1234" }).first(),
          "the login's device code",
        );
        await answerInputBox(page(), "let-me-in");
        await screenshot(page(), "models-host-logged-in");

        const before = fake().calls.length;
        const { rows } = await selectModel("Fake Subscription Model");
        assert.ok(
          rows.some((r) => r.includes("Fake Subscription Model") && !r.includes("needs a login")),
          `the model is ready after the login:\n${rows.join("\n")}`,
        );
        await expectCurrentModel("Fake Subscription Model");
        const chat = await chatView(page());
        await sendAndAwait(chat, "hello subscription", "Echo: hello subscription", "the logged-in model's reply");
        await sendAndAwait(chat, "again please", "Echo: again please", "the second reply");
        const keys = fake()
          .calls.slice(before)
          .map((c) => c.headers.authorization);
        assert.ok(keys.length >= 2, `both requests reached the fake server (${keys.length})`);
        assert.ok(
          keys.every((k) => k === `Bearer ${ACCESS_2}`),
          "the expired token was refreshed before the first request, and the refreshed one was stored and reused",
        );

        // A file that happens to hold the login's token: our read tool's result reaches the model redacted.
        writeFileSync(join(demo().workspace, "found-token.txt"), `token=${ACCESS_2}\n`);
        await sendPrompt(chat, `/tool read ${JSON.stringify({ path: "found-token.txt" })}`);
        await expectVisible(
          chat.getByText("Tool result from read: token=[redacted]"),
          "the tool result, redacted of the stored token",
          MODEL_TIMEOUT_MS,
        );
        const sent = JSON.stringify(fake().requests[fake().requests.length - 1]);
        assert.ok(sent.includes("token=[redacted]") && !sent.includes(ACCESS_2), "the model got the redacted result");

        await runCommand(page(), "Agent: Log Out…");
        const stored = await quickPickRows(page(), "Log Out");
        assert.ok(
          stored.some((r) => r.includes("Fake Subscription")),
          `Log Out lists the login:\n${stored.join("\n")}`,
        );
        await pickQuickItemContaining(page(), "Fake Subscription", "Fake Subscription");
        await runCommand(page(), "Agent: Select Model");
        await quickInput(page()).locator(".quick-input-box input").fill("Fake Subscription");
        await waitUntil(async () => {
          const all = await quickPickRows(page(), "Select Model");
          return all.some((r) => r.includes("Log In to Fake Subscription")) || undefined;
        }, "the picker to offer Log In to Fake Subscription after the log out");
        await screenshot(page(), "models-host-logged-out");
        await page().keyboard.press("Escape");
      }),
    );

    it(
      "Agent: Next Model cycles the short list (enabledModels), as pi's Ctrl+P",
      step("next-model", async () => {
        const seen: string[] = [];
        for (let i = 0; i < 3; i++) {
          const before = await currentModelLabel();
          await runCommand(page(), "Agent: Next Model");
          seen.push(
            await waitUntil(async () => {
              const now = await currentModelLabel();
              return now !== before ? now : undefined;
            }, `the model after ${before}`),
          );
        }
        assert.ok(
          seen.every((l) => l.startsWith(DEMO_MODEL.name) || l.startsWith(SECOND_MODEL)),
          seen.join(" → "),
        );
        assert.notEqual(seen[0], seen[1], "the next model of the list");
        assert.equal(seen[2], seen[0], "the list wraps around");
      }),
    );

    it(
      "no access or refresh token is in the session files, the extension's logs or the chat",
      step("secrets", async () => {
        const chat = await chatView(page());
        const chatText = await chat.locator("body").innerText();
        const places: [string, string][] = [
          ...sessionFiles(demo().sessionDir).map((f): [string, string] => [f, readFileSync(f, "utf8")]),
          ...allFiles(join(wb().server.runDir, "ud", "logs")).map((f): [string, string] => [
            f,
            readFileSync(f, "utf8"),
          ]),
          ["the chat webview", chatText],
        ];
        assert.ok(
          places.some(([f]) => f.endsWith(".jsonl")) && places.some(([f]) => /Agent Tree\.log$/.test(f)),
          `the session file and the extension's log were searched: ${places.map(([f]) => f).join(", ")}`,
        );
        for (const [where, text] of places)
          for (const token of TOKENS) assert.ok(!text.includes(token), `${where} holds a token of the login`);
      }),
    );
  },
);
