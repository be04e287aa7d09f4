/**
 * The "one way" claims of docs/architecture.md, checked against the code with the TypeScript compiler (so a second
 * way fails here when it appears):
 * - one way in: the actions the operations table runs are called from the table only (src/host/operations/
 *   host-operations.ts), never straight from a command, the router, a slash command or another action — except an
 *   action's calls of its own methods (`this.…`) and the steps listed in ALLOWED, each a part of the operation that
 *   calls it (the table's pickers act on nothing and are not counted);
 * - one run: the agent loop runs in AgentRun only (src/core/agent/agent-run.ts);
 * - one busy: the session's run registry is made by AgentSession only, and the guards read busy from it.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import ts from "typescript";
import { hostOperations, type OperationActions } from "../../src/host/operations/host-operations.js";

const ROOT = path.join(__dirname, "..", "..");

/** Every .ts file under `dir` (relative to the repository). */
function sources(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.m?ts$/.test(e.name) && !e.name.endsWith(".d.ts")) out.push(p);
    }
  };
  walk(path.join(ROOT, dir));
  return out;
}

/** One program over the sources (the repository's compiler options). */
const program = (() => {
  const configFile = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), (f) => ts.sys.readFile(f));
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  return ts.createProgram([...sources("src/host"), ...sources("src/core")], { ...parsed.options, noEmit: true });
})();
const checker = program.getTypeChecker();

/** The classes whose methods the table runs, by the table's group name (OperationActions). */
const ACTION_CLASSES: Record<string, string> = {
  actions: "HostActions",
  archive: "ArchiveActions",
  compare: "CompareActions",
  files: "CheckpointActions",
  exporter: "ExportActions",
  systemPrompt: "SystemPromptDocuments",
  parallel: "ParallelActions",
  watch: "BranchWatch",
  checks: "BranchChecks",
};

/** Calls of an action outside the table that are a step of the operation calling them (file → Class.method). */
const ALLOWED: Record<string, readonly string[]> = {
  // Archive and delete move the leaf out of the branch first, asking where: part of the archive's own operation,
  // whose guards found nothing at work in the branch (BRANCH needs).
  "src/host/archive/archive-actions.ts": ["HostActions.navigate"],
  // Continue as Branch moves the leaf to the aside's answer as a click does: part of its own operation (MOVE needs).
  "src/host/parallel/continue-aside-flow.ts": ["HostActions.navigate"],
};

/** `Class.method` of every action the table runs (`run`): the table over proxies that record what it touches. */
function tableActions(): Set<string> {
  const touched = new Set<string>();
  const group = (name: string) =>
    new Proxy(
      {},
      {
        get: (_t, method) => {
          touched.add(`${ACTION_CLASSES[name]}.${String(method)}`);
          return () => undefined;
        },
      },
    );
  const groups = Object.fromEntries(Object.keys(ACTION_CLASSES).map((n) => [n, group(n)]));
  const specs = hostOperations({ ...groups, renameSession: async () => undefined } as unknown as OperationActions);
  for (const spec of specs) void spec.run("e1", "input");
  return touched;
}

