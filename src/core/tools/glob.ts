/** Minimal glob → RegExp (`**`, `*`, `?`, `[abc]`, `{a,b}`), enough for find/grep filters without a dependency. */

/** Compile a glob. Patterns without "/" match the base name at any depth (like fd and ripgrep). */
export function globToRegExp(glob: string): { re: RegExp; matchBase: boolean } {
  const matchBase = !glob.includes("/");
  const g = glob.replace(/^\.\//, "");
  try {
    return { re: compile(g, true), matchBase };
  } catch {
    // Unbalanced braces or a bad [range]: treat everything but * and ? literally.
    return { re: compile(g, false), matchBase };
  }
}

function compile(g: string, classesAndBraces: boolean): RegExp {
  let re = "";
  let braceDepth = 0;
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (c === "*") {
      if (g[i + 1] === "*") {
        // "**/" matches zero or more folders; a lone "**" matches anything.
        if (g[i + 2] === "/") {
          re += "(?:.*/)?";
          i += 2;
        } else {
          re += ".*";
          i += 1;
        }
      } else re += "[^/]*";
    } else if (c === "?") re += "[^/]";
    else if (!classesAndBraces) re += c.replace(/[.+^$()|\\[\]{}]/g, "\\$&");
    else if (c === "[") {
      const end = g.indexOf("]", i + 1);
      if (end === -1) re += "\\[";
      else {
        let cls = g.slice(i + 1, end).replace(/\\/g, "\\\\");
        if (cls.startsWith("!")) cls = "^" + cls.slice(1);
        re += `[${cls}]`;
        i = end;
      }
    } else if (c === "{") {
      braceDepth++;
      re += "(?:";
    } else if (c === "}" && braceDepth > 0) {
      braceDepth--;
      re += ")";
    } else if (c === "," && braceDepth > 0) re += "|";
    else re += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  if (braceDepth !== 0) throw new Error("unbalanced braces");
  return new RegExp(`^${re}$`);
}

/** Test a workspace-relative path (forward slashes) against a compiled glob. */
export function globMatch(compiled: { re: RegExp; matchBase: boolean }, relPath: string): boolean {
  if (compiled.re.test(relPath)) return true;
  if (compiled.matchBase) {
    const base = relPath.slice(relPath.lastIndexOf("/") + 1);
    return compiled.re.test(base);
  }
  return false;
}
