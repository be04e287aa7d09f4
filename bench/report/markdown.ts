/** The pieces every Markdown table of the results is made of, so that all tables read alike. */

/** One table row. */
export function mdRow(cells: readonly string[]): string {
  return `| ${cells.join(" | ")} |`;
}

/** The header row and the separator below it. */
export function mdHead(headers: readonly string[]): string[] {
  return [mdRow(headers), mdRow(headers.map(() => "---"))];
}

/**
 * The `width` cells of a measurement that failed: its label, the error's first line (at most `max` characters, a
 * stack trace would break the table), then empty cells.
 */
export function failedCells(label: string, error: string, width: number, max = 160): string[] {
  return [label, `failed: ${error.split("\n")[0].slice(0, max)}`, ...Array<string>(width - 2).fill("")];
}
