/** The services' late-bound parts (src/host/common/late.ts): read too early, they say which part. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Late } from "../../src/host/common/late.js";

test("a late part read before it is built throws, naming it; once set, it is what was set", () => {
  const late = new Late<{ n: number }>("the operations table");
  assert.throws(() => late.get(), /^Error: the operations table is used before it is built$/);
  assert.equal(late.peek(), undefined);
  const part = { n: 1 };
  late.set(part);
  assert.equal(late.get(), part);
  assert.equal(late.peek(), part);
  assert.throws(() => late.set({ n: 2 }), /^Error: the operations table is built twice$/);
  assert.equal(late.get(), part);
});
