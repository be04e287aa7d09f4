/**
 * Generates the demo workspace used by `npm start` and the end-to-end tests: a tiny project, a branched
 * sample session (three branches, a label, a branch summary, a compaction, tool calls) written in pi's
 * session format v3, and workspace settings that point the extension at that session folder and at a local
 * OpenAI-compatible server.
 *
 *   node --import tsx demo/generate-demo.ts <demo-dir> [base-url]
 *
 * The session is written line by line here, not through SessionManager, so it doubles as an independent
 * check that the extension reads pi's format as pi writes it.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tokenUsage } from "../src/core/messages.js";

/** Ids of the demo entries, fixed so that tests can find them. */
export const DEMO_IDS = {
  modelChange: "d0000001",
  sessionInfo: "d0000002",
  askFlag: "d0000003",
  readCall: "d0000004",
  readResult: "d0000005",
  options: "d0000006",
  /** Branch A: a hand-written parser (labelled). */
  branchAUser: "d0000a01",
  branchAEditCall: "d0000a02",
  branchAEditResult: "d0000a03",
  branchALeaf: "d0000a04",
  branchALabel: "d0000a05",
  /** Branch C: a DEBUG environment variable instead of a flag (left with a summary). */
  branchCUser: "d0000c01",
  branchCLeaf: "d0000c02",
  /** Branch B: node:util parseArgs, after the summary of C; compacted; the leaf. */
  branchSummary: "d0000b00",
  branchBUser: "d0000b01",
  branchBBashCall: "d0000b02",
  branchBBashResult: "d0000b03",
  branchBReply: "d0000b04",
  compaction: "d0000b05",
  branchBTestUser: "d0000b06",
  branchBWriteCall: "d0000b07",
  branchBWriteResult: "d0000b08",
  leaf: "d0000b09",
} as const;

/** The custom model the demo settings define (no key needed). */
export const DEMO_MODEL = { provider: "local", id: "fake-model", name: "Local fake model (demo)" } as const;

/** The label the demo puts on branch A's first message. */
export const DEMO_LABEL = "hand-written parser";

/** What {@link generateDemo} created. */
export interface DemoWorkspace {
  /** The folder to open in VS Code. */
  workspace: string;
  /** agentTree.sessionDirectory of the workspace. */
  sessionDir: string;
  /** The sample session file. */
  sessionFile: string;
  /** Id of the leaf entry (last line). */
  leafId: string;
}

/** Options of {@link generateDemo}. */
export interface DemoOptions {
  /** Base URL of the OpenAI-compatible server (ends in /v1). */
  baseUrl: string;
  /** Extra workspace settings (merged last). */
  settings?: Record<string, unknown>;
}

const SESSION_ID = "3f1c9a52-7d4e-4b8a-9c21-5e6f7a8b9c0d";
const START = Date.parse("2026-01-15T09:00:00.000Z");
const CLI_SOURCE = `// A tiny greeting CLI.
const name = process.argv[2] ?? "world";
console.log(\`Hello, \${name}!\`);
`;

