/**
 * Switching sessions while the agent runs (Open Session…, New Session): the run is stopped and its session closed;
 * the prompt and the reply so far stay in the first session's file, and its lock is released.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { startFakeOpenAI } from "../util/fake-openai-server.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { readJsonl } from "../util/session-builder.js";
import { createHarness, tick } from "./controller-harness.js";

const tmp = tempDirPerTest();

test("a session switch while a reply streams stops the run; prompt and partial reply stay in the file, lock released", async () => {
  const fake = await startFakeOpenAI();
  try {
    fake.enqueue({ stall: true, text: "The first half of a long ans" });
    const h = createHarness({ fakeBaseURL: fake.baseURL });
    const first = await SessionManager.create(tmp.dir, tmp.dir);
    await h.controller.attach(first);
    const file = first.getSessionFile()!;
    const run = h.controller.agent!.prompt("explain everything");
    const errors: unknown[] = [];
    run.catch((e: unknown) => errors.push(e));
    // Until the partial reply reached the chat (bounded: the fake sends it at once).
    const started = (): boolean => JSON.stringify(h.chat).includes("The first half");
    for (let i = 0; i < 2000 && !started(); i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(started(), "the reply never reached the chat");

    await h.controller.attach(SessionManager.inMemory(tmp.dir));
    await run.catch(() => undefined);
    await tick();

    const lines = readJsonl(file).filter((l) => l.type === "message") as { message: Record<string, unknown> }[];
    assert.deepEqual(
      lines.map((l) => l.message.role),
      ["user", "assistant"],
      "the prompt and the stopped reply are in the first session's file",
    );
    const last = lines[1].message as { stopReason?: string; content?: { type: string; text?: string }[] };
    assert.equal(last.stopReason, "aborted");
    assert.match(JSON.stringify(last.content), /The first half of a long ans/);
    // The lock is released: the file opens for writing again (as pi, or another window, would write it).
    const again = await SessionManager.open(file);
    assert.equal(again.isReadOnly(), false);
    await again.close();
    assert.ok(fs.existsSync(file));
    await h.controller.close();
  } finally {
    await fake.close();
  }
});
