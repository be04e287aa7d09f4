/**
 * A Claude Code session whose subagents live in files of their own, written to a temp folder by the tests.
 *
 * Real subagent files are not available offline, so these are modelled on test/fixtures/claude/*.jsonl and on
 * what public tools reading them describe. Assumptions:
 * - Layout: `<project>/<session id>.jsonl` and `<project>/<session id>/subagents/agent-<id>.jsonl` (Claude Code
 *   2.1.2+); `agent-<id>.meta.json` may sit beside it (`{"agentType":…}`) and is not read. Older versions wrote
 *   `agent-<id>.jsonl` into the project folder itself (writeOlderLayoutSession), the same lines, whose sessionId
 *   is then all that says which session they belong to.
 * - Subagent lines have the main file's envelope plus `isSidechain: true`, `agentId`, and the parent's
 *   `sessionId`; the first line is the Task prompt as a user message with `parentUuid: null`.
 * - The parent names the subagent in the Task tool_result's text ("agentId: <id> (for resuming to continue this
 *   agent's work if needed)" plus a <usage> block), in `toolUseResult.agentId`, and in `progress` lines
 *   (`data.type: "agent_progress"`, `data.agentId`, `parentToolUseID` = the Task tool_use id). A version may
 *   write any or none of these, hence one subagent per matching path below:
 *   - a7f3b2d: named by the result text and toolUseResult; has split assistant lines and a corrupt line;
 *   - a4c1e9b: named only by a progress line (which is also a uuid line in the main chain, passed through);
 *   - a9d0e1f: not named, prompt differs from the Task input: matched by time (launched 10:00:30, result 10:00:50);
 *   - a0c0ffe: a "Warmup" agent Claude Code starts before any Task call: no Task call fits, so it is a root.
 *     Its root line reuses the main file's first uuid, to check that files are separate uuid spaces.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const SESSION_ID = "7c2e9f41-5b3a-4d8e-9f10-2a3b4c5d6e7f";
export const CWD = "/home/dev/projects/todo-app";
const MODEL = "claude-sonnet-4-5-20250929";
const USAGE = { input_tokens: 4, cache_creation_input_tokens: 1520, cache_read_input_tokens: 13000, output_tokens: 9 };

/** Main file uuids. */
export const M = (n: number): string => `f0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
/** Subagent file uuids (per agent letter). */
export const S = (agent: string, n: number): string => `${agent}0000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

export const ENV_PROMPT = "Search the repository for reads of DATABASE_URL and report file:line.";
export const TODO_PROMPT = "List every TODO comment in src/ with file:line.";
export const MIG_PROMPT = "Check that every migration in db/migrations has a down step.";

type Line = Record<string, unknown>;

function envelope(uuid: string, parentUuid: string | null, ts: string, agentId?: string): Line {
  const line: Line = {
    parentUuid,
    isSidechain: agentId !== undefined,
    userType: "external",
    cwd: CWD,
    sessionId: SESSION_ID,
    version: "2.1.14",
    gitBranch: "main",
  };
  if (agentId !== undefined) line.agentId = agentId;
  return { ...line, uuid, timestamp: `2025-11-03T${ts}Z` };
}

function user(uuid: string, parent: string | null, ts: string, content: unknown, agentId?: string, extra?: Line): Line {
  return { ...envelope(uuid, parent, ts, agentId), type: "user", message: { role: "user", content }, ...extra };
}

function assistant(
  uuid: string,
  parent: string | null,
  ts: string,
  msgId: string,
  content: unknown[],
  agentId?: string,
) {
  const stop = content.some((c) => (c as { type: string }).type === "tool_use") ? "tool_use" : "end_turn";
  return {
    ...envelope(uuid, parent, ts, agentId),
    type: "assistant",
    requestId: `req_${msgId.slice(4)}`,
    message: { id: msgId, type: "message", role: "assistant", model: MODEL, content, stop_reason: stop, usage: USAGE },
  };
}

function task(id: string, description: string, prompt: string): Line {
  return { type: "tool_use", id, name: "Task", input: { description, prompt, subagent_type: "general-purpose" } };
}

function jsonl(lines: (Line | string)[]): string {
  return lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n";
}

/** The parent transcript: two Task calls in one split reply, a third later, then the main-chain leaf M(11). */
export function mainTranscript(): string {
  return jsonl([
    user(M(1), null, "10:00:00.000", "Audit the repo: DATABASE_URL reads, TODO comments, migrations."),
    assistant(M(2), M(1), "10:00:03.000", "msg_01Main0", [{ type: "text", text: "I'll run two sub-agents." }]),
    assistant(M(3), M(2), "10:00:03.500", "msg_01Main0", [task("toolu_01Env", "Search env var usage", ENV_PROMPT)]),
    assistant(M(4), M(3), "10:00:04.000", "msg_01Main0", [task("toolu_01Todo", "List TODO comments", TODO_PROMPT)]),
    {
      ...envelope(M(5), M(4), "10:00:06.000"),
      type: "progress",
      data: { type: "agent_progress", agentId: "a4c1e9b", prompt: TODO_PROMPT },
      toolUseID: "agent_msg_01Todo",
      parentToolUseID: "toolu_01Todo",
    },
    user(
      M(6),
      M(5),
      "10:00:20.000",
      [
        {
          tool_use_id: "toolu_01Env",
          type: "tool_result",
          content: [
            { type: "text", text: "Found 2 reads: src/db.ts:4 and scripts/migrate.ts:9." },
            {
              type: "text",
              text: "agentId: a7f3b2d (for resuming to continue this agent's work if needed)\n<usage>total_tokens: 18034\ntool_uses: 1\nduration_ms: 15800</usage>",
            },
          ],
        },
      ],
      undefined,
      { toolUseResult: { status: "completed", prompt: ENV_PROMPT, agentId: "a7f3b2d", totalToolUseCount: 1 } },
    ),
    user(M(7), M(6), "10:00:25.000", [
      {
        tool_use_id: "toolu_01Todo",
        type: "tool_result",
        content: [{ type: "text", text: "3 TODOs in src/sort.ts." }],
      },
    ]),
    assistant(M(8), M(7), "10:00:30.000", "msg_01Main1", [task("toolu_01Mig", "Check migrations", MIG_PROMPT)]),
    user(M(9), M(8), "10:00:50.000", [
      { tool_use_id: "toolu_01Mig", type: "tool_result", content: "All 4 migrations have a down step." },
    ]),
    assistant(M(10), M(9), "10:01:00.000", "msg_01Main2", [
      { type: "text", text: "Done: 2 reads, 3 TODOs, migrations OK." },
    ]),
    user(M(11), M(10), "10:02:00.000", "Thanks!"),
  ]);
}

