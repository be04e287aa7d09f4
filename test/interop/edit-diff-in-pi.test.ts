/**
 * The diff our `edit` tool records (src/core/tools/edit-diff.ts) against pi's own `generateDiffString` (its edit
 * tool's, from the real pi 0.73.1 package; pi 1.6 formats the same way): for random files and random edits of one
 * region — lines replaced, inserted, deleted, text changed inside a line — both give the same text, so pi's page and
 * ours show an edit of either the same way.
 */
import assert from "node:assert/strict";
import * as path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { applyEdit } from "../../src/core/tools/file-change.js";
import { editDiff } from "../../src/core/tools/edit-diff.js";
import { ensurePiReleases } from "../../tools/pi/index.js";

type GenerateDiff = (before: string, after: string) => { diff: string; firstChangedLine: number | undefined };

async function piGenerateDiff(): Promise<GenerateDiff> {
  const { legacy } = ensurePiReleases();
  const file = path.join(path.dirname(legacy.sessionManager), "tools", "edit-diff.js");
  const mod = (await import(pathToFileURL(file).href)) as { generateDiffString: GenerateDiff };
  return mod.generateDiffString;
}

/** Lines that are all different, so a minimal line diff has one answer (pi's jsdiff cannot align them otherwise). */
const fileLines = fc
  .integer({ min: 1, max: 30 })
  .map((n) => Array.from({ length: n }, (_, i) => `line ${i + 1} of the file`));

test("our edit diff is pi's generateDiffString for random edits of one region", async () => {
  const generate = await piGenerateDiff();
  fc.assert(
    fc.property(
      fileLines,
      fc.boolean(),
      fc.nat(),
      fc.nat(),
      fc.array(fc.integer({ min: 1, max: 99 }), { maxLength: 6 }),
      fc.boolean(),
      (lines, finalBreak, a, b, added, insideLine) => {
        const before = lines.join("\n") + (finalBreak ? "\n" : "");
        const start = a % lines.length;
        const end = start + (b % (lines.length - start));
        let oldText: string;
        let newText: string;
        if (insideLine) {
          // A word inside one line changes.
          oldText = `line ${start + 1} of`;
          newText = added.length > 0 ? `LINE ${added.join(" ")} of` : "of";
        } else {
          // Whole lines start..end replaced by new ones (or removed).
          oldText = lines.slice(start, end + 1).join("\n") + "\n";
          if (end === lines.length - 1 && !finalBreak) oldText = oldText.slice(0, -1);
          newText = added.map((n) => `new line ${n}`).join("\n");
          if (newText !== "" && oldText.endsWith("\n")) newText += "\n";
        }
        const edit = applyEdit(before, oldText, newText);
        assert.ok(edit.ok);
        const ours = editDiff(before, edit.after, edit.index, edit.oldText, edit.newText);
        const theirs = generate(before, edit.after);
        assert.equal(ours.diff, theirs.diff, `before:\n${before}\nafter:\n${edit.after}`);
        if (theirs.firstChangedLine !== undefined) assert.equal(ours.firstChangedLine, theirs.firstChangedLine);
      },
    ),
    { numRuns: 300, seed: 4242 },
  );
});
