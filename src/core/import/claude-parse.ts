/** Reads a Claude Code transcript line by line, keeping every usable line and reporting the rest. */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { ClaudeLine, ClaudeParseIssue, ClaudeRecord } from "./claude-types.js";
import { errorText } from "../error-text.js";

/** Lines of a transcript that parsed, and the ones that did not. */
export interface ClaudeParseResult {
  records: ClaudeRecord[];
  issues: ClaudeParseIssue[];
}

/** Parse one line; returns a reason string when it is unusable. */
export function parseClaudeLine(text: string): ClaudeLine | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `invalid JSON: ${errorText(err)}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not a JSON object";
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") return 'missing "type"';
  return value as ClaudeLine;
}

/** Parse a whole transcript held in memory. */
export function parseClaudeText(text: string): ClaudeParseResult {
  const records: ClaudeRecord[] = [];
  const issues: ClaudeParseIssue[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) addLine(lines[i], i + 1, records, issues);
  return { records, issues };
}

/** Stream a transcript file (they grow to hundreds of MB, so never one big string). */
export async function parseClaudeFile(path: string): Promise<ClaudeParseResult> {
  const records: ClaudeRecord[] = [];
  const issues: ClaudeParseIssue[] = [];
  const rl = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) addLine(line, ++n, records, issues);
  return { records, issues };
}

function addLine(raw: string, line: number, records: ClaudeRecord[], issues: ClaudeParseIssue[]): void {
  const text = raw.trim();
  if (text === "") return;
  const parsed = parseClaudeLine(text);
  if (typeof parsed === "string") issues.push({ line, reason: parsed });
  else records.push({ line, data: parsed });
}
