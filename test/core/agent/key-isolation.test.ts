/**
 * Model keys never reach a tool: a real bash call, made by a process holding keys in its start-up environment
 * (as the extension host does), finds none in its own environment, its parent's or any ancestor's; and keys it
 * digs up elsewhere (the host's /proc/<pid>/environ, a file) are redacted before the tool result, the events or
 * the session file see them — stored credentials too (a key entered with "Set API Key", a login's OAuth tokens),
 * which are in no environment.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { SessionEntry } from "../../../src/core/session/types.js";
import { startFakeOpenAI, type FakeServer } from "../../util/fake-openai-server.js";
import { tempDir } from "../../util/temp-dir.js";

function fakeKey(tag: string): string {
  return `sk-${tag}-${randomBytes(16).toString("hex")}`;
}

/** The keys the child starts with: built-in providers', a custom provider's, and a model's `apiKeyEnv`. */
const KEYS: Record<string, string> = {
  OPENAI_API_KEY: fakeKey("openai"),
  ANTHROPIC_API_KEY: fakeKey("anthropic"),
  ANTHROPIC_AUTH_TOKEN: fakeKey("token"),
  OPENROUTER_API_KEY: fakeKey("openrouter"),
  GROQ_API_KEY: fakeKey("groq"),
  MY_PROVIDER_SECRET: fakeKey("custom"),
};
/** Only in the host's memory (its secret store), never in an environment. */
const HOST_KEY = fakeKey("stored");
/** The credential store's (SecretStorage in the extension): a stored key and a subscription login's tokens. */
const STORED = {
  key: fakeKey("set-api-key"),
  access: `sk-ant-oat01-${randomBytes(24).toString("hex")}`,
  refresh: `sk-ant-ort01-${randomBytes(24).toString("hex")}`,
  copilot: `tid=${randomBytes(20).toString("hex")};exp=1900000000`,
};
const CREDENTIALS = {
  openai: { type: "api_key", key: STORED.key },
  anthropic: { type: "oauth", access: STORED.access, refresh: STORED.refresh, expires: 1_900_000_000_000 },
  "github-copilot": {
    type: "oauth",
    access: STORED.copilot,
    refresh: `ghu_${randomBytes(18).toString("hex")}`,
    expires: 1_900_000_000_000,
  },
};
const SECRETS = [...Object.values(KEYS), HOST_KEY, ...Object.values(STORED), CREDENTIALS["github-copilot"].refresh];

/** "== name" sections of the dump, by name. */
function sections(output: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of output.split(/^== /m).slice(1)) {
    const nl = part.indexOf("\n");
    out.set(part.slice(0, nl), part.slice(nl + 1));
  }
  return out;
}

describe("model keys and the bash tool", { timeout: 90_000 }, () => {
  let fake: FakeServer;
  let tmp: ReturnType<typeof tempDir>;
  let output: string;
  let sessionText: string;
  let eventsText: string;

  before(async () => {
    // The server accepts only the custom model's key: the provider still gets it from the environment.
    fake = await startFakeOpenAI({ apiKey: KEYS.MY_PROVIDER_SECRET });
    tmp = tempDir();
    const ws = path.join(tmp.dir, "ws");
    const sessions = path.join(tmp.dir, "sessions");
    fs.mkdirSync(ws);
    fs.mkdirSync(sessions);
    fs.writeFileSync(path.join(ws, "host-key.txt"), `stored key: ${HOST_KEY}\n`);
    fs.writeFileSync(
      path.join(ws, "credentials.txt"),
      `${STORED.key}\naccess=${STORED.access}\nrefresh=${STORED.refresh}\n${STORED.copilot}\n${CREDENTIALS["github-copilot"].refresh}\n`,
    );
    const eventsFile = path.join(tmp.dir, "events.json");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(__dirname, "key-isolation-child.ts"), fake.baseURL, sessions, ws, eventsFile],
      { env: { ...process.env, ...KEYS, AGENT_TREE_PLAIN: "plain-visible" }, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.stdin.end(JSON.stringify({ hostKey: HOST_KEY, credentials: CREDENTIALS }));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    assert.equal(code, 0, stderr);
    sessionText = fs.readFileSync(stdout.trim(), "utf8");
    eventsText = fs.readFileSync(eventsFile, "utf8");
    const result = sessionText
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as SessionEntry)
      .find((e) => e.type === "message" && e.message.role === "toolResult");
    assert.ok(result?.type === "message" && result.message.role === "toolResult", "the bash call ran");
    output = result.message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  });
  after(async () => {
    await fake.close();
    tmp.cleanup();
  });

  it("the command's own environment, its parent's and every ancestor's hold no key variable", () => {
    const parts = sections(output);
    const checked = [...parts.keys()].filter(
      (k) => k === "self" || k === "env" || k === "parent" || /^ancestor/.test(k),
    );
    assert.ok(checked.includes("self") && checked.includes("env") && checked.includes("parent"), output);
    for (const name of checked) {
      const text = parts.get(name) ?? "";
      for (const key of Object.keys(KEYS)) assert.ok(!text.includes(`${key}=`), `${key} in ${name}:\n${text}`);
    }
    // The rest of the environment is passed on.
    for (const name of ["self", "env", "parent"])
      assert.match(parts.get(name) ?? "", /^AGENT_TREE_PLAIN=plain-visible$/m, `${name}: ${output}`);
  });

  it("keys the command finds elsewhere are redacted: the host's environ, a file holding a stored key", () => {
    const parts = sections(output);
    const host = parts.get("host") ?? "";
    for (const key of Object.keys(KEYS)) assert.match(host, new RegExp(`^${key}=\\[redacted\\]$`, "m"), host);
    assert.equal(parts.get("file")?.trim(), "stored key: [redacted]");
  });

  it("stored credentials (a key, OAuth access and refresh tokens), in no environment, are redacted where a tool finds them", () => {
    assert.equal(
      sections(output).get("credentials")?.trim(),
      "[redacted]\naccess=[redacted]\nrefresh=[redacted]\n[redacted]\n[redacted]",
    );
  });

  it("no key value appears in the tool result, the session file or the events", () => {
    for (const secret of SECRETS) {
      assert.ok(!output.includes(secret), "tool result");
      assert.ok(!sessionText.includes(secret), "session file");
      assert.ok(!eventsText.includes(secret), "events");
    }
  });

  it("the provider still sends the custom model's key from the environment", () => {
    assert.equal(fake.calls[0]?.headers.authorization, `Bearer ${KEYS.MY_PROVIDER_SECRET}`);
  });
});
