/** YAML frontmatter of a Markdown file (`---` … `---` at its top), read as pi reads it. */
import { parse } from "yaml";

/** The frontmatter's fields (empty when there is none) and the body after it. */
export interface Frontmatter {
  fields: Record<string, unknown>;
  body: string;
}

/**
 * Split `content` into frontmatter and body. Line ends are normalised and a BOM dropped; a file without a
 * closing `---` is all body. Throws the YAML parser's error for malformed frontmatter.
 */
export function parseFrontmatter(content: string): Frontmatter {
  const text = content.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!text.startsWith("---")) return { fields: {}, body: text };
  const end = text.indexOf("\n---", 3);
  if (end === -1) return { fields: {}, body: text };
  const parsed: unknown = parse(text.slice(4, end));
  const fields =
    typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { fields, body: text.slice(end + 4).trim() };
}