/** `file: Class.method` for every call of a method of `classes` in the host's sources. */
function callsOf(classes: ReadonlySet<string>, methods: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    const file = path.relative(ROOT, sf.fileName);
    if (!file.startsWith("src/host/")) continue;
    const visit = (node: ts.Node): void => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.expression.kind !== ts.SyntaxKind.ThisKeyword
      ) {
        const decl = checker.getSymbolAtLocation(node.expression.name)?.declarations?.[0];
        const owner =
          decl && ts.isMethodDeclaration(decl) && ts.isClassDeclaration(decl.parent) ? decl.parent : undefined;
        const name = owner?.name?.text;
        const key = name ? `${name}.${node.expression.name.text}` : undefined;
        if (name && key && classes.has(name) && methods.has(key)) {
          const line = sf.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          found.push(`${file}:${line}: ${key}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

test("one way in: the actions of the operations table are called from the table only", () => {
  const actions = tableActions();
  assert.ok(actions.size >= 25, `the table's actions were found (${actions.size})`);
  const calls = callsOf(new Set(Object.values(ACTION_CLASSES)), actions);
  assert.ok(
    calls.some((c) => c.startsWith("src/host/operations/host-operations.ts:")),
    "the scan finds the table's own calls",
  );
  const stray = calls.filter((c) => {
    const [file, key] = [c.slice(0, c.indexOf(":")), c.slice(c.lastIndexOf(" ") + 1)];
    return file !== "src/host/operations/host-operations.ts" && !(ALLOWED[file] ?? []).includes(key);
  });
  assert.deepEqual(stray, [], "a second way in: call the operation (Operations.run) instead");
});

/** `file:line` of every call of a function named `name` (a plain call, not a method) in `files`. */
function plainCalls(name: string, under: string): string[] {
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    const file = path.relative(ROOT, sf.fileName);
    if (!file.startsWith(under)) continue;
    const visit = (node: ts.Node): void => {
      const callee = ts.isCallExpression(node) || ts.isNewExpression(node) ? node.expression : undefined;
      if (callee && ts.isIdentifier(callee) && callee.text === name)
        found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

test("one run: the agent loop runs in AgentRun only", () => {
  const calls = plainCalls("runAgentLoop", "src/");
  assert.equal(calls.length, 1, calls.join(", "));
  assert.match(calls[0], /^src\/core\/agent\/agent-run\.ts:/);
});

test("one busy: the run registry is the session's, made by AgentSession only", () => {
  const made = plainCalls("SessionRuns", "src/");
  assert.equal(made.length, 1, made.join(", "));
  assert.match(made[0], /^src\/core\/agent\/agent-session\.ts:/);
});

/** `file:line: Class.field` of every class field under `under` whose name says it keeps busy state of its own. */
function busyFields(under: string): string[] {
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    const file = path.relative(ROOT, sf.fileName);
    if (!file.startsWith(under)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyDeclaration(node) && ts.isIdentifier(node.name) && ts.isClassLike(node.parent)) {
        if (/^(busy|isBusy|navigating|live|liveBranches|running|runningBranches|inProgress)$/.test(node.name.text))
          found.push(
            `${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ` +
              `${node.parent.name?.text ?? "?"}.${node.name.text}`,
          );
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

test("one busy: the host keeps no busy flag or list of running work of its own; it asks the session", () => {
  // What ran where was kept as HostActions.navigating and ParallelActions.live before SessionRuns answered it.
  assert.deepEqual(busyFields("src/host/"), [], "ask the session (AgentSession.busyAt, runs) instead");
  // The chat's streaming flag and the queue read the registry through AgentSession (isStreaming is SessionRuns').
  const reads: string[] = [];
  for (const sf of program.getSourceFiles()) {
    const file = path.relative(ROOT, sf.fileName);
    if (!file.startsWith("src/host/")) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isPropertyAccessExpression(node) && /^(isStreaming|isBashRunning)$/.test(node.name.text)) reads.push(file);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  assert.deepEqual(
    [...new Set(reads)],
    ["src/host/session/session-controller.ts"],
    "the guards read busyAt, not a flag",
  );
});

test("one way in: the services' accessor of the operations table is read by the ways in only", () => {
  // src/host/common/services.ts carries the table (built late in activation) for the wiring; an action that read it
  // would be a second way in, past the import rule of eslint.config.mjs.
  const readers = new Set<string>();
  for (const sf of program.getSourceFiles()) {
    const file = path.relative(ROOT, sf.fileName);
    if (!file.startsWith("src/host/")) continue;
    const visit = (node: ts.Node): void => {
      if (
        ts.isPropertyAccessExpression(node) &&
        node.name.text === "operations" &&
        checker.getTypeAtLocation(node.expression).getSymbol()?.getName() === "HostServices"
      )
        readers.add(file);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  assert.deepEqual([...readers].sort(), [
    // The chat's slash commands run their operations.
    "src/host/chat-input/chat-input-setup.ts",
    // The commands run the table's commands.
    "src/host/commands.ts",
    // Sets it.
    "src/host/operations/create-operations.ts",
    // A check's Adopt Best Branch adopts through the table (Adopt This Branch's guards look at the branch picked).
    "src/host/parallel/create-parallel.ts",
    // Go There on "pi added N entries on another branch" moves through the table, as a click on the row would.
    "src/host/session/create-session.ts",
    // The webview router: a click, a row key, Stop and the banner's buttons.
    "src/host/views/create-views.ts",
  ]);
});
