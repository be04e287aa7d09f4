/**
 * Removes known key values from tool results before they reach the session file, events or a view. The tools
 * already run without keys in their environment; this is the second line for a key that a command finds
 * elsewhere (a file, another process's `/proc/<pid>/environ`).
 */
import type { ToolResult } from "../tools/types.js";

/** What a key is replaced by. */
export const REDACTED = "[redacted]";

/**
 * Shorter values are not treated as keys: local servers take dummy keys such as "ollama" or "lm-studio", and
 * blanking every mention of those words would garble output. Real provider keys are far longer.
 */
const MIN_KEY_LENGTH = 16;

function redactValue(value: unknown, keys: readonly string[], depth: number): unknown {
  if (typeof value === "string") {
    let out = value;
    for (const k of keys) if (out.includes(k)) out = out.split(k).join(REDACTED);
    return out;
  }
  // Tool details are small JSON objects; the bound only guards against a pathological one.
  if (typeof value !== "object" || value === null || depth > 32) return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, keys, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, keys, depth + 1)]));
}

/** Known keys: those the host handed over, plus the current values of the key variables. */
export class KeyRedactor {
  private readonly learned = new Set<string>();

  /** @param envKeys the values of the key variables, read at each use (see `keyEnvValues`). */
  constructor(private readonly envKeys: () => readonly string[]) {}

  /** Remember a key (from the host's secret store); short or missing values are ignored. */
  learn(key: string | undefined): void {
    const k = key?.trim();
    if (k && k.length >= MIN_KEY_LENGTH) this.learned.add(k);
  }

  /** `result` with every known key replaced by `REDACTED` in its text and details (images are left alone). */
  redact(result: ToolResult): ToolResult {
    const keys = [...this.learned, ...this.envKeys().filter((k) => k.length >= MIN_KEY_LENGTH)]
      // Longest first, so a key that contains another is removed whole.
      .sort((a, b) => b.length - a.length);
    if (keys.length === 0) return result;
    const out: ToolResult = {
      ...result,
      content: result.content.map((c) =>
        c.type === "text" ? { ...c, text: redactValue(c.text, keys, 0) as string } : c,
      ),
    };
    if (result.details !== undefined) out.details = redactValue(result.details, keys, 0);
    return out;
  }
}
