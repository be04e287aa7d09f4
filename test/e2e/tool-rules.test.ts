/**
 * End to end, in a real VS Code (code-server + Chromium), with the local fake model calling tools: `web_fetch` of
 * a page on 127.0.0.1 asks with the host named and says it is a local address (Allow and Deny only), and the result
 * is the page as Markdown; "Always Allow in This Workspace" on a `bash` call writes the rule to the workspace's
 * settings, the same command then runs without asking and another still asks; Agent: Show Tool Rules lists the rule
 * and removes it. Screenshots in test-results/e2e/tool-rules-*.png.
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { parse } from "jsonc-parser";
import type { FrameLocator } from "playwright-core";
import { chatView, MODEL_TIMEOUT_MS, readSession, sendPrompt, sessionFiles } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import {
  clickDialogButton,
  expectVisible,
  quickInput,
  quickPickRows,
  runCommand,
  screenshot,
  waitUntil,
} from "../util/workbench.js";

const PAGE = `<!doctype html><html><head><title>Local handbook</title></head><body>
<nav><a href="/">Home</a></nav>
<article><h1>Release steps</h1>
<p>Run the checks, then tag the release. The <a href="/docs/tagging.html">tagging guide</a> lists every step of it,
and this paragraph is long enough for the reader view to take it as the page's main content.</p>
<p>Each release needs a <strong>changelog</strong> entry written by whoever cut it, before the tag is pushed to the
shared repository, so that nobody has to guess what went out.</p></article></body></html>`;

const { demo, step, page, workspaceText, openAgentTree } = demoWorkbenchSuite({
  name: "tool-rules",
  model: { chunkDelayMs: 5 },
  settings: { "agentTree.branchSummary.ask": "never" },
  newSession: true,
});

/** The approval prompt of a tool in the chat. */
function approval(chat: FrameLocator, tool: string) {
  return chat.locator(`.approval[aria-label="Approve ${tool}"]`);
}

/** The texts of the session's tool results of `tool`, in order. */
function toolResults(tool: string): string[] {
  const files = sessionFiles(demo().sessionDir);
  assert.equal(files.length, 1, "one session file");
  return readSession(files[0]).flatMap((l) => {
    const m = l.message as { role?: string; toolName?: string; content?: { text?: string }[] } | undefined;
    return l.type === "message" && m?.role === "toolResult" && m.toolName === tool ? [m.content?.[0]?.text ?? ""] : [];
  });
}

/** The workspace's agentTree.tools.rules, as VS Code wrote it. */
function workspaceRules(): unknown {
  const settings = parse(workspaceText(".vscode/settings.json")) as Record<string, unknown>;
  return settings["agentTree.tools.rules"];
}

