import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KeyRedactor } from "../../../src/core/agent/key-redactor.js";

describe("KeyRedactor", () => {
  const stored = "sk-stored-0123456789abcdef";
  const fromEnv = "sk-env-0123456789abcdef0123";

  it("replaces learned and environment keys in text and details, leaves images and other text alone", () => {
    const r = new KeyRedactor(() => [fromEnv]);
    r.learn(stored);
    const out = r.redact({
      content: [
        { type: "text", text: `a ${stored} b ${fromEnv}${fromEnv}` },
        { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
      ],
      isError: true,
      details: { nested: [{ line: `key=${stored}` }], count: 3 },
    });
    assert.deepEqual(out, {
      content: [
        { type: "text", text: "a [redacted] b [redacted][redacted]" },
        { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
      ],
      isError: true,
      details: { nested: [{ line: "key=[redacted]" }], count: 3 },
    });
  });

  it("ignores dummy keys of local servers, so their names stay readable in output", () => {
    const r = new KeyRedactor(() => ["lm-studio"]);
    r.learn("ollama");
    r.learn(undefined);
    const result = { content: [{ type: "text" as const, text: "ollama and lm-studio are running" }] };
    assert.deepEqual(r.redact(result), result);
  });
});
