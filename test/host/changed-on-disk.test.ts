/**
 * pi takes no lock: when it appends to the session open here, our next write notices, and the user is told once
 * what it means. Both programs' lines stay in the file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { readJsonl } from "../util/session-builder.js";
import { createHarness } from "./controller-harness.js";

const tmp = tempDirPerTest();

test("pi appending to the open session is said once, at our next write, with what it means; nothing is lost", async () => {
  const h = createHarness();
  const sm = await SessionManager.create(tmp.dir, tmp.dir);
  sm.appendMessage({ role: "user", content: "q", timestamp: 1 });
  await h.controller.attach(sm);
  const file = sm.getSessionFile()!;
  const leaf = sm.getLeafId();
  const piLine = { type: "message", id: "pi000001", parentId: leaf, timestamp: new Date().toISOString() };
  fs.appendFileSync(
    file,
    `${JSON.stringify({ ...piLine, message: { role: "user", content: "from pi", timestamp: 2 } })}\n`,
  );
  sm.appendMessage({ role: "user", content: "from here", timestamp: 3 });
  sm.appendMessage({ role: "user", content: "and again", timestamp: 4 });
  assert.equal(h.errors.length, 1, h.errors.join("\n"));
  assert.match(h.errors[0], /written by another program \(pi\?\) while it is open here/);
  assert.match(h.errors[0], /Nothing is lost/);
  await h.controller.close();
  const texts = readJsonl(file).map((l) => (l.message as { content?: unknown } | undefined)?.content);
  assert.deepEqual(texts.slice(1), ["q", "from pi", "from here", "and again"]);
});