/** agent id → file content. */
export function subagentFiles(): Record<string, string> {
  const a = "a7f3b2d";
  const b = "a4c1e9b";
  const c = "a9d0e1f";
  const w = "a0c0ffe";
  return {
    [a]: jsonl([
      user(S("a", 1), null, "10:00:04.200", ENV_PROMPT, a),
      assistant(S("a", 2), S("a", 1), "10:00:06.000", "msg_01SubA0", [{ type: "thinking", thinking: "grep it" }], a),
      assistant(
        S("a", 3),
        S("a", 2),
        "10:00:06.400",
        "msg_01SubA0",
        [{ type: "tool_use", id: "toolu_01SubGrep", name: "Grep", input: { pattern: "DATABASE_URL" } }],
        a,
      ),
      '{"parentUuid":"broken","type":"user","message":',
      user(
        S("a", 4),
        S("a", 3),
        "10:00:08.000",
        [{ tool_use_id: "toolu_01SubGrep", type: "tool_result", content: "src/db.ts:4\nscripts/migrate.ts:9" }],
        a,
      ),
      assistant(S("a", 5), S("a", 4), "10:00:19.000", "msg_01SubA1", [{ type: "text", text: "Found 2 reads." }], a),
    ]),
    [b]: jsonl([
      user(S("b", 1), null, "10:00:04.400", TODO_PROMPT, b),
      assistant(S("b", 2), S("b", 1), "10:00:10.000", "msg_01SubB0", [{ type: "text", text: "3 TODOs." }], b),
    ]),
    [c]: jsonl([
      user(S("c", 1), null, "10:00:31.000", [{ type: "text", text: "Check the migrations for down steps." }], c),
      assistant(S("c", 2), S("c", 1), "10:00:45.000", "msg_01SubC0", [{ type: "text", text: "All have one." }], c),
    ]),
    [w]: jsonl([
      user(M(1), null, "09:59:58.000", "Warmup", w),
      assistant(S("d", 2), M(1), "09:59:59.000", "msg_01SubW0", [{ type: "text", text: "Ready." }], w),
    ]),
  };
}

/**
 * A compaction agent's file (`subagents/agent-acompact-<id>.jsonl`): Claude Code runs it to write a compaction
 * summary. No Task call starts it; its first line continues the main conversation (parentUuid = a main-file
 * line), then the summary comes back. Assumed from what public tools that read these files describe.
 */
export function compactionAgentFile(agentId: string, parentUuid: string, ts: string): string {
  return jsonl([
    user(S("e", 1), parentUuid, ts, "Your task is to create a detailed summary of the conversation so far.", agentId),
    assistant(
      S("e", 2),
      S("e", 1),
      ts,
      "msg_01Compact0",
      [{ type: "text", text: "<summary>Audit.</summary>" }],
      agentId,
    ),
  ]);
}

/** A subagent file's text as another session's: every line's sessionId replaced. */
export function ofSession(text: string, sessionId: string): string {
  return text.split(SESSION_ID).join(sessionId);
}

/** Write the session into `<project>/`; returns the transcript's path. */
export async function writeSession(project: string, withSubagents = true): Promise<string> {
  await mkdir(project, { recursive: true });
  const transcript = join(project, `${SESSION_ID}.jsonl`);
  await writeFile(transcript, mainTranscript());
  if (!withSubagents) return transcript;
  const dir = join(project, SESSION_ID, "subagents");
  await mkdir(dir, { recursive: true });
  for (const [id, text] of Object.entries(subagentFiles())) {
    await writeFile(join(dir, `agent-${id}.jsonl`), text);
    await writeFile(join(dir, `agent-${id}.meta.json`), '{"agentType":"general-purpose","spawnDepth":1}');
  }
  return transcript;
}

/**
 * Write the session with the given subagents in the older layout (`<project>/agent-<id>.jsonl`, beside the
 * transcript, no meta files); returns the transcript's path.
 */
export async function writeOlderLayoutSession(
  project: string,
  agents: readonly string[] = Object.keys(subagentFiles()),
): Promise<string> {
  const transcript = await writeSession(project, false);
  const files = subagentFiles();
  for (const id of agents) await writeFile(join(project, `agent-${id}.jsonl`), files[id]);
  return transcript;
}
