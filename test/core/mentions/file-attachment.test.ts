/** `@` mentions: files attached as pi attaches them, the size cap, folders, binary files refused, the index. */
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import {
  AttachmentError,
  buildAttachment,
  MAX_ATTACHMENT_BYTES,
  selectionAttachment,
} from "../../../src/core/mentions/file-attachment.js";
import { FileIndex } from "../../../src/core/mentions/file-index.js";
import { mentionInText } from "../../../src/core/mentions/mention-label.js";
import { compactPreview, composeUserContent, splitAttachments } from "../../../src/core/mentions/user-content.js";
import { rowWords } from "../../../src/core/entries/row-words.js";
import { treeRowOf } from "../../../src/core/rows/tree-row.js";
import { normalizePreview, textOfContent } from "../../../src/core/session/preview.js";
import { tempDir } from "../../util/temp-dir.js";

let ws: string;
before(async () => {
  ws = await fs.realpath(tempDir("mentions-").dir);
  await fs.mkdir(path.join(ws, "src", "deep"), { recursive: true });
  await fs.mkdir(path.join(ws, "dist"), { recursive: true });
  await fs.mkdir(path.join(ws, "node_modules", "x"), { recursive: true });
  await fs.writeFile(path.join(ws, ".gitignore"), "dist/\n*.log\n");
  await fs.writeFile(path.join(ws, "src", "main.ts"), "export const answer = 42;\n");
  await fs.writeFile(path.join(ws, "src", "deep", "helper-util.ts"), "// helper\n");
  await fs.writeFile(path.join(ws, "src", "app.log"), "noise");
  await fs.writeFile(path.join(ws, "dist", "out.js"), "built");
  await fs.writeFile(path.join(ws, "big.txt"), "y".repeat(MAX_ATTACHMENT_BYTES + 5000));
  await fs.writeFile(path.join(ws, "image.bin"), Buffer.from([0x89, 0x50, 0x00, 0x01, 0x02]));
});
after(() => fs.rm(ws, { recursive: true, force: true }));

describe("attachments", () => {
  it("attaches a file's text with its path, as pi does", async () => {
    const a = await buildAttachment(ws, { path: "src/main.ts" });
    assert.equal(a.kind, "file");
    assert.equal(a.block, `<file name="${path.join(ws, "src", "main.ts")}">\nexport const answer = 42;\n\n</file>`);
    assert.equal(a.truncated, false);
  });

  it("cuts a file above the cap and says so", async () => {
    const a = await buildAttachment(ws, { path: "big.txt" });
    assert.equal(a.truncated, true);
    assert.ok(a.block.length < MAX_ATTACHMENT_BYTES + 500);
    assert.match(a.block, /\[Cut at 100 KiB of 105 KiB: read the file for the rest\.\]\n<\/file>$/);
  });

  it("refuses a binary file with the reason", async () => {
    await assert.rejects(buildAttachment(ws, { path: "image.bin" }), (e: unknown) => {
      assert.ok(e instanceof AttachmentError);
      assert.match(e.message, /@image\.bin is a binary file/);
      return true;
    });
  });

  it("refuses a missing path and one outside the workspace", async () => {
    await assert.rejects(buildAttachment(ws, { path: "nope.ts" }), /no such file or folder/);
    await assert.rejects(buildAttachment(ws, { path: "../etc/passwd" }), AttachmentError);
  });

  it("attaches a folder's listing, .gitignore honoured", async () => {
    const a = await buildAttachment(ws, { path: "src" });
    assert.equal(a.kind, "folder");
    assert.match(
      a.block,
      /^<folder name="[^"]+src">\nContents of src\/ \(\.gitignore honoured\):\napp\.log\ndeep\/\nmain\.ts\n<\/folder>$/,
    );
    const root = await buildAttachment(ws, { path: "." });
    assert.ok(!root.block.includes("node_modules"));
    assert.ok(!root.block.includes("dist/"), "ignored by the root .gitignore");
  });

  it("attaches a selection with its line range", async () => {
    const a = await buildAttachment(ws, { path: "src/main.ts", text: "answer = 42", startLine: 1, endLine: 1 });
    assert.equal(a.kind, "selection");
    assert.equal(a.block, `<file name="${path.join(ws, "src", "main.ts")}" lines="1-1">\nanswer = 42\n</file>`);
    assert.equal(selectionAttachment("/x", "z".repeat(MAX_ATTACHMENT_BYTES + 1)).truncated, true);
  });

  it("composes the user message with the typed text first and reads it back compactly", async () => {
    const file = await buildAttachment(ws, { path: "src/main.ts" });
    const sel = selectionAttachment("/w/a.ts", "x", 3, 4);
    const content = composeUserContent(
      "look at @src/main.ts",
      [file.block, sel.block],
      [{ type: "image", data: "AAAA", mimeType: "image/png" }],
    );
    assert.ok(Array.isArray(content));
    assert.deepEqual(content[0], { type: "text", text: "look at @src/main.ts" });
    assert.deepEqual(content[3], { type: "image", data: "AAAA", mimeType: "image/png" });
    const split = splitAttachments(content);
    assert.equal(split.text, "look at @src/main.ts");
    assert.deepEqual(split.attachments, [
      { kind: "file", name: path.join(ws, "src", "main.ts") },
      { kind: "selection", name: "/w/a.ts", lines: "3-4" },
      { kind: "image", name: "image/png" },
    ]);
    assert.equal(composeUserContent("plain", []), "plain");
  });
});

