/** Shared helpers for the session store tests: pi fixtures and pi's resume rule (sessions are built with test/util/session-builder.ts). */
import * as fs from "node:fs";
import * as path from "node:path";
import type { AgentMessage } from "../../../src/core/index.js";
import { readJsonl } from "../../util/session-builder.js";

/** Copy a pi fixture into `dir`; returns the copy's path (fixtures are read-only and shared). */
export function copyFixture(name: string, dir: string): string {
  const target = path.join(dir, name.replace(/\.v1\.jsonl$/, ".jsonl"));
  fs.copyFileSync(path.join(__dirname, "../../fixtures/pi", name), target);
  fs.chmodSync(target, 0o644);
  return target;
}

/**
 * pi's resume rule, re-implemented for the compatibility tests: the leaf is the LAST line of the file;
 * the path walks parentId up from it; context as pi builds it.
 */
export function piLeafPath(file: string): Record<string, unknown>[] {
  const lines = readJsonl(file).slice(1);
  const byId = new Map(lines.map((e) => [e.id as string, e]));
  const out: Record<string, unknown>[] = [];
  let cur: Record<string, unknown> | undefined = lines[lines.length - 1];
  while (cur) {
    out.push(cur);
    cur = cur.parentId === null ? undefined : byId.get(cur.parentId as string);
  }
  return out.reverse();
}

/** The message a `compaction` line puts first in pi's context (the reference readers of these tests build it so). */
export function compactionSummaryOf(line: Record<string, unknown>): AgentMessage {
  return {
    role: "compactionSummary",
    summary: line.summary as string,
    tokensBefore: line.tokensBefore as number,
    timestamp: Date.parse(line.timestamp as string),
  };
}
