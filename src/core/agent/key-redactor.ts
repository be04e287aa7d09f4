/**
 * Removes known key values before they reach the session file, events, a view or the model: from tool results,
 * from what the user sends (attachments, selections, expanded templates, queued messages) and from the system
 * prompt's sections (instruction files). The tools already run without keys in their environment and instruction
 * files are read through the path guard; this is the second line for a key found elsewhere (a `.env` file in the
 * workspace, another process's `/proc/<pid>/environ`).
 */
import type { ImageContent, TextContent } from "../messages.js";
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

  /** The known keys, longest first (so a key that contains another is removed whole). */
  private keys(): string[] {
    return [...this.learned, ...this.envKeys().filter((k) => k.length >= MIN_KEY_LENGTH)].sort(
      (a, b) => b.length - a.length,
    );
  }

  /** `text` with every known key replaced by `REDACTED`. */
  redactText(text: string): string {
    const keys = this.keys();
    return keys.length === 0 ? text : (redactValue(text, keys, 0) as string);
  }

  /** A message's content with every known key replaced in its text (images are left alone). */
  redactContent<C extends string | readonly (TextContent | ImageContent)[]>(content: C): C {
    const keys = this.keys();
    if (keys.length === 0) return content;
    if (typeof content === "string") return redactValue(content, keys, 0) as C;
    return content.map((c) =>
      c.type === "text" ? { ...c, text: redactValue(c.text, keys, 0) as string } : c,
    ) as unknown as C;
  }

  /** `result` with every known key replaced by `REDACTED` in its text and details (images are left alone). */
  redact(result: ToolResult): ToolResult {
    const keys = this.keys();
    if (keys.length === 0) return result;
    const out: ToolResult = { ...result, content: this.redactContent(result.content) };
    if (result.details !== undefined) out.details = redactValue(result.details, keys, 0);
    return out;
  }
}
