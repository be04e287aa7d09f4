/**
 * The credential stores of the host: SecretStorage's (one secret per provider, serialized read-modify-write, other
 * windows' writes seen, keys of earlier versions moved in, listing with and without `SecretStorage.keys()`), and the
 * layered store over it and pi's auth.json (reads fall through, a refresh of pi's login stays in pi's file, Log Out
 * removes from both, a broken auth.json leaves the extension's own credentials working).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import type { Credential } from "@earendil-works/pi-ai";
import { PiAuthFileStore, piAuthFile } from "../../src/core/providers/pi-auth-store.js";
import { LayeredCredentialStore } from "../../src/host/models/layered-credential-store.js";
import { SecretCredentialStore, type SecretStorageLike } from "../../src/host/models/secret-credential-store.js";
import { tempDirPerTest } from "../util/temp-dir.js";

/** VS Code's SecretStorage in memory; `other()` is another window on the same secrets. */
class FakeSecrets implements SecretStorageLike {
  readonly data = new Map<string, string>();
  readonly listeners = new Set<(e: { key: string }) => unknown>();
  gets = 0;
  constructor(private readonly withKeys = true) {}
  async get(key: string): Promise<string | undefined> {
    this.gets++;
    return this.data.get(key);
  }
  async store(key: string, value: string): Promise<void> {
    this.data.set(key, value);
    for (const l of this.listeners) l({ key });
  }
  async delete(key: string): Promise<void> {
    this.data.delete(key);
    for (const l of this.listeners) l({ key });
  }
  onDidChange(listener: (e: { key: string }) => unknown): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  get keys(): (() => Promise<string[]>) | undefined {
    return this.withKeys ? async () => [...this.data.keys()] : undefined;
  }
}

const oauth = (access: string): Credential => ({
  type: "oauth",
  access,
  refresh: `r-${access}`,
  expires: 1_900_000_000_000,
});
const key = (k: string): Credential => ({ type: "api_key", key: k });

describe("SecretStorage credential store", () => {
  it("stores one secret per provider, as JSON in pi's shape; reads are cached until the secret changes", async () => {
    const secrets = new FakeSecrets();
    const store = new SecretCredentialStore(secrets);
    await store.modify("openai", async () => key("sk-1"));
    assert.deepEqual(JSON.parse(secrets.data.get("agentTree.credential.openai") ?? ""), key("sk-1"));
    const before = secrets.gets;
    for (let i = 0; i < 5; i++) assert.deepEqual(await store.read("openai"), key("sk-1"));
    assert.equal(secrets.gets, before, "served from memory");
    // Another window writes the same secret.
    await secrets.store("agentTree.credential.openai", JSON.stringify(key("sk-2")));
    assert.deepEqual(await store.read("openai"), key("sk-2"));
    store.dispose();
  });

  it("modify is a serialized read-modify-write per provider: concurrent refreshes see each other's result", async () => {
    const store = new SecretCredentialStore(new FakeSecrets());
    await store.modify("anthropic", async () => oauth("t0"));
    const refresh = () =>
      store.modify("anthropic", async (current) => {
        await new Promise((r) => setTimeout(r, 5));
        const n = Number((current as { access: string }).access.slice(1));
        return oauth(`t${n + 1}`);
      });
    await Promise.all([refresh(), refresh(), refresh()]);
    assert.deepEqual(await store.read("anthropic"), oauth("t3"), "no refresh lost another's token");
    store.dispose();
  });

  it("lists what is stored, with SecretStorage.keys() (VS Code >= 1.101) and without it (1.100: its own index)", async () => {
    for (const withKeys of [true, false]) {
      const store = new SecretCredentialStore(new FakeSecrets(withKeys));
      await store.modify("openai", async () => key("sk"));
      await store.modify("anthropic", async () => oauth("a"));
      await store.delete("openai");
      assert.deepEqual(await store.list(), [{ providerId: "anthropic", type: "oauth" }], `keys(): ${withKeys}`);
      store.dispose();
    }
  });

  it("moves keys of earlier versions (agentTree.apiKey.<id>) in, without replacing a stored credential", async () => {
    const secrets = new FakeSecrets();
    await secrets.store("agentTree.apiKey.openai", "sk-old");
    await secrets.store("agentTree.apiKey.groq", "gsk-old");
    const store = new SecretCredentialStore(secrets);
    await store.modify("groq", async () => key("gsk-new"));
    assert.deepEqual(await store.migrate(["openai", "groq", "anthropic"]), ["openai", "groq"]);
    assert.deepEqual(await store.read("openai"), key("sk-old"));
    assert.deepEqual(await store.read("groq"), key("gsk-new"));
    assert.equal(secrets.data.has("agentTree.apiKey.openai"), false);
    assert.equal(secrets.data.has("agentTree.apiKey.groq"), false);
    store.dispose();
  });

  it("tells listeners which provider changed, in this window or another", async () => {
    const secrets = new FakeSecrets();
    const store = new SecretCredentialStore(secrets);
    const changed: string[] = [];
    store.onDidChange((id) => changed.push(id));
    await store.modify("openai", async () => key("sk"));
    await secrets.store("agentTree.credential.xai", JSON.stringify(key("x")));
    await secrets.store("unrelated", "v");
    assert.deepEqual(changed, ["openai", "xai"]);
    store.dispose();
  });
});

