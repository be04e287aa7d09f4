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

  it("a single line over the cap keeps the cap's worth of its text, with a note", () => {
    // 72 KB of minified JSON on one line, as a search API answers.
    const json = JSON.stringify(Array.from({ length: 4000 }, (_, i) => ({ id: i, name: `item ${i}` })));
    assert.ok(Buffer.byteLength(json) > 72_000);
    const r = convertMcpResult("api", "search", { content: [{ type: "text", text: json }] });
    const out = r.content[0].type === "text" ? r.content[0].text : "";
    assert.ok(out.startsWith(json.slice(0, 40_000)), "the head of the line is kept");
    assert.ok(Buffer.byteLength(out) >= MAX_BYTES - 1024, `about the cap's worth (${Buffer.byteLength(out)} bytes)`);
    assert.ok(Buffer.byteLength(out) < MAX_BYTES + 400, `no more than the cap (${Buffer.byteLength(out)} bytes)`);
    assert.match(out.slice(-200), /\[Output truncated: .*line 1 .*cut at 50\.0 KB of \d+\.\d KB/);
    assert.deepEqual(r.details, { server: "api", tool: "search", truncated: true });
    // A multi-byte character is never split.
    const wide = "é".repeat(40_000);
    const w = convertMcpResult("api", "wide", { content: [{ type: "text", text: wide }] });
    const wout = w.content[0].type === "text" ? w.content[0].text : "";
    assert.ok(!wout.includes("\uFFFD"));
    assert.match(wout, /^é+\n\n\[Output truncated/);
  });

  it("images are type-checked and capped like pasted ones; what is refused is named, not stored", () => {
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${"<g/>".repeat(1_500_000)}</svg>`).toString(
      "base64",
    );
    assert.ok(svg.length > 8_000_000);
    const bigPng = "A".repeat(5 * 1024 * 1024);
    const r = convertMcpResult("draw", "render", {
      content: [
        { type: "text", text: "rendered" },
        { type: "image", data: svg, mimeType: "image/svg+xml" },
        { type: "image", data: bigPng, mimeType: "image/png" },
        { type: "image", data: "not base64!", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///x.tiff", mimeType: "image/tiff", blob: "AAAA" } },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
    });
    const texts = r.content.flatMap((c) => (c.type === "text" ? [c.text] : []));
    const images = r.content.filter((c) => c.type === "image");
    assert.deepEqual(images, [{ type: "image", data: "AAAA", mimeType: "image/png" }], "only the valid image is kept");
    const all = texts.join("\n");
    assert.match(all, /\[image image\/svg\+xml \(\d+\.\d MB\) omitted: images of type image\/svg\+xml cannot be sent/);
    assert.match(all, /\[image image\/png \(\d+\.\d MB\) omitted: the image is 5\.0 MiB of base64 data, more than/);
    assert.match(all, /\[image image\/png \(\d+ B\) omitted: the image data is not base64\]/);
    assert.match(all, /\[image image\/tiff .*omitted: images of type image\/tiff cannot be sent/);
    assert.ok(JSON.stringify(r).length < 10_000, "nothing of the refused images is stored");
  });

  it("at most as many images as one message carries", () => {
    const content = Array.from({ length: 12 }, () => ({ type: "image" as const, data: "AAAA", mimeType: "image/png" }));
    const r = convertMcpResult("cam", "frames", { content });
    assert.equal(r.content.filter((c) => c.type === "image").length, 8);
    assert.match(JSON.stringify(r.content), /4 more images omitted \(at most 8 per result\)/);
  });
});
