/**
 * A .gitignore matcher (git's rules, no dependency): comments, `!` negation, trailing `/` for folders only,
 * a leading or inner `/` anchoring the pattern to the .gitignore's folder, `*`, `?`, `[a-z]`, `**`, and `\`
 * escapes. Paths are workspace-relative with forward slashes. Like git, a path inside an ignored folder
 * stays ignored whatever later rules say; that part is the walker's job (it never enters ignored folders).
 */

/** One compiled line of a .gitignore file. */
export interface IgnoreRule {
  /** Folder of the .gitignore, workspace-relative ("" for the root). */
  base: string;
  /** `!pattern`: re-include what an earlier rule ignored. */
  negate: boolean;
  /** Trailing `/`: matches folders only. */
  dirOnly: boolean;
  /** No `/` in the pattern: matched against the base name at any depth below `base`. */
  matchBase: boolean;
  re: RegExp;
}

/** Parse a .gitignore's text; `base` is its folder, workspace-relative ("" or "." for the root). */
export function parseGitignore(text: string, base = ""): IgnoreRule[] {
  const folder = base === "." ? "" : base.replace(/\/+$/, "");
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split("\n")) {
    const rule = compileLine(rawLine.replace(/\r$/, ""), folder);
    if (rule) rules.push(rule);
  }
  return rules;
}

function compileLine(line: string, base: string): IgnoreRule | undefined {
  if (line === "" || line.startsWith("#")) return undefined;
  let p = trimTrailingSpaces(line);
  let negate = false;
  if (p.startsWith("!")) {
    negate = true;
    p = p.slice(1);
  }
  let dirOnly = false;
  if (p.endsWith("/") && !p.endsWith("\\/")) {
    dirOnly = true;
    p = p.replace(/\/+$/, "");
  }
  if (p === "") return undefined;
  // A "/" at the start or in the middle anchors the pattern to the .gitignore's folder.
  const matchBase = !p.includes("/");
  if (p.startsWith("/")) p = p.slice(1);
  const source = globBody(p);
  if (source === undefined) return undefined; // an unterminated [ never matches in git
  return { base, negate, dirOnly, matchBase, re: new RegExp(`^${source}$`) };
}

/** Trailing spaces are dropped unless escaped with a backslash. */
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " ") {
    let slashes = 0;
    for (let i = end - 2; i >= 0 && line[i] === "\\"; i--) slashes++;
    if (slashes % 2 === 1) break; // "\ " keeps this space
    end--;
  }
  return line.slice(0, end);
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

/** Translate a gitignore glob (without `!`, leading and trailing `/`) into a RegExp body. */
function globBody(p: string): string | undefined {
  let re = "";
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") {
      // "\x" is a literal x; a trailing lone backslash matches nothing in git.
      if (i + 1 >= p.length) return undefined;
      re += p[++i].replace(REGEX_SPECIAL, "\\$&");
    } else if (c === "*") {
      let j = i;
      while (p[j + 1] === "*") j++;
      const stars = j - i + 1;
      const atSegmentStart = i === 0 || p[i - 1] === "/";
      const atSegmentEnd = j + 1 === p.length || p[j + 1] === "/";
      if (stars >= 2 && atSegmentStart && atSegmentEnd) {
        if (j + 1 === p.length) {
          // "x/**" everything inside x; a lone "**" everything.
          re += ".*";
        } else {
          // "**/" zero or more folders.
          re += "(?:.*/)?";
          j++; // swallow the "/"
        }
      } else re += "[^/]*"; // other runs of stars are plain stars
      i = j;
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const cls = bracket(p, i);
      if (!cls) return undefined;
      re += cls.re;
      i = cls.end;
    } else re += c.replace(REGEX_SPECIAL, "\\$&");
  }
  return re;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: "a-zA-Z0-9",
  alpha: "a-zA-Z",
  blank: " \\t",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "\\x21-\\x7e",
  lower: "a-z",
  print: "\\x20-\\x7e",
  punct: "!-\\/:-@\\[-`{-~",
  space: " \\t\\n\\r\\f\\v",
  upper: "A-Z",
  xdigit: "0-9a-fA-F",
};

/** A `[...]` expression starting at `start`; never matches "/". undefined when unterminated. */
function bracket(p: string, start: number): { re: string; end: number } | undefined {
  let i = start + 1;
  let negate = false;
  if (p[i] === "!" || p[i] === "^") {
    negate = true;
    i++;
  }
  let body = "";
  let first = true;
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === "]" && !first) return { re: negate ? `[^/${body}]` : `(?!/)[${body}]`, end: i };
    first = false;
    if (c === "[" && p[i + 1] === ":") {
      const close = p.indexOf(":]", i + 2);
      const name = close > 0 ? p.slice(i + 2, close) : "";
      if (name in POSIX_CLASSES) {
        body += POSIX_CLASSES[name];
        i = close + 1;
        continue;
      }
    }
    if (c === "\\" && i + 1 < p.length) {
      body += classChar(p[++i]); // "\d" is a literal d here, not a digit class
      continue;
    }
    // "-" between two characters stays a range; elsewhere it is literal.
    body += c === "-" && body !== "" && p[i + 1] !== "]" ? "-" : classChar(c);
  }
  return undefined;
}

/** A literal character inside a JS character class. */
function classChar(c: string): string {
  return /[\]\\[^-]/.test(c) ? "\\" + c : c;
}

/**
 * Decide `rel` (workspace-relative, forward slashes) against rules ordered from the shallowest .gitignore
 * to the deepest, each file's lines in order: the last rule that matches wins. Only the path itself is
 * tested, not its parent folders (see the file comment).
 */
export function isIgnored(rules: readonly IgnoreRule[], rel: string, isDir: boolean): boolean {
  for (let i = rules.length - 1; i >= 0; i--) {
    const r = rules[i];
    if (r.dirOnly && !isDir) continue;
    let sub = rel;
    if (r.base) {
      if (!rel.startsWith(r.base + "/")) continue;
      sub = rel.slice(r.base.length + 1);
    }
    const subject = r.matchBase ? sub.slice(sub.lastIndexOf("/") + 1) : sub;
    if (r.re.test(subject)) return !r.negate;
  }
  return false;
}
