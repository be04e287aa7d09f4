/**
 * getTree() links children straight from the parent positions (EntryIndex.linkChildren) when the per-entry child
 * lists were not built yet: the order must be the one getChildIds() gives (oldest first, file order breaking
 * ties), for any tree and any timestamps — out of file order, equal, unparsable — before and after those lists
 * exist.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, test } from "node:test";
import fc from "fast-check";
import { SessionManager, type SessionTreeNode } from "../../../src/core/index.js";
import { entryLine, headerLine, jsonl, type Line } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

let dir: string;
let cleanup: () => void;
before(() => ({ dir, cleanup } = tempDir()));
after(() => cleanup());

/** Children ids of every node, by id. */
function childLists(roots: readonly SessionTreeNode[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop() as SessionTreeNode;
    out.set(
      node.entry.id,
      node.children.map((c) => c.entry.id),
    );
    stack.push(...node.children);
  }
  return out;
}

test("getTree's children are in getChildIds' order, before and after the child lists are built", async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ parent: fc.nat(), second: fc.integer({ min: -1, max: 5 }), root: fc.boolean() }), {
        minLength: 1,
        maxLength: 40,
      }),
      async (specs) => {
        const lines: Line[] = specs.map((s, i) => {
          const parent = i === 0 || s.root ? null : `e${s.parent % i}`;
          // Times out of file order and equal ones; -1: not a date at all.
          const time = s.second < 0 ? "not a time" : new Date(Date.UTC(2026, 0, 1, 0, 0, s.second)).toISOString();
          return entryLine("message", `e${i}`, parent, time, {
            message: { role: "user", content: `m${i}`, timestamp: i },
          });
        });
        const file = path.join(dir, `t${run++}.jsonl`);
        fs.writeFileSync(file, jsonl([headerLine("s"), ...lines]));
        const sm = await SessionManager.open(file, { readOnly: true });
        try {
          const fresh = childLists(sm.getTree());
          for (const [id, kids] of fresh) assert.deepEqual(kids, sm.getChildIds(id), `children of ${id}`);
          assert.deepEqual(childLists(sm.getTree()), fresh, "after the child lists were built");
        } finally {
          await sm.close();
        }
      },
    ),
    { numRuns: 200 },
  );
});
