/**
 * The parts of a bash command a rule must allow one by one: every simple command (those of `a && b`, `a; b`,
 * `a || b`, pipes, subshells, `$( )`, backticks, `<( )`, here-documents) and every file an output redirection
 * writes. Parsed with tree-sitter's bash grammar (web-tree-sitter, WebAssembly), not with patterns: a command the
 * grammar does not parse cleanly, or that uses a construct not listed here (if, for, while, case, functions,
 * arithmetic, a computed command name or redirection target), has no parts — the caller asks.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Language, Parser, type Node } from "web-tree-sitter";

/** What a command consists of, for rule matching. */
export interface ShellParts {
  /** Each simple command as written (words joined by one space; leading variable assignments kept). */
  commands: string[];
  /** Files written by output redirections (`>`, `>>`, `&>`), as written. */
  writes: string[];
}

/** Node types whose children are walked for parts. */
const CONTAINERS = new Set([
  "program",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "redirected_statement",
  "negated_command",
]);

/** Node types allowed inside a command's words (anything else means "not understood"). */
const WORD_PARTS = new Set([
  "word",
  "string",
  "string_content",
  "raw_string",
  "ansi_c_string",
  "number",
  "concatenation",
  "simple_expansion",
  "expansion",
  "variable_name",
  "special_variable_name",
  "command_substitution",
  "process_substitution",
  "translated_string",
]);

/** Where the grammar's files are: next to the bundle (dist/tools/), else in node_modules (tests, development). */
function wasmFile(name: string, packageDir: string): string | undefined {
  const candidates = [
    typeof __dirname === "string" ? path.join(__dirname, name) : undefined,
    path.join(process.cwd(), "node_modules", packageDir, name),
  ];
  return candidates.find((c): c is string => c !== undefined && existsSync(c));
}

let parser: Promise<Parser> | undefined;

/** The bash parser, loaded once (a few ms; the grammar is 1.4 MB of WebAssembly). */
function bashParser(): Promise<Parser> {
  parser ??= (async () => {
    const runtime = wasmFile("web-tree-sitter.wasm", "web-tree-sitter");
    await Parser.init(runtime ? { locateFile: () => runtime } : undefined);
    const grammar = wasmFile("tree-sitter-bash.wasm", "tree-sitter-bash");
    if (!grammar) throw new Error("tree-sitter-bash.wasm was not found next to the extension");
    const p = new Parser();
    p.setLanguage(await Language.load(grammar));
    return p;
  })();
  parser.catch(() => (parser = undefined));
  return parser;
}

/** Signals "not understood" from deep in the walk. */
class NotUnderstood extends Error {}

/** Redirections that write nothing to a file: duplicating a descriptor, /dev/null. */
function writesFile(redirect: Node): string | undefined {
  const dest = redirect.childForFieldName("destination");
  const op = redirect.children.find((c) => !c.isNamed)?.type ?? "";
  if (!dest) throw new NotUnderstood();
  if (op === "<" || op === "<&" || op === "<<<") return undefined;
  if (op === ">&" || op === "<&" || op === "&>" || op === "&>>" || op === ">" || op === ">>" || op === ">|") {
    if ((op === ">&" || op === "<&") && (dest.type === "number" || dest.text === "-")) return undefined;
    if (dest.type !== "word" || /[$`*?[{~]/.test(dest.text)) throw new NotUnderstood();
    return dest.text === "/dev/null" ? undefined : dest.text;
  }
  throw new NotUnderstood();
}

/** Checks a word (an argument, a name) and collects the commands substituted inside it. */
function walkWord(node: Node, out: ShellParts): void {
  if (!WORD_PARTS.has(node.type)) throw new NotUnderstood();
  if (node.type === "command_substitution" || node.type === "process_substitution") {
    for (const c of node.namedChildren) walkStatement(c, out);
    return;
  }
  for (const c of node.namedChildren) walkWord(c, out);
}

function walkCommand(node: Node, out: ShellParts): void {
  const words: string[] = [];
  for (const c of node.namedChildren) {
    if (c.type === "variable_assignment") {
      const value = c.childForFieldName("value");
      if (value) walkWord(value, out);
      words.push(c.text);
    } else if (c.type === "command_name") {
      const name = c.namedChildren[0];
      // A command whose name is computed ($X, $(…)) is not understood.
      if (!name || (name.type !== "word" && name.type !== "string" && name.type !== "raw_string"))
        throw new NotUnderstood();
      words.push(c.text);
    } else if (c.type === "file_redirect") {
      const file = writesFile(c);
      if (file !== undefined) out.writes.push(file);
    } else if (c.type === "herestring_redirect") {
      for (const w of c.namedChildren) walkWord(w, out);
    } else {
      walkWord(c, out);
      words.push(c.text);
    }
  }
  if (words.length === 0) throw new NotUnderstood();
  out.commands.push(words.join(" "));
}

function walkStatement(node: Node, out: ShellParts): void {
  if (node.type === "comment") return;
  if (node.type === "command") return walkCommand(node, out);
  if (node.type === "variable_assignment") {
    // `X=1` alone: a part of its own (a rule may allow it like any command).
    const value = node.childForFieldName("value");
    if (value) walkWord(value, out);
    out.commands.push(node.text);
    return;
  }
  if (node.type === "file_redirect") {
    const file = writesFile(node);
    if (file !== undefined) out.writes.push(file);
    return;
  }
  if (node.type === "heredoc_redirect") {
    // An unquoted here-document expands $(…) in its body: those commands are parts too.
    for (const c of node.namedChildren)
      if (c.type === "heredoc_body")
        for (const w of c.namedChildren) if (w.type !== "heredoc_content") walkWord(w, out);
    for (const c of node.namedChildren) if (c.type === "file_redirect") walkStatement(c, out);
    return;
  }
  if (node.type === "herestring_redirect") {
    for (const w of node.namedChildren) walkWord(w, out);
    return;
  }
  if (!CONTAINERS.has(node.type)) throw new NotUnderstood();
  for (const c of node.namedChildren) walkStatement(c, out);
}

/** The parts of `command`, or undefined when it is not understood (see the file comment). */
export async function shellParts(command: string): Promise<ShellParts | undefined> {
  const p = await bashParser();
  const tree = p.parse(command);
  if (!tree) return undefined;
  try {
    if (tree.rootNode.hasError) return undefined;
    const out: ShellParts = { commands: [], writes: [] };
    walkStatement(tree.rootNode, out);
    return out.commands.length > 0 ? out : undefined;
  } catch (e) {
    if (e instanceof NotUnderstood) return undefined;
    throw e;
  } finally {
    tree.delete();
  }
}
