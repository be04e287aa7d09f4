/**
 * Values of pi's models.json that may name a secret instead of holding it (`apiKey`, header values), resolved as pi
 * 1.6 resolves them (its resolve-config-value.js): `!command` runs the command through the shell and takes its
 * trimmed output, at request time and not cached (pi's docs/models.md), without blocking the extension host;
 * `$NAME` and `${NAME}` are replaced by environment variables (`$$` is a literal `$`, `$!` a literal `!`);
 * anything else is literal.
 */
import { exec } from "node:child_process";

type Part = { type: "literal"; value: string } | { type: "env"; name: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*/;

/** The environment a value is resolved against. */
export type EnvLookup = (name: string) => string | undefined;

function parseTemplate(value: string): Part[] {
  const parts: Part[] = [];
  const literal = (text: string): void => {
    if (!text) return;
    const last = parts[parts.length - 1];
    if (last?.type === "literal") last.value += text;
    else parts.push({ type: "literal", value: text });
  };
  let i = 0;
  while (i < value.length) {
    const dollar = value.indexOf("$", i);
    if (dollar < 0) {
      literal(value.slice(i));
      break;
    }
    literal(value.slice(i, dollar));
    const next = value[dollar + 1];
    if (next === "$" || next === "!") {
      literal(next);
      i = dollar + 2;
    } else if (next === "{") {
      const end = value.indexOf("}", dollar + 2);
      if (end < 0) {
        literal("$");
        i = dollar + 1;
        continue;
      }
      const name = value.slice(dollar + 2, end);
      if (NAME.test(name)) parts.push({ type: "env", name });
      else literal(value.slice(dollar, end + 1));
      i = end + 1;
    } else {
      const match = NAME_PREFIX.exec(value.slice(dollar + 1));
      if (match) {
        parts.push({ type: "env", name: match[0] });
        i = dollar + 1 + match[0].length;
      } else {
        literal("$");
        i = dollar + 1;
      }
    }
  }
  return parts;
}

/** True for a `!command` value. */
export function isCommandValue(value: string): boolean {
  return value.startsWith("!");
}

/** The environment variables a value reads (none for a command). */
export function configValueEnvNames(value: string): string[] {
  if (isCommandValue(value)) return [];
  return [...new Set(parseTemplate(value).flatMap((p) => (p.type === "env" ? [p.name] : [])))];
}

/** A command's trimmed output, or undefined when it fails, prints nothing or takes over 10 s (pi's limit). */
function runCommand(command: string, env: NodeJS.ProcessEnv | undefined): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = exec(command, { encoding: "utf8", timeout: 10_000, env }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim() || undefined),
    );
    child.stdin?.end();
  });
}

/**
 * The value `value` stands for, or a clear error naming what is missing (`what`: e.g. `API key for provider
 * "ollama"`).
 */
export async function resolveConfigValue(
  value: string,
  what: string,
  env: EnvLookup,
  commandEnv?: NodeJS.ProcessEnv,
): Promise<string> {
  if (isCommandValue(value)) {
    const out = await runCommand(value.slice(1), commandEnv);
    if (out === undefined) throw new Error(`Failed to resolve ${what} from shell command: ${value.slice(1)}`);
    return out;
  }
  let resolved = "";
  const missing: string[] = [];
  for (const part of parseTemplate(value)) {
    if (part.type === "literal") resolved += part.value;
    else {
      const v = env(part.name);
      if (v === undefined || v === "") missing.push(part.name);
      else resolved += v;
    }
  }
  if (missing.length === 1) throw new Error(`Failed to resolve ${what} from environment variable: ${missing[0]}`);
  if (missing.length > 1)
    throw new Error(`Failed to resolve ${what} from environment variables: ${missing.join(", ")}`);
  return resolved;
}

/** True when every variable `value` reads is set (a command counts as configured, as in pi). */
export function isConfigValueConfigured(value: string, env: EnvLookup): boolean {
  return configValueEnvNames(value).every((name) => {
    const v = env(name);
    return v !== undefined && v !== "";
  });
}
