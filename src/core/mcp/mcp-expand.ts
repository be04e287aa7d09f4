/**
 * `${VAR}` and `$VAR` in MCP `env` and `headers` values, filled from the environment when a server starts, as
 * pi does (`$$` is a literal `$`). A missing variable is an error naming it: sending a header with an empty
 * token would fail later with a far less useful message. A variable the caller refuses (a model key, for an entry
 * of a project file) is an error naming it too: the server does not start rather than start without it. A leading
 * `~/` in a command, argument or cwd is the home folder.
 */
import * as os from "node:os";
import * as path from "node:path";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;

/** `value` with its variables filled in, or the names of those that are refused, or else not set. */
export function expandVars(
  value: string,
  env: NodeJS.ProcessEnv,
  isRefused: (name: string) => boolean = () => false,
): { value: string } | { missing: string[] } | { refused: string[] } {
  let out = "";
  const missing: string[] = [];
  const refused: string[] = [];
  for (let i = 0; i < value.length;) {
    const dollar = value.indexOf("$", i);
    if (dollar < 0) {
      out += value.slice(i);
      break;
    }
    out += value.slice(i, dollar);
    const next = value[dollar + 1];
    if (next === "$") {
      out += "$";
      i = dollar + 2;
      continue;
    }
    let name: string | undefined;
    let end = dollar + 1;
    if (next === "{") {
      const close = value.indexOf("}", dollar + 2);
      const inner = close < 0 ? "" : value.slice(dollar + 2, close);
      if (close >= 0 && NAME.exec(inner)?.[0] === inner) {
        name = inner;
        end = close + 1;
      }
    } else {
      const m = NAME.exec(value.slice(dollar + 1));
      if (m) {
        name = m[0];
        end = dollar + 1 + name.length;
      }
    }
    if (name === undefined) {
      out += "$";
      i = dollar + 1;
      continue;
    }
    const v = env[name];
    if (isRefused(name)) {
      if (!refused.includes(name)) refused.push(name);
    } else if (v === undefined || v === "") {
      if (!missing.includes(name)) missing.push(name);
    } else out += v;
    i = end;
  }
  return refused.length ? { refused } : missing.length ? { missing } : { value: out };
}

/** The names of the variables `value` reads, in order, each once. */
export function namedVars(value: string): string[] {
  const r = expandVars(value, {}, () => true);
  return "refused" in r ? r.refused : [];
}

/** Why variables were refused, for the error of `expandMap` (after "… names ${A}, "). */
export interface RefusedVars {
  isRefused: (name: string) => boolean;
  /** E.g. "a model key, which a project's MCP entry is not given; …". */
  why: string;
}

/** Every value of `map` expanded; throws naming the server, the field and the refused or missing variables. */
export function expandMap(
  map: Readonly<Record<string, string>>,
  env: NodeJS.ProcessEnv,
  what: string,
  refuse?: RefusedVars,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) {
    const r = expandVars(v, env, refuse?.isRefused);
    if ("refused" in r)
      throw new Error(`${what} "${k}" names ${r.refused.map((n) => `\${${n}}`).join(", ")}, ${refuse?.why ?? ""}`);
    if ("missing" in r)
      throw new Error(`${what} "${k}" names ${r.missing.map((n) => `\${${n}}`).join(", ")}, which is not set`);
    out[k] = r.value;
  }
  return out;
}

/** `~/x` → `<home>/x`; anything else unchanged. */
export function expandHome(value: string): string {
  return value === "~" ? os.homedir() : value.startsWith("~/") ? path.join(os.homedir(), value.slice(2)) : value;
}
