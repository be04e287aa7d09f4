/**
 * A stdio MCP server never has the extension host among its ancestors, so it cannot read the host's start-up
 * environment (`/proc/<pid>/environ`), model keys included. A child process stands in for the host: it starts with
 * canary keys in its environment and runs the pool, whose fixture server reports its ancestors (up to init) and
 * which of the key variables each one's start-up environment sets.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { alive } from "../../util/mcp-fixture.js";

/** Model keys the stand-in host starts with. */
const KEYS: Record<string, string> = {
  OPENAI_API_KEY: "sk-mcp-canary-0123456789abcdef0123",
  ANTHROPIC_API_KEY: "sk-ant-mcp-canary-0123456789abcdef",
};

const HAS_SETSID = ["/usr/bin/setsid", "/bin/setsid"].some((p) => fs.existsSync(p));

interface Seen {
  host: number;
  ancestors: { pid: number; environ: string[] | null }[];
  serverPid: number;
  poolPids: number[];
}

async function runHost(): Promise<Seen> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(__dirname, "mcp-key-isolation-child.ts"), Object.keys(KEYS).join(",")],
    { env: { ...process.env, ...KEYS }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout) as Seen;
}

describe(
  "MCP stdio servers and the host's keys",
  { timeout: 90_000, skip: !HAS_SETSID && "needs setsid (Linux)" },
  () => {
    it("the server's ancestors never include the host, and none of their environments holds a key", async () => {
      const seen = await runHost();
      const chain = seen.ancestors.map((a) => a.pid);
      assert.ok(chain.length >= 1, JSON.stringify(seen));
      assert.ok(!chain.includes(seen.host), `the host (${seen.host}) is an ancestor: ${chain.join(" ← ")}`);
      for (const a of seen.ancestors)
        assert.deepEqual(a.environ ?? [], [], `ancestor ${a.pid}'s start-up environment holds a key variable`);
      // The pid the pool shows (Agent: Show MCP Servers) is the server's own, and it ended with the pool.
      assert.deepEqual(seen.poolPids, [seen.serverPid]);
      assert.equal(alive(seen.serverPid), false, "the server outlived the pool");
    });
  },
);