describe("the layered store: the extension's credentials over pi's auth.json", () => {
  const tmp = tempDirPerTest("agent-tree-layered-");

  function setUp(piData: Record<string, unknown>) {
    const file = piAuthFile(tmp.dir);
    writeFileSync(file, JSON.stringify(piData, null, 2));
    const own = new SecretCredentialStore(new FakeSecrets());
    const problems: string[] = [];
    const layered = new LayeredCredentialStore(own, (m) => problems.push(m));
    const pi = new PiAuthFileStore(file);
    layered.setPiStore(pi);
    return { file, own, layered, problems, pi };
  }

  it("reads the extension's credential first, pi's otherwise; lists both with where each is", async () => {
    const { own, layered } = setUp({ anthropic: oauth("pi-a"), openai: key("sk-pi") });
    await own.modify("openai", async () => key("sk-vscode"));
    assert.deepEqual(await layered.read("openai"), key("sk-vscode"));
    assert.deepEqual(await layered.read("anthropic"), oauth("pi-a"));
    assert.deepEqual(await layered.placed(), [
      { providerId: "openai", type: "api_key", place: "vscode" },
      { providerId: "anthropic", type: "oauth", place: "pi" },
    ]);
    layered.setPiStore(undefined);
    assert.equal(await layered.read("anthropic"), undefined, "pi's are used only when chosen");
  });

  it("a refresh of pi's login is written to pi's file (pi sees the new token); a new login goes to SecretStorage", async () => {
    const { file, own, layered } = setUp({ anthropic: oauth("pi-old") });
    await layered.modify("anthropic", async () => oauth("pi-refreshed"));
    assert.deepEqual(JSON.parse(readFile(file)).anthropic, oauth("pi-refreshed"));
    assert.equal(await own.read("anthropic"), undefined);
    await layered.modify("openai", async () => key("sk-new"));
    assert.deepEqual(await own.read("openai"), key("sk-new"));
    assert.equal(JSON.parse(readFile(file)).openai, undefined);
  });

  it("Log Out removes the provider's credential from both places", async () => {
    const { file, own, layered } = setUp({ anthropic: oauth("pi-a"), xai: key("x-pi") });
    await own.modify("anthropic", async () => oauth("vs-a"));
    await layered.delete("anthropic");
    assert.equal(await layered.read("anthropic"), undefined);
    assert.deepEqual(Object.keys(JSON.parse(readFile(file))), ["xai"]);
  });

  it("a broken auth.json is reported once and hides only pi's credentials", async () => {
    const { file, own, layered, problems } = setUp({});
    writeFileSync(file, "{ not json");
    await own.modify("openai", async () => key("sk"));
    assert.deepEqual(await layered.read("openai"), key("sk"));
    assert.equal(await layered.read("anthropic"), undefined);
    assert.equal(await layered.read("groq"), undefined);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /auth\.json.*not valid JSON/);
  });
});

function readFile(file: string): string {
  return readFileSync(file, "utf8");
}
