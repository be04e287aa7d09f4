/**
 * End to end in code-server: Agent: Export Session to HTML asks where (VS Code's own save dialog), writes the page
 * and says so; the page, opened from the file in the same Chromium, shows the session without fetching anything.
 */
import assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { DEMO_IDS } from "../../demo/generate-demo.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import {
  expectVisible,
  notificationsText,
  quickInput,
  runCommand,
  screenshot,
  waitUntil,
  UI_TIMEOUT_MS,
} from "../util/workbench.js";

const { demo, step, page, openAgentTree } = demoWorkbenchSuite({ name: "export" });

describe("Export Session to HTML (code-server)", { timeout: 10 * 60_000 }, () => {
  it(
    "the save dialog, the page written and announced, the page working offline",
    step("export", async () => {
      await openAgentTree();
      await runCommand(page(), "Agent: Export Session to HTML");
      // VS Code's simple save dialog (code-server has no native one): a quick input holding the path.
      const input = quickInput(page()).locator(".quick-input-box input");
      await expectVisible(input, "the save dialog");
      // The palette closes and the dialog opens in the same widget: wait for the suggested name.
      await waitUntil(
        async () => ((await input.inputValue()).endsWith(".html") ? true : undefined),
        "the save dialog suggesting a page name",
      );
      const target = join(demo().workspace, "exported-session.html");
      await input.fill(target);
      await input.press("Enter");
      await waitUntil(
        async () =>
          /Exported \d+ KB to .*exported-session\.html/.test(await notificationsText(page())) ? true : undefined,
        "the done notification",
        UI_TIMEOUT_MS,
      );
      assert.ok(existsSync(target) && statSync(target).size > 10_000, "the page is on disk");
      await screenshot(page(), "export-01-done");

      const view = await page().context().newPage();
      try {
        const errors: string[] = [];
        const external: string[] = [];
        view.on("pageerror", (e) => errors.push(e.message));
        view.on("console", (m) => {
          if (m.type() === "error") errors.push(m.text());
        });
        await view.route("**/*", async (route) => {
          const url = route.request().url();
          if (url.startsWith("file:") || url.startsWith("data:")) await route.continue();
          else {
            external.push(url);
            await route.abort();
          }
        });
        await view.goto(pathToFileURL(target).href);
        await view.waitForSelector("body[data-ready=true]", { timeout: UI_TIMEOUT_MS });
        await expectVisible(view.locator(`#messages .msg.target[data-id="${demo().leafId}"]`), "the leaf's path");
        await expectVisible(view.locator(`#tree .row[data-id="${DEMO_IDS.askFlag}"]`), "the first row in the tree");
        // The bundled highlighter, offline: the file read shows in its language once its fold opens.
        const read = view.locator(`#messages .msg[data-id="${DEMO_IDS.readResult}"] details`);
        await read.locator("summary").click();
        await expectVisible(read.locator("code.hljs .hljs-keyword").first(), "the file read, highlighted");
        const entries = await view.locator("#messages .msg").count();
        assert.equal(await view.locator("#messages button.copy-link").count(), entries, "a link button per entry");
        assert.deepEqual(errors, [], "no script errors");
        assert.deepEqual(external, [], "no requests beyond the file");
      } finally {
        await view.close();
      }
    }),
  );
});
