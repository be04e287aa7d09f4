import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { convertMcpResult } from "../../../src/core/mcp/mcp-result.js";
import { MAX_BYTES } from "../../../src/core/tools/truncate.js";

describe("MCP results as the session stores them", () => {
  it("keeps text and images, turns resources into text or images, names what it cannot show", () => {
    const r = convertMcpResult("docs", "fetch", {
      content: [
        { type: "text", text: "hello" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a.md", mimeType: "text/markdown", text: "# A" } },
        { type: "resource", resource: { uri: "file:///p.jpg", mimeType: "image/jpeg", blob: "BBBB" } },
        { type: "resource", resource: { uri: "file:///x.bin", mimeType: "application/zip", blob: "CCCC" } },
        { type: "resource_link", uri: "file:///big.log", name: "big.log", description: "the build log" },
        { type: "audio", data: "DDDD", mimeType: "audio/wav" },
      ],
    });
    assert.deepEqual(r.content, [
      { type: "text", text: "hello" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "text", text: "# A" },
      { type: "image", data: "BBBB", mimeType: "image/jpeg" },
      { type: "text", text: "[binary resource file:///x.bin (application/zip, 3 B) omitted]" },
      { type: "text", text: '[Resource file:///big.log "big.log": the build log]' },
      { type: "text", text: "[audio audio/wav (3 B) omitted]" },
    ]);
    assert.deepEqual(r.details, { server: "docs", tool: "fetch" });
    assert.equal(r.isError, undefined);
  });

  it("an error result stays an error and says so when the server gave no text", () => {
    const r = convertMcpResult("docs", "fetch", { content: [], isError: true });
    assert.equal(r.isError, true);
    assert.deepEqual(r.content, [{ type: "text", text: "MCP tool docs/fetch returned an error" }]);
  });

  it("structured content alone becomes its JSON", () => {
    const r = convertMcpResult("db", "count", { content: [], structuredContent: { rows: 3 } });
    assert.deepEqual(r.content, [{ type: "text", text: '{\n  "rows": 3\n}' }]);
  });

  it("cuts text to the tools' output cap and says so", () => {
    const line = "x".repeat(99);
    const text = Array.from({ length: 3000 }, () => line).join("\n");
    const r = convertMcpResult("big", "dump", { content: [{ type: "text", text }] });
    const out = r.content[0].type === "text" ? r.content[0].text : "";
    assert.ok(Buffer.byteLength(out) < MAX_BYTES + 200, `capped (${Buffer.byteLength(out)} bytes)`);
    assert.match(out, /\[Output truncated: \d+ of 3000 lines shown/);
    assert.deepEqual(r.details, { server: "big", tool: "dump", truncated: true });
  });
});