/** Writes the demo under `dir` (replacing an earlier one) and returns where things are. */
export function generateDemo(dir: string, options: DemoOptions): DemoWorkspace {
  const root = resolve(dir);
  const workspace = join(root, "workspace");
  const sessionDir = join(root, "sessions");
  rmSync(workspace, { recursive: true, force: true });
  rmSync(sessionDir, { recursive: true, force: true });
  mkdirSync(join(workspace, "src"), { recursive: true });
  mkdirSync(join(workspace, ".vscode"), { recursive: true });
  mkdirSync(sessionDir, { recursive: true });

  writeFileSync(join(workspace, "src", "cli.ts"), CLI_SOURCE);
  writeFileSync(
    join(workspace, "package.json"),
    JSON.stringify({ name: "greeting-cli", version: "1.0.0", private: true, type: "module" }, null, 2) + "\n",
  );
  writeFileSync(
    join(workspace, "README.md"),
    "# greeting-cli\n\nA demo project for the Agent Tree extension. Open the Agent view in the activity bar.\n",
  );
  writeDemoSettings(workspace, sessionDir, options);

  const lines = sessionLines(workspace);
  const sessionFile = join(sessionDir, `${new Date(START).toISOString().replace(/[:.]/g, "-")}_${SESSION_ID}.jsonl`);
  writeFileSync(sessionFile, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return { workspace, sessionDir, sessionFile, leafId: DEMO_IDS.leaf };
}

/**
 * Writes the demo workspace's .vscode/settings.json: the session folder, and the local OpenAI-compatible
 * server as a custom model (no key) chosen as the default model. `npm start` rewrites it on every start
 * because the server's port may change.
 */
export function writeDemoSettings(workspace: string, sessionDir: string, options: DemoOptions): void {
  mkdirSync(join(workspace, ".vscode"), { recursive: true });
  const settings = {
    "agentTree.sessionDirectory": sessionDir,
    "agentTree.models.custom": [
      {
        provider: DEMO_MODEL.provider,
        id: DEMO_MODEL.id,
        name: DEMO_MODEL.name,
        api: "openai-completions",
        baseUrl: options.baseUrl,
        noApiKey: true,
        contextWindow: 128000,
        maxTokens: 4096,
      },
    ],
    "agentTree.model": `${DEMO_MODEL.provider}/${DEMO_MODEL.id}`,
    ...options.settings,
  };
  writeFileSync(join(workspace, ".vscode", "settings.json"), JSON.stringify(settings, null, 2) + "\n");
}

type Json = Record<string, unknown>;

/** The header and entries, in file order (timestamps ascending). */
function sessionLines(cwd: string): Json[] {
  let minute = 0;
  const at = (): { ts: string; ms: number } => {
    const ms = START + minute++ * 60_000;
    return { ts: new Date(ms).toISOString(), ms };
  };
  const entry = (type: string, id: string, parentId: string | null, fields: Json): Json => {
    const { ts } = at();
    return { type, id, parentId, timestamp: ts, ...fields };
  };
  /** A message entry; the message (built once the clock has moved on) gets the entry's time (ms), as pi writes them. */
  const message = (id: string, parentId: string, fields: () => Json): Json => {
    const { ts, ms } = at();
    return { type: "message", id, parentId, timestamp: ts, message: { ...fields(), timestamp: ms } };
  };
  const user = (id: string, parentId: string, text: string): Json =>
    message(id, parentId, () => ({ role: "user", content: text }));
  const assistant = (id: string, parentId: string, content: Json[], stopReason = "stop"): Json =>
    message(id, parentId, () => ({
      role: "assistant",
      content,
      api: "openai-completions",
      provider: DEMO_MODEL.provider,
      model: DEMO_MODEL.id,
      usage: tokenUsage(900 + minute * 40, 120),
      stopReason,
    }));
  const toolCall = (id: string, name: string, args: Json): Json => ({ type: "toolCall", id, name, arguments: args });
  const toolResult = (id: string, parentId: string, toolCallId: string, toolName: string, text: string): Json =>
    message(id, parentId, () => ({
      role: "toolResult",
      toolCallId,
      toolName,
      content: [{ type: "text", text }],
      isError: false,
    }));
  const text = (t: string): Json => ({ type: "text", text: t });
  const I = DEMO_IDS;

  const header = { type: "session", version: 3, id: SESSION_ID, timestamp: at().ts, cwd };
  return [
    header,
    entry("model_change", I.modelChange, null, { provider: DEMO_MODEL.provider, modelId: DEMO_MODEL.id }),
    entry("session_info", I.sessionInfo, I.modelChange, { name: "Demo: a --verbose flag for the greeting CLI" }),
    user(I.askFlag, I.sessionInfo, "Add a --verbose flag to the greeting CLI in src/cli.ts."),
    assistant(I.readCall, I.askFlag, [toolCall("call_read_1", "read", { path: "src/cli.ts" })], "toolUse"),
    toolResult(I.readResult, I.readCall, "call_read_1", "read", CLI_SOURCE),
    assistant(I.options, I.readResult, [
      text(
        "The CLI reads `process.argv` by hand. Options: (A) a tiny hand-written parser, (B) `node:util` `parseArgs`, " +
          "(C) no flag at all, a `DEBUG` environment variable. Which do you prefer?",
      ),
    ]),
    // Branch A
    user(I.branchAUser, I.options, "Option A: a hand-written parser, no dependencies."),
    assistant(
      I.branchAEditCall,
      I.branchAUser,
      [
        toolCall("call_edit_1", "edit", {
          path: "src/cli.ts",
          oldText: 'const name = process.argv[2] ?? "world";',
          newText:
            'const args = process.argv.slice(2);\nconst verbose = args.includes("--verbose");\nconst name = args.find((a) => !a.startsWith("--")) ?? "world";\nif (verbose) console.error("args:", args);',
        }),
      ],
      "toolUse",
    ),
    toolResult(
      I.branchAEditResult,
      I.branchAEditCall,
      "call_edit_1",
      "edit",
      "Successfully replaced text in src/cli.ts.",
    ),
    assistant(I.branchALeaf, I.branchAEditResult, [
      text("Added `--verbose`: it prints the parsed arguments to stderr. Flags may come before or after the name."),
    ]),
    entry("label", I.branchALabel, I.branchALeaf, { targetId: I.branchAUser, label: DEMO_LABEL }),
    // Branch C
    user(I.branchCUser, I.options, "Option C: skip the flag, log when DEBUG=greeting is set."),
    assistant(I.branchCLeaf, I.branchCUser, [
      text('Done: `if (process.env.DEBUG === "greeting") console.error(...)`. No argument parsing needed.'),
    ]),
    // Back to the options with a summary of C, then branch B
    entry("branch_summary", I.branchSummary, I.options, {
      fromId: I.branchCLeaf,
      summary:
        "## Goal\nA debug switch for the greeting CLI.\n\n## Progress\n### Done\n- [x] Logged via `DEBUG=greeting` instead of a flag.\n\n" +
        "## Key Decisions\n- **No flag**: an environment variable avoids argument parsing.\n\n## Next Steps\n1. Compare with a real `--verbose` flag.\n\n" +
        "<modified-files>\nsrc/cli.ts\n</modified-files>",
      details: { readFiles: [], modifiedFiles: ["src/cli.ts"] },
    }),
    user(I.branchBUser, I.branchSummary, "Option B after all: use node:util parseArgs. Is it available?"),
    assistant(
      I.branchBBashCall,
      I.branchBUser,
      [toolCall("call_bash_1", "bash", { command: "node --version" })],
      "toolUse",
    ),
    toolResult(I.branchBBashResult, I.branchBBashCall, "call_bash_1", "bash", "v20.19.0"),
    assistant(I.branchBReply, I.branchBBashResult, [
      text(
        "Yes: `parseArgs` is stable since Node 20. `--verbose` is now a boolean option; the name is the first positional.",
      ),
    ]),
    entry("compaction", I.compaction, I.branchBReply, {
      summary:
        "## Goal\nAdd a --verbose flag to the greeting CLI (src/cli.ts).\n\n## Progress\n### Done\n- [x] `--verbose` parsed with `node:util` `parseArgs`.\n\n" +
        "## Key Decisions\n- **parseArgs** over a hand-written parser: no dependency, handles `--` and flags anywhere.\n\n## Next Steps\n1. Add a test.",
      firstKeptEntryId: I.branchBUser,
      tokensBefore: 5400,
      details: { readFiles: ["src/cli.ts"], modifiedFiles: ["src/cli.ts"] },
    }),
    user(I.branchBTestUser, I.compaction, "Now add a test for --verbose."),
    assistant(
      I.branchBWriteCall,
      I.branchBTestUser,
      [
        toolCall("call_write_1", "write", {
          path: "test/cli.test.ts",
          content:
            'import { execFileSync } from "node:child_process";\nimport { test } from "node:test";\nimport assert from "node:assert/strict";\n\n' +
            'test("--verbose logs the arguments", () => {\n  const out = execFileSync("node", ["src/cli.ts", "--verbose", "Ada"], { encoding: "utf8", stdio: "pipe" });\n  assert.match(out, /Hello, Ada!/);\n});\n',
        }),
      ],
      "toolUse",
    ),
    toolResult(
      I.branchBWriteResult,
      I.branchBWriteCall,
      "call_write_1",
      "write",
      "Wrote 312 bytes to test/cli.test.ts.",
    ),
    assistant(I.leaf, I.branchBWriteResult, [text("Added `test/cli.test.ts`; run it with `node --test`.")]),
  ];
}

// CLI: node --import tsx demo/generate-demo.ts <demo-dir> [base-url]
if (process.argv[1] && resolve(process.argv[1]) === resolve(__filename)) {
  const [dir, baseUrl] = process.argv.slice(2);
  if (!dir) {
    console.error("usage: node --import tsx demo/generate-demo.ts <demo-dir> [base-url]");
    process.exit(2);
  }
  const demo = generateDemo(dir, { baseUrl: baseUrl ?? "http://127.0.0.1:11434/v1" });
  console.log(JSON.stringify(demo, null, 2));
}
