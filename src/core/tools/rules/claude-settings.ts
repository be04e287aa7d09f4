/**
 * The permission rules a user already wrote for Claude Code in the project: `.claude/settings.json` (shared) and
 * `.claude/settings.local.json` (personal), their `permissions.allow`, `permissions.ask` and `permissions.deny`.
 * Read only in a trusted workspace (the host decides): a cloned repository must not allow itself commands.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { errorText } from "../../error-text.js";
import type { RuleListName } from "./tool-rules.js";

/** The files read, relative to the workspace folder. */
export const CLAUDE_SETTINGS_FILES = [".claude/settings.json", ".claude/settings.local.json"] as const;

/** One rule and where it was written. */
export interface SourcedRule {
  rule: string;
  list: RuleListName;
  /** The file, relative to the workspace (`.claude/settings.json`). */
  source: string;
}

/** The rules found, and what could not be read. */
export interface ClaudeRules {
  rules: SourcedRule[];
  issues: string[];
}

const LISTS: readonly RuleListName[] = ["allow", "ask", "deny"];

/** Reads both files; a missing file is no issue, a malformed one is reported and skipped. */
export async function readClaudeRules(cwd: string): Promise<ClaudeRules> {
  const out: ClaudeRules = { rules: [], issues: [] };
  for (const rel of CLAUDE_SETTINGS_FILES) {
    let text: string;
    try {
      text = await readFile(path.join(cwd, rel), "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") out.issues.push(`${rel}: ${errorText(e)}`);
      continue;
    }
    const errors: ParseError[] = [];
    const json: unknown = parse(text, errors, { allowTrailingComma: true });
    if (errors.length > 0) {
      out.issues.push(`${rel}: not valid JSON (${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset})`);
      continue;
    }
    const permissions = (json as { permissions?: unknown } | null)?.permissions;
    if (permissions === undefined) continue;
    if (typeof permissions !== "object" || permissions === null) {
      out.issues.push(`${rel}: "permissions" is not an object`);
      continue;
    }
    for (const list of LISTS) {
      const value = (permissions as Record<string, unknown>)[list];
      if (value === undefined) continue;
      if (!Array.isArray(value)) {
        out.issues.push(`${rel}: permissions.${list} is not a list`);
        continue;
      }
      for (const rule of value)
        if (typeof rule === "string" && rule.trim() !== "") out.rules.push({ rule: rule.trim(), list, source: rel });
    }
  }
  return out;
}
