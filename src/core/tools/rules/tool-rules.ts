/**
 * Approval rules in Claude Code's syntax (`Tool` or `Tool(specifier)`), read from the setting
 * `agentTree.tools.rules` and from a project's `.claude/settings*.json`:
 *
 * - `Bash(npm test)` exactly that command; `Bash(npm test:*)` that prefix at a word boundary; `*` anywhere matches
 *   any text (`Bash(git * main)`), and a single trailing ` *` also matches nothing (`Bash(ls *)` allows `ls`).
 * - `Edit(path)` / `Write(path)` (write and edit), `Read(path)` (read, grep, find, ls): gitignore patterns —
 *   `//abs` from the file system's root, `~/p` from the home folder, `/p` and `./p` from the workspace, `p` from the
 *   workspace with a pattern without `/` matching at any depth.
 * - `WebFetch(domain:example.com)` that host, `domain:*.example.com` its subdomains.
 * - A bare name (`Bash`, `WebFetch`, an MCP tool's name) every call of that tool. Our own tool names (`bash`,
 *   `write`, `edit`, `read`, `grep`, `find`, `ls`, `web_fetch`) work too, each for its own tool only.
 *
 * A bash command is split into its parts (shell-parts.ts): it is allowed only when every part is, and denied when
 * any part is. Deny wins over ask, ask over allow.
 */
import os from "node:os";
import path from "node:path";
import { isIgnored, parseGitignore, type IgnoreRule } from "../gitignore.js";
import { hostOf } from "../web/fetch-target.js";
import { loadShellParts } from "../lazy-parts.js";

/** The lists of a rule set. */
export type RuleListName = "allow" | "ask" | "deny";

/** Rules as written. */
export interface RuleSet {
  allow: readonly string[];
  deny: readonly string[];
  ask?: readonly string[];
}

type SpecKind = "bash" | "path" | "domain" | "none";

interface ToolClass {
  tools: readonly string[];
  spec: SpecKind;
}

const FILE_WRITES: ToolClass = { tools: ["write", "edit"], spec: "path" };
const FILE_READS: ToolClass = { tools: ["read", "grep", "find", "ls"], spec: "path" };

/** Claude Code's tool names and ours → the tools a rule covers, and what its specifier means. */
const TOOL_CLASSES: Record<string, ToolClass> = {
  Bash: { tools: ["bash"], spec: "bash" },
  bash: { tools: ["bash"], spec: "bash" },
  Edit: FILE_WRITES,
  Write: FILE_WRITES,
  MultiEdit: FILE_WRITES,
  NotebookEdit: FILE_WRITES,
  write: { tools: ["write"], spec: "path" },
  edit: { tools: ["edit"], spec: "path" },
  Read: FILE_READS,
  read: { tools: ["read"], spec: "path" },
  Grep: { tools: ["grep"], spec: "path" },
  grep: { tools: ["grep"], spec: "path" },
  Glob: { tools: ["find"], spec: "path" },
  find: { tools: ["find"], spec: "path" },
  LS: { tools: ["ls"], spec: "path" },
  ls: { tools: ["ls"], spec: "path" },
  WebFetch: { tools: ["web_fetch"], spec: "domain" },
  web_fetch: { tools: ["web_fetch"], spec: "domain" },
};

/** One rule, parsed. */
export interface ParsedRule {
  text: string;
  tools: readonly string[];
  spec: SpecKind;
  specifier?: string;
  /** Why the rule does nothing here (a malformed rule, a specifier on a tool that takes none). */
  problem?: string;
}

/** Parses `Tool` or `Tool(specifier)`. */
export function parseRule(text: string): ParsedRule {
  const t = text.trim();
  const m = /^([A-Za-z0-9_.:-]+)(?:\((.*)\))?$/s.exec(t);
  if (!m) return { text, tools: [], spec: "none", problem: "not Tool or Tool(specifier)" };
  const [, name, specifier] = m;
  const cls = TOOL_CLASSES[name];
  const tools = cls?.tools ?? [name];
  const spec = cls?.spec ?? "none";
  if (specifier === undefined || specifier.trim() === "" || specifier.trim() === "*") return { text, tools, spec };
  if (spec === "none") return { text, tools, spec, specifier, problem: `${name} takes no specifier here` };
  if (spec === "domain" && !/^domain:\S+$/.test(specifier.trim()))
    return { text, tools, spec, specifier, problem: "expected domain:host" };
  return { text, tools, spec, specifier: specifier.trim() };
}

/** One thing a call does that a rule must cover. */
interface Subject {
  tool: string;
  kind: SpecKind;
  /** The command, the absolute path, or the host. */
  value: string;
}