describe("web_fetch and approval rules (code-server)", { timeout: 15 * 60_000 }, () => {
  let server: http.Server;
  let base = "";
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/handbook") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await openAgentTree(400);
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it(
    "web_fetch of a page on 127.0.0.1: the approval names the host and says it is local; the result is Markdown",
    step("web-fetch", async () => {
      const chat = await chatView(page());
      await sendPrompt(chat, `/tool web_fetch ${JSON.stringify({ url: `${base}/handbook` })}`);
      const prompt = approval(chat, "web_fetch");
      await expectVisible(prompt, "the web_fetch approval", MODEL_TIMEOUT_MS);
      const text = (await prompt.innerText()).replace(/\s+/g, " ");
      assert.match(text, new RegExp(`Fetch ${base}/handbook from 127\\.0\\.0\\.1`), "the host is named");
      assert.match(text, /Local address: 127\.0\.0\.1 is a loopback address \(this computer\)/);
      assert.deepEqual(
        (await prompt.locator("vscode-button").allInnerTexts()).map((t) => t.trim()),
        ["Allow", "Deny"],
        "a local address is allowed for this call only",
      );
      await screenshot(page(), "tool-rules-web-fetch-approval");
      await prompt.locator("vscode-button", { hasText: "Allow" }).click();
      await expectVisible(
        chat.getByText(/Tool result from web_fetch: # Local handbook/),
        "the model's reply after the fetch",
        MODEL_TIMEOUT_MS,
      );
      const result = toolResults("web_fetch").at(-1) ?? "";
      assert.match(result, new RegExp(`^Source: ${base}/handbook \\(text/html, converted to Markdown\\)$`, "m"));
      assert.match(result, new RegExp(`\\[tagging guide\\]\\(${base}/docs/tagging\\.html\\)`), "links kept, absolute");
      assert.match(result, /^## Release steps$/m);
      assert.match(result, /\*\*changelog\*\*/);
      assert.doesNotMatch(result, /<p>|<article>/, "no HTML left");
    }),
  );

  it(
    "Always Allow in This Workspace on bash: the rule is written to the workspace; the same command runs without asking, another asks",
    step("always-allow", async () => {
      const chat = await chatView(page());
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the previous run to end", MODEL_TIMEOUT_MS);
      const call = (command: string): string => `/tool bash ${JSON.stringify({ command })}`;
      await sendPrompt(chat, call("echo first-run"));
      const prompt = approval(chat, "bash");
      await expectVisible(prompt, "the bash approval", MODEL_TIMEOUT_MS);
      assert.match(
        (await prompt.innerText()).replace(/\s+/g, " "),
        /Always Allow in This Workspace adds: Bash\(echo first-run:\*\)/,
      );
      await screenshot(page(), "tool-rules-bash-approval");
      await prompt.locator("vscode-button", { hasText: "Always Allow in This Workspace" }).click();
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the first run to end", MODEL_TIMEOUT_MS);
      assert.deepEqual(toolResults("bash"), ["first-run"]);
      await waitUntil(
        async () => (JSON.stringify(workspaceRules()).includes("Bash(echo first-run:*)") ? true : undefined),
        "the rule in the workspace's settings",
      );
      assert.deepEqual(workspaceRules(), { allow: ["Bash(echo first-run:*)"], deny: [] });

      // Nothing is clicked: were it to ask, the run would wait and the result never come.
      await sendPrompt(chat, call("echo first-run"));
      await waitUntil(async () => (toolResults("bash").length === 2 ? true : undefined), "the same command to run");
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the second run to end", MODEL_TIMEOUT_MS);
      assert.equal(await approval(chat, "bash").count(), 0);

      await sendPrompt(chat, call("echo second-run"));
      await expectVisible(approval(chat, "bash"), "another command's approval", MODEL_TIMEOUT_MS);
      assert.match(await approval(chat, "bash").innerText(), /echo second-run/);
      await approval(chat, "bash").locator("vscode-button", { hasText: "Deny" }).click();
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the denied run to end", MODEL_TIMEOUT_MS);
      assert.equal(toolResults("bash").length, 3);
      assert.match(toolResults("bash")[2], /Refused by user/);
    }),
  );

  it(
    "Agent: Show Tool Rules lists the rule and removes it",
    step("show-rules", async () => {
      await runCommand(page(), "Agent: Show Tool Rules");
      const rows = await quickPickRows(page(), "Tool Rules");
      const row = rows.find((r) => r.includes("Bash(echo first-run:*)"));
      assert.ok(row, `the rule is listed: ${rows.join(" | ")}`);
      assert.match(row, /allow · setting agentTree\.tools\.rules/);
      await screenshot(page(), "tool-rules-list");
      await quickInput(page())
        .locator(".quick-input-list .monaco-list-row", { hasText: "Bash(echo first-run:*)" })
        .first()
        .click();
      await clickDialogButton(page(), "Remove");
      await waitUntil(
        async () => (JSON.stringify(workspaceRules() ?? {}).includes("first-run") ? undefined : true),
        "the rule to leave the workspace's settings",
      );
      assert.deepEqual(workspaceRules(), { allow: [], deny: [] });
      await waitUntil(
        async () =>
          (await quickPickRows(page(), "Tool Rules")).some((r) => r.includes("No tool rules")) ? true : undefined,
        "the list to show no rule",
      );
      await page().keyboard.press("Escape");
    }),
  );
});
