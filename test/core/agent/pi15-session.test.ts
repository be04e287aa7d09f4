/**
 * Continuing sessions pi 1.5 wrote: messages whose content is null or missing (a hand-edited or old file) and
 * recorded system prompts. The next prompt goes to the model (the real openai client, a fake server) without
 * a TypeError, and pi's prompt is not sent: the extension's own system prompt is.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { newAgent, openAIModel } from "./helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { assistant } from "../../util/session-builder.js";

describe("continuing a pi 1.5 session", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("messages without content and system messages: the next prompt reaches the model", async () => {
    const file = path.join(tmp.dir, "pi15.jsonl");
    const at = (n: number): string => new Date(Date.UTC(2026, 4, 1, 9, 0, n)).toISOString();
    const { content: _dropped, ...noContent } = assistant("gone");
    const lines = [
      { type: "session", version: 3, id: "019a", timestamp: at(0), cwd: tmp.dir },
      {
        type: "message",
        id: "s1",
        parentId: null,
        timestamp: at(1),
        message: { role: "system", content: "", sections: { intro: "You are pi, PI-PROMPT-MARKER." }, timestamp: 1 },
      },
      { type: "message", id: "u1", parentId: "s1", timestamp: at(2), message: { role: "user", timestamp: 2 } },
      { type: "message", id: "a1", parentId: "u1", timestamp: at(3), message: noContent },
      {
        type: "message",
        id: "a2",
        parentId: "a1",
        timestamp: at(4),
        message: { ...assistant("", [{ id: "c1", name: "read", args: { path: "x" } }]), content: null },
      },
      {
        type: "message",
        id: "t1",
        parentId: "a2",
        timestamp: at(5),
        message: {
          role: "toolResult",
          toolCallId: "c1",
          toolName: "read",
          content: null,
          isError: false,
          timestamp: 5,
        },
      },
    ];
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const sm = await SessionManager.open(file);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake), systemPrompt: "EXTENSION-PROMPT" });
    fake.enqueue({ text: "Continuing." });
    await agent.prompt("go on");
    assert.deepEqual(
      events.filter((e) => e.type === "error"),
      [],
    );
    const request = JSON.stringify(fake.requests.at(-1)?.messages);
    assert.match(request, /go on/);
    assert.match(request, /EXTENSION-PROMPT/, "the extension's own prompt is sent");
    assert.doesNotMatch(request, /PI-PROMPT-MARKER/, "pi's recorded prompt is not");
    const leaf = sm.getLeafEntry();
    assert.ok(leaf?.type === "message" && leaf.message.role === "assistant");
    await sm.close();
  });
});
