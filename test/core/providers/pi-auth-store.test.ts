/**
 * pi's auth.json as a credential store: pi's format read and written as pi does, keys resolved as pi resolves them
 * (and not while listing), and the lock pi takes held around every change — a second process holding it (doing what
 * pi 1.6.0's auth-storage.js does) makes a change here wait, and the change then sees what that process wrote.
 */
import assert from "node:assert/strict";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import type { Credential } from "@earendil-works/pi-ai";
import { PiAuthFileStore, piAuthFile } from "../../../src/core/providers/pi-auth-store.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const HOLDER = path.join(__dirname, "..", "..", "fixtures", "pi-auth", "lock-holder.mjs");

const oauth = (access: string): Credential => ({
  type: "oauth",
  access,
  refresh: `r-${access}`,
  expires: 1_900_000_000_000,
});

/** Starts the lock holder and resolves once it holds the lock. */
async function holdLock(
  file: string,
  provider: string,
  credential: Credential,
): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, [HOLDER, file, provider, JSON.stringify(credential)], { stdio: "pipe" });
  let out = "";
  let err = "";
  child.stderr.on("data", (c: Buffer) => (err += c.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("locked\n")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`lock holder exited (${code}): ${err}`)));
  });
  return child;
}

function releaseLock(child: ChildProcessWithoutNullStreams): Promise<void> {
  const done = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  child.stdin.end("go\n");
  return done;
}