function str(args: Record<string, unknown>, key: string): string | undefined {
  const v = args[key];
  return typeof v === "string" ? v : undefined;
}

/** Where a path rule's pattern is relative to, and the gitignore line it is. */
function pathPattern(spec: string, cwd: string, home: string): { root: string; rules: IgnoreRule[] } {
  let root = cwd;
  let line = spec;
  if (spec.startsWith("//")) {
    root = path.parse(cwd).root;
    line = "/" + spec.slice(2);
  } else if (spec.startsWith("~/")) {
    root = home;
    line = "/" + spec.slice(2);
  } else if (spec.startsWith("./")) {
    line = "/" + spec.slice(2);
  }
  return { root, rules: parseGitignore(line) };
}

function pathMatches(spec: string, abs: string, cwd: string, home: string): boolean {
  const { root, rules } = pathPattern(spec, cwd, home);
  if (rules.length === 0) return false;
  const rel = path.relative(root, abs).split(path.sep).join("/");
  if (rel === "" || rel.startsWith("../") || rel === ".." || path.isAbsolute(rel)) return false;
  if (isIgnored(rules, rel, false)) return true;
  // As in git, what is inside a matched folder is matched.
  const parts = rel.split("/");
  for (let i = 1; i < parts.length; i++) if (isIgnored(rules, parts.slice(0, i).join("/"), true)) return true;
  return false;
}

function bashMatches(spec: string, command: string): boolean {
  if (spec.endsWith(":*") && !spec.slice(0, -2).includes("*")) {
    const prefix = spec.slice(0, -2);
    return command === prefix || command.startsWith(prefix + " ");
  }
  const stars = spec.split("*").length - 1;
  const escape = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
  if (stars === 1 && spec.endsWith(" *"))
    return new RegExp(`^${escape(spec.slice(0, -2))}(?: .*)?$`, "s").test(command);
  return new RegExp(`^${spec.split("*").map(escape).join(".*")}$`, "s").test(command);
}

function domainMatches(spec: string, host: string): boolean {
  const want = spec.slice("domain:".length).toLowerCase().replace(/\.$/, "");
  const h = host.toLowerCase().replace(/\.$/, "");
  if (want.startsWith("*.")) return h.endsWith(want.slice(1));
  return h === want;
}

/** Does `rule` cover `subject`? */
function covers(rule: ParsedRule, s: Subject, cwd: string, home: string): boolean {
  if (rule.problem !== undefined || !rule.tools.includes(s.tool)) return false;
  if (rule.specifier === undefined) return true;
  if (rule.spec !== s.kind) return false;
  if (s.kind === "bash") return bashMatches(rule.specifier, s.value);
  if (s.kind === "path") return pathMatches(rule.specifier, s.value, cwd, home);
  if (s.kind === "domain") return domainMatches(rule.specifier, s.value);
  return false;
}

/** A tool call as rules see it. */
export interface RuleCall {
  toolName: string;
  args: Record<string, unknown>;
  /** The workspace folder (paths and relative patterns are relative to it). */
  cwd: string;
  /** Default: the user's home folder. */
  home?: string;
}

/**
 * What a call does, in parts; `understood: false` for a bash command that is not (then its whole text is the one
 * part, which only a deny, an ask or a bare `Bash` rule can match).
 */
async function subjectsOf(call: RuleCall): Promise<{ subjects: Subject[]; understood: boolean }> {
  const { toolName, args, cwd } = call;
  const at = (p: string | undefined): string => path.resolve(cwd, p ?? ".");
  switch (toolName) {
    case "bash": {
      const command = str(args, "command") ?? "";
      const { shellParts } = await loadShellParts();
      const parts = await shellParts(command);
      if (!parts) return { subjects: [{ tool: "bash", kind: "bash", value: command.trim() }], understood: false };
      return {
        subjects: [
          ...parts.commands.map((value): Subject => ({ tool: "bash", kind: "bash", value })),
          ...parts.writes.map((w): Subject => ({ tool: "write", kind: "path", value: at(w) })),
        ],
        understood: true,
      };
    }
    case "write":
    case "edit":
    case "read":
    case "grep":
    case "find":
    case "ls":
      return { subjects: [{ tool: toolName, kind: "path", value: at(str(args, "path")) }], understood: true };
    case "web_fetch": {
      let host = "";
      try {
        host = hostOf(new URL(str(args, "url") ?? ""));
      } catch {
        // Not a URL: no domain rule covers it (the tool refuses it anyway).
      }
      return { subjects: [{ tool: "web_fetch", kind: "domain", value: host }], understood: host !== "" };
    }
    default:
      return { subjects: [{ tool: toolName, kind: "none", value: "" }], understood: true };
  }
}

