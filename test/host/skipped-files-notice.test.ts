/**
 * Skipped instruction, skill and template files are said once each: every one on its own line in the output
 * channel, all the new ones of a load in one chat status line (the chat shows one status at a time), the untrusted
 * notice with them.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_NAMED_IN_CHAT, SkippedFilesNotice } from "../../src/host/prompt/skipped-files-notice.js";

function recorder(): { chat: [string, string][]; log: [string, string][]; notice: SkippedFilesNotice } {
  const chat: [string, string][] = [];
  const log: [string, string][] = [];
  const notice = new SkippedFilesNotice({
    chat: (text, kind) => chat.push([text, kind]),
    log: (text, kind) => log.push([text, kind]),
  });
  return { chat, log, notice };
}

describe("the skipped-files notice", () => {
  it("one file: its message in the chat as an error line and in the log as a warning", () => {
    const { chat, log, notice } = recorder();
    notice.say(["Skipped /w/AGENTS.md: it is a link that leads outside /w"]);
    assert.deepEqual(chat, [["Skipped /w/AGENTS.md: it is a link that leads outside /w", "error"]]);
    assert.deepEqual(log, [["Skipped /w/AGENTS.md: it is a link that leads outside /w", "warning"]]);
  });

  it("several: one chat line naming the first few and counting the rest; every one in the log", () => {
    const { chat, log, notice } = recorder();
    const messages = Array.from({ length: MAX_NAMED_IN_CHAT + 2 }, (_, i) => `Skipped /w/f${i}: it is a FIFO`);
    notice.say(messages, "This workspace is not trusted.");
    assert.equal(chat.length, 1);
    const [text, kind] = chat[0];
    assert.equal(kind, "error");
    assert.ok(text.startsWith(`${messages.length} files were skipped: Skipped /w/f0: it is a FIFO · `));
    assert.ok(text.includes(messages[MAX_NAMED_IN_CHAT - 1]));
    assert.ok(!text.includes(messages[MAX_NAMED_IN_CHAT]));
    assert.match(text, /and 2 more \(see the Agent Tree output channel\) — This workspace is not trusted\.$/);
    assert.deepEqual(
      log.map(([, k]) => k),
      [...messages.map(() => "warning"), "info"],
    );
  });

  it("says nothing again: a later load with the same files posts nothing, a new one only the new file", () => {
    const { chat, notice } = recorder();
    notice.say(["a"], "untrusted");
    notice.say(["a"], "untrusted");
    assert.equal(chat.length, 1);
    notice.say(["a", "b"], "untrusted");
    assert.deepEqual(chat.at(-1), ["b", "error"]);
    notice.say([], "other info");
    assert.deepEqual(chat.at(-1), ["other info", "info"]);
  });
});
