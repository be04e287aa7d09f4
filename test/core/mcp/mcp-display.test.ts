import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitMcpToolName, toolLabel, toolLabels } from "../../../src/core/mcp/mcp-display.js";
import { rowWords } from "../../../src/core/entries/row-words.js";
import { type TreeRow } from "../../../src/core/rows/tree-row.js";

describe("MCP tool labels in rows", () => {
  it("names an MCP tool as server/tool and leaves other tools alone", () => {
    assert.deepEqual(splitMcpToolName("mcp__docs__search_pages"), { server: "docs", tool: "search_pages" });
    assert.equal(splitMcpToolName("read"), undefined);
    assert.equal(toolLabel("mcp__files__read_text_file"), "files/read_text_file");
    assert.equal(toolLabel("bash"), "bash");
    assert.equal(toolLabels("read, mcp__docs__search"), "read, docs/search");
  });

  it("a tool result row and a tool-calls row show the tool's server", () => {
    const base = { id: "a", parentId: null, timestamp: "", preview: "echo: hi" } as unknown as TreeRow;
    assert.deepEqual(rowWords({ ...base, kind: "toolResult", toolName: "mcp__fx__echo" } as TreeRow), {
      role: "tool fx/echo:",
      text: "echo: hi",
    });
    assert.deepEqual(
      rowWords({ ...base, kind: "assistant", toolCallsOnly: true, toolName: "mcp__fx__echo, read" } as TreeRow),
      { role: "assistant:", text: "[tool calls: fx/echo, read]" },
    );
  });
});