describe("pi's auth.json as a credential store", () => {
  const tmp = tempDirPerTest("agent-tree-pi-auth-");

  it("reads pi's credentials; an API key resolves from $NAME or a command as pi resolves it, list() runs nothing", async () => {
    const file = piAuthFile(tmp.dir);
    const marker = path.join(tmp.dir, "ran");
    writeFileSync(
      file,
      JSON.stringify({
        anthropic: oauth("tok-a"),
        openai: { type: "api_key", key: "sk-literal" },
        groq: { type: "api_key", key: "$GROQ_FROM_ENV" },
        xai: { type: "api_key", key: "${MISSING_VAR}" },
        cmd: { type: "api_key", key: `!touch '${marker}' && echo from-command` },
        broken: { type: "oauth", access: 1 },
      }),
    );
    const store = new PiAuthFileStore(file, { env: { GROQ_FROM_ENV: "gsk-from-env" } });
    assert.deepEqual(
      (await store.list()).map((c) => `${c.providerId}:${c.type}`),
      ["anthropic:oauth", "openai:api_key", "groq:api_key", "xai:api_key", "cmd:api_key"],
    );
    assert.equal(existsSync(marker), false, "listing ran the command");
    assert.deepEqual(await store.read("anthropic"), oauth("tok-a"));
    assert.equal(((await store.read("openai")) as { key?: string }).key, "sk-literal");
    assert.equal(((await store.read("groq")) as { key?: string }).key, "gsk-from-env");
    assert.equal(((await store.read("xai")) as { key?: string }).key, undefined);
    assert.equal(((await store.read("cmd")) as { key?: string }).key, "from-command");
    assert.equal(await store.read("broken"), undefined, "an entry pi would refuse is no credential");
    assert.equal(await store.read("nobody"), undefined);
  });

  it("a missing file is an empty store (nothing is created by reading); a change creates it as pi does", async () => {
    const dir = path.join(tmp.dir, "agent");
    const file = piAuthFile(dir);
    const store = new PiAuthFileStore(file);
    assert.deepEqual(await store.list(), []);
    assert.equal(existsSync(dir), false);
    await store.modify("anthropic", async (current) => {
      assert.equal(current, undefined);
      return oauth("new");
    });
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    // pi's layout: the whole object, two-space indentation.
    assert.equal(readFileSync(file, "utf8"), JSON.stringify({ anthropic: oauth("new") }, null, 2));
    assert.deepEqual(await store.read("anthropic"), oauth("new"));
  });

  it("a change keeps every other entry (unknown ones included) and sees the stored credential unresolved", async () => {
    const file = piAuthFile(tmp.dir);
    const before = { openai: { type: "api_key", key: "$OPENAI_KEY_VAR" }, custom: { type: "something-new", x: 1 } };
    writeFileSync(file, JSON.stringify(before));
    const store = new PiAuthFileStore(file, { env: { OPENAI_KEY_VAR: "sk-env" } });
    const seen: (Credential | undefined)[] = [];
    await store.modify("openai", async (current) => {
      seen.push(current);
      return undefined;
    });
    assert.deepEqual(seen, [{ type: "api_key", key: "$OPENAI_KEY_VAR" }], "modify passes the stored value as pi does");
    await store.modify("anthropic", async () => oauth("a"));
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { ...before, anthropic: oauth("a") });
    await store.delete("openai");
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { custom: before.custom, anthropic: oauth("a") });
  });

  it("a change waits while another process holds pi's lock, then sees what that process wrote", async () => {
    const file = piAuthFile(tmp.dir);
    mkdirSync(tmp.dir, { recursive: true });
    writeFileSync(file, JSON.stringify({ anthropic: oauth("old") }, null, 2));
    const store = new PiAuthFileStore(file);
    // pi refreshes the token: it holds the lock while it asks the server.
    const pi = await holdLock(file, "anthropic", oauth("refreshed-by-pi"));
    const events: string[] = [];
    let seen: Credential | undefined;
    const ours = store
      .modify("anthropic", async (current) => {
        events.push("ours ran");
        seen = current;
        // Refreshed already by pi: nothing to do (pi-ai re-checks under the lock the same way).
        return undefined;
      })
      .then(() => events.push("ours done"));
    // While pi holds the lock nothing of ours runs, however long it holds it.
    await new Promise((r) => setTimeout(r, 400));
    assert.equal(events.length, 0, events.join(", "));
    assert.ok(existsSync(`${file}.lock`), "pi's lock (proper-lockfile's <file>.lock folder) is held");
    // Marked before the request: ours may take the lock the moment pi lets it go, before pi's answer arrives here.
    events.push("pi releases");
    await releaseLock(pi);
    await ours;
    assert.deepEqual(events, ["pi releases", "ours ran", "ours done"]);
    assert.deepEqual(seen, oauth("refreshed-by-pi"), "the change read the file after pi's write");
    assert.equal(existsSync(`${file}.lock`), false, "the lock is released");
  });

  it("pi waits for a change of ours the same way: its write comes after ours, and keeps ours", async () => {
    const file = piAuthFile(tmp.dir);
    writeFileSync(file, "{}");
    const store = new PiAuthFileStore(file);
    let letGo: () => void = () => undefined;
    const holding = new Promise<void>((r) => (letGo = r));
    let entered: () => void = () => undefined;
    const inside = new Promise<void>((r) => (entered = r));
    const ours = store.modify("openai", async () => {
      entered();
      await holding;
      return { type: "api_key", key: "sk-ours" };
    });
    await inside;
    // pi's process tries to take the lock now: proper-lockfile refuses while ours is held (pi then retries for 30 s).
    const child = spawn(process.execPath, [HOLDER, file, "anthropic", JSON.stringify(oauth("pi"))], { stdio: "pipe" });
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((r) => child.on("exit", r));
    assert.notEqual(code, 0);
    assert.match(err, /ELOCKED|already being held/);
    letGo();
    await ours;
    // Now pi gets it, and writes its entry beside ours.
    const pi = await holdLock(file, "anthropic", oauth("pi"));
    await releaseLock(pi);
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), {
      openai: { type: "api_key", key: "sk-ours" },
      anthropic: oauth("pi"),
    });
    assert.deepEqual(await store.read("anthropic"), oauth("pi"), "the file changed: read again");
  });
});
