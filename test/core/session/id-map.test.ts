/**
 * IdMap (the id → position table of EntryTable) answers as the Map it replaced: on random sequences of ids —
 * repeated ones, ids that collide in few characters, long ones, enough of them to grow the table several times —
 * get, has and size agree with a Map fed the same sets, including a later position replacing an earlier one.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { IdMap } from "../../../src/core/session/id-map.js";
import type { EntryEnvelope } from "../../../src/core/session/types.js";

function envOf(id: string): EntryEnvelope {
  return { id, parentId: null, type: "message", timestamp: "", preview: "" };
}

describe("IdMap", () => {
  test("agrees with a Map on random ids, repeats and lookups of missing ids", () => {
    const idArb = fc.oneof(
      fc.stringMatching(/^[0-9a-f]{1,3}$/),
      fc.stringMatching(/^[0-9a-f]{8}$/),
      fc.uuid(),
      fc.string({ maxLength: 6 }),
    );
    fc.assert(
      fc.property(
        fc.array(idArb, { maxLength: 600 }),
        fc.array(idArb, { maxLength: 50 }),
        fc.nat(64),
        (ids, probes, capacity) => {
          const envs: EntryEnvelope[] = [];
          const map = new IdMap(envs, capacity);
          const want = new Map<string, number>();
          ids.forEach((id, i) => {
            envs.push(envOf(id));
            map.set(id, i);
            want.set(id, i);
            assert.equal(map.size, want.size);
          });
          for (const id of [...ids, ...probes]) {
            assert.equal(map.get(id), want.get(id), `get ${JSON.stringify(id)}`);
            assert.equal(map.has(id), want.has(id), `has ${JSON.stringify(id)}`);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  test("grows past its first capacity and keeps every position", () => {
    const envs: EntryEnvelope[] = [];
    const map = new IdMap(envs, 16);
    for (let i = 0; i < 70_000; i++) {
      const id = ((i * 2654435761) >>> 0).toString(16).padStart(8, "0");
      envs.push(envOf(id));
      map.set(id, i);
    }
    assert.equal(map.size, 70_000);
    for (let i = 0; i < 70_000; i += 7) assert.equal(map.get(envs[i].id), i);
    assert.equal(map.get("not an id"), undefined);
  });
});
