/**
 * End to end, in a real VS Code (code-server + Chromium) with the local fake model: the demo workspace gets an
 * AGENTS.md holding a unique word and a skill in .pi/skills; the first request of a chat carries both, and the
 * workspace path, in its system message; the session file records it as a `system` entry before the user's
 * message; Agent: Show System Prompt opens it as a read-only document. The workspace also carries a
 * `.github/copilot-instructions.md -> /proc/self/environ` link, and the extension host starts with a canary key in
 * its environment: the file is skipped, the chat says which and why, and the key is in no request and not in the
 * session file.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { chatView, readSession, sendPrompt } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import type { FakeRequestBody } from "../util/fake-openai-server.js";
import { expectVisible, runCommand, screenshot, waitUntil } from "../util/workbench.js";

const WORD = "QUOKKA-4821";
const NEW_WORD = "WOMBAT-1930";
/** In the extension host's start-up environment, so `/proc/self/environ` holds it. */
const CANARY = `sk-canary-${randomBytes(16).toString("hex")}`;

const { demo, fake, step, wb, openAgentTree } = demoWorkbenchSuite({
  name: "system-prompt",
  model: { chunkDelayMs: 0 },
  isolateOtherTools: true,
  prepare({ demo }) {
    writeFileSync(join(demo.workspace, "AGENTS.md"), `# Rules of this project\n\nThe project's word is ${WORD}.\n`);
    const skill = join(demo.workspace, ".pi", "skills", "release-notes");
    mkdirSync(skill, { recursive: true });
    writeFileSync(
      join(skill, "SKILL.md"),
      "---\nname: release-notes\ndescription: Writes the release notes. Use when asked for release notes.\n---\n\nSteps.\n",
    );
    mkdirSync(join(demo.workspace, ".github"), { recursive: true });
    symlinkSync("/proc/self/environ", join(demo.workspace, ".github", "copilot-instructions.md"));
    return { CANARY_E2E_API_KEY: CANARY };
  },
});

/** The system message of an OpenAI request. */
function systemOf(body: FakeRequestBody): string {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  const first = messages[0];
  assert.equal(first?.role, "system", "the request starts with the system prompt");
  return typeof first.content === "string" ? first.content : JSON.stringify(first.content);
}

describe("the agent's instructions in VS Code (code-server)", { timeout: 10 * 60_000 }, () => {
  it(
    "the first request's system message carries AGENTS.md, the skill and the workspace path",
    step("first-request", async () => {
      const { page } = wb();
      await openAgentTree(520);
      const chat = await chatView(page);
      await sendPrompt(chat, "What is the project's word?");
      const body = await waitUntil(async () => fake().requests[0], "the model to be asked", 60_000);
      const system = systemOf(body);
      assert.ok(system.includes(WORD), "the AGENTS.md text");
      assert.ok(system.includes(`<cwd>\n${demo().workspace}\n</cwd>`), "the workspace path");
      assert.match(system, /<name>release-notes<\/name>/);
      assert.match(system, /- read: Read file contents/);

      const roleOf = (l: Record<string, unknown> | undefined): string | undefined =>
        (l?.message as { role?: string } | undefined)?.role;
      const lines = await waitUntil(async () => {
        const l = readSession(demo().sessionFile);
        return roleOf(l.at(-1)) === "assistant" ? l : undefined;
      }, "the reply to be written");
      const roles = lines.slice(-3).map(roleOf);
      assert.deepEqual(roles, ["system", "user", "assistant"], "the prompt is recorded before the user's message");
      assert.ok(JSON.stringify(lines.at(-3)).includes(WORD));
      assert.ok(!JSON.stringify(body).includes(CANARY), "the host's environment is not in the request");
      assert.ok(!readFileSync(demo().sessionFile, "utf8").includes(CANARY), "nor in the session file");
    }),
  );

  it(
    "the chat names the instruction file that was skipped and why",
    step("skipped-notice", async () => {
      const { page } = wb();
      const chat = await chatView(page);
      const status = chat.locator(".status-line", { hasText: "copilot-instructions.md" });
      await expectVisible(status, "the skipped file's notice");
      assert.match(
        (await status.textContent()) ?? "",
        /Skipped .*\.github\/copilot-instructions\.md: it is a link that leads outside/,
      );
      await screenshot(page, "system-prompt-skipped");
    }),
  );

  it(
    "a changed AGENTS.md is picked up by the watcher for a later request",
    step("watched", async () => {
      const { page } = wb();
      const chat = await chatView(page);
      writeFileSync(
        join(demo().workspace, "AGENTS.md"),
        `# Rules of this project\n\nThe project's word is ${NEW_WORD}.\n`,
      );
      // The watcher's event comes when the file system reports it: ask again (a few times, bounded) until it did.
      let system = "";
      for (let attempt = 0; attempt < 5 && !system.includes(NEW_WORD); attempt++) {
        const seen = fake().requests.length;
        await sendPrompt(chat, `And now? (${attempt})`);
        const body = await waitUntil(async () => fake().requests[seen], "the model to be asked again", 60_000);
        system = systemOf(body);
        await waitUntil(
          async () => (await chat.getByRole("button", { name: "Send" }).isVisible()) || undefined,
          "the reply to end (Send is back)",
        );
      }
      assert.ok(system.includes(NEW_WORD), "the new AGENTS.md text reaches the model");
      assert.ok(!system.includes(WORD), "the old one is gone");
    }),
  );

  it(
    "Agent: Show System Prompt opens the prompt in force as a read-only document",
    step("show", async () => {
      const { page } = wb();
      await runCommand(page, "Agent: Show System Prompt");
      const tab = page.locator(".tabs-container .tab", { hasText: "System Prompt (leaf).md" });
      await expectVisible(tab, "the system prompt's tab");
      const editor = page.locator(".editor-instance .monaco-editor").first();
      await expectVisible(editor.locator(".view-lines", { hasText: "You are a coding agent" }), "the preamble");
      await screenshot(page, "system-prompt");
    }),
  );
});