describe("compact display", () => {
  it("shows attachments by name in the tree's row", () => {
    const content = composeUserContent("look at @src/main.ts", [
      `<file name="/w/src/main.ts">\nexport const answer = 42;\n</file>`,
      `<folder name="/w/src">\nContents\n</folder>`,
    ]);
    const preview = normalizePreview(textOfContent(content));
    assert.equal(compactPreview(preview), "look at @src/main.ts [file main.ts]");
    assert.equal(compactPreview('x <file name="/w/a.ts" lines="3-9"> y'), "x [lines 3-9 of a.ts]");
    assert.equal(compactPreview('<folder name="/w/src"> a b'), "[folder src]");
    assert.equal(compactPreview("no attachments <b>"), "no attachments <b>");
    const row = treeRowOf({ id: "u", parentId: null, type: "message", role: "user", timestamp: "", preview });
    assert.equal(rowWords(row).text, "look at @src/main.ts [file main.ts]");
  });

  it("finds a mention only as a whole word", () => {
    assert.equal(mentionInText("see @src/ now", "@src/"), true);
    assert.equal(mentionInText("see @src/main.ts", "@src/"), false);
    assert.equal(mentionInText("(@a.ts), ok", "@a.ts"), true);
    assert.equal(mentionInText("x@a.ts", "@a.ts"), false);
  });
});

describe("the file index", () => {
  it("lists files and folders, .gitignore honoured, fuzzy and recent first", async () => {
    const index = new FileIndex([ws]);
    const all = await index.search("", 100);
    const paths = all.map((s) => s.path).sort();
    assert.deepEqual(paths, [
      ".gitignore",
      "big.txt",
      "image.bin",
      "src/",
      "src/deep/",
      "src/deep/helper-util.ts",
      "src/main.ts",
    ]);
    assert.equal((await index.search("hlpr", 5))[0].path, "src/deep/helper-util.ts");
    assert.equal((await index.search("main", 5))[0].path, "src/main.ts");
    assert.deepEqual(await index.search("zzz", 5), []);
    const recent = await index.search("", 3, [path.join(ws, "big.txt")]);
    assert.equal(recent[0].path, "big.txt");
    assert.equal(recent[0].recent, true);
    assert.equal(recent[1].recent, false);
  });

  it("narrows while typing on and widens again when the query shrinks", async () => {
    const index = new FileIndex([ws]);
    const paths = async (q: string): Promise<string[]> => (await index.search(q, 50)).map((s) => s.path).sort();
    assert.deepEqual(await paths("s"), await paths("s")); // the same twice: a cached narrowing changes nothing
    assert.deepEqual(await paths("src/m"), ["src/main.ts"]);
    assert.deepEqual(await paths("src/ma"), ["src/main.ts"]);
    assert.ok((await paths("src")).includes("src/deep/helper-util.ts"), "a shorter query scans everything again");
    assert.deepEqual(await paths("txt"), ["big.txt"]);
  });

  it("drops deleted paths at once and walks again after invalidate", async () => {
    const index = new FileIndex([ws]);
    await index.ready();
    index.remove(path.join(ws, "src", "deep"));
    assert.deepEqual(
      (await index.search("helper", 5)).map((s) => s.path),
      [],
    );
    await fs.writeFile(path.join(ws, "src", "fresh.ts"), "");
    index.invalidate();
    await index.search("fresh", 5); // starts the refresh; the old list answers meanwhile
    await index.idle();
    assert.equal((await index.search("fresh", 5))[0]?.path, "src/fresh.ts");
  });
});
