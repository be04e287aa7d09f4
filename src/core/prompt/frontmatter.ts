/**
 * YAML frontmatter of a Markdown file (skills' SKILL.md, prompt templates), read as pi reads it: a first line
 * `---`, the YAML, a line `---`, then the body. Parsed with the `yaml` package (the library pi uses), so what pi
 * accepts is accepted here.
 */
import { parse } from "yaml";

/** A Markdown file split into its frontmatter and its body. */
export interface Frontmatter {
  /** The YAML mapping; empty when the file has no frontmatter (or it is not a mapping). */
  frontmatter: Record<string, unknown>;
  /** The text after the frontmatter, trimmed; the whole text when there is none. */
  body: string;
}

/**
 * Splits `text` into frontmatter and body. A BOM and Windows line ends are tolerated. Throws the YAML parser's
 * error when the frontmatter is not valid YAML, so the caller can name the file.
 */
export function parseFrontmatter(text: string): Frontmatter {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!normalized.startsWith("---")) return { frontmatter: {}, body: normalized };
  const end = normalized.indexOf("\n---", 3);
  if (end === -1) return { frontmatter: {}, body: normalized };
  const parsed: unknown = parse(normalized.slice(4, end));
  const frontmatter =
    typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { frontmatter, body: normalized.slice(end + 4).trim() };
}