/** What the rules say about a call. */
export type RuleVerdict =
  | { kind: "deny"; rule: string }
  | { kind: "ask"; rule: string }
  | { kind: "allow"; rules: string[] }
  /** No rule decides: the usual approval applies. */
  | { kind: "none" };

/** Judges a call: deny if any part is denied, ask if any part must ask, allow if every part is allowed. */
export async function judgeCall(call: RuleCall, rules: RuleSet): Promise<RuleVerdict> {
  const home = call.home ?? os.homedir();
  const { subjects, understood } = await subjectsOf(call);
  const parsed = (list: readonly string[] | undefined): ParsedRule[] => (list ?? []).map(parseRule);
  const find = (list: ParsedRule[], s: Subject): ParsedRule | undefined =>
    list.find((r) => covers(r, s, call.cwd, home));
  const deny = parsed(rules.deny);
  const ask = parsed(rules.ask);
  const allow = parsed(rules.allow);
  for (const s of subjects) {
    const r = find(deny, s);
    if (r) return { kind: "deny", rule: r.text };
  }
  for (const s of subjects) {
    const r = find(ask, s);
    if (r) return { kind: "ask", rule: r.text };
  }
  const used: string[] = [];
  for (const s of subjects) {
    // A command not understood is allowed only by a rule for every call of the tool.
    const r = understood
      ? find(allow, s)
      : allow.find((a) => a.specifier === undefined && covers(a, s, call.cwd, home));
    if (!r) return { kind: "none" };
    if (!used.includes(r.text)) used.push(r.text);
  }
  return { kind: "allow", rules: used };
}

/** First words that never make a safe prefix on their own: run anything their arguments say. */
const WHOLE_COMMAND_ONLY = new Set([
  "bash",
  "sh",
  "zsh",
  "fish",
  "dash",
  "python",
  "python3",
  "node",
  "deno",
  "bun",
  "ruby",
  "perl",
  "php",
  "eval",
  "exec",
  "source",
  ".",
  "sudo",
  "su",
  "doas",
  "env",
  "xargs",
  "rm",
  "npx",
]);
/** Second words after which the third names what runs (`npm run lint`). */
const RUNNERS = new Set(["run", "exec", "x", "dlx", "run-script"]);

/** The rule offered for one command: its prefix (`npm test`, `npm run lint`, `git status`), or the whole command. */
function commandRule(command: string): string | undefined {
  if (command.includes("*") || /[\n\r]/.test(command)) return undefined;
  const words = command.split(" ");
  const isSub = (w: string | undefined): w is string => w !== undefined && /^[a-z][a-z0-9:_-]*$/.test(w);
  const first = words[0];
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) return `Bash(${command})`;
  let prefix = [first];
  if (isSub(words[1])) {
    prefix = [first, words[1]];
    if (RUNNERS.has(words[1]) && isSub(words[2])) prefix.push(words[2]);
  }
  if (prefix.length === 1 && WHOLE_COMMAND_ONLY.has(first))
    return words.length === 1 ? `Bash(${first})` : `Bash(${command})`;
  return `Bash(${prefix.join(" ")}:*)`;
}

/** The rule offered for a file: its folder (`Edit(src/core/**)`), a file at the top `Edit(./README.md)`. */
function fileRule(abs: string, cwd: string): string | undefined {
  const rel = path.relative(cwd, abs).split(path.sep).join("/");
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel) || /[*?[\]\\]/.test(rel)) return undefined;
  const dir = path.posix.dirname(rel);
  return dir === "." ? `Edit(./${rel})` : `Edit(${dir}/**)`;
}

/**
 * The rules that "Always Allow in This Workspace" would add so that this call (and its like) runs without asking:
 * one per part not allowed yet. Empty when no rule can cover the call (a command not understood, a file outside
 * the workspace, a web_fetch of a local address — which the caller never offers).
 */
export async function suggestRules(call: RuleCall, rules: RuleSet): Promise<string[]> {
  const home = call.home ?? os.homedir();
  const { subjects, understood } = await subjectsOf(call);
  if (!understood) return [];
  const allow = rules.allow.map(parseRule);
  const out: string[] = [];
  for (const s of subjects) {
    if (allow.some((r) => covers(r, s, call.cwd, home))) continue;
    let rule: string | undefined;
    if (s.tool === "bash") rule = commandRule(s.value);
    else if (s.kind === "path" && (s.tool === "write" || s.tool === "edit")) rule = fileRule(s.value, call.cwd);
    else if (s.kind === "domain") rule = `WebFetch(domain:${s.value.toLowerCase()})`;
    if (rule === undefined) return [];
    if (!out.includes(rule)) out.push(rule);
  }
  return out;
}
