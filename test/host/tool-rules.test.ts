/**
 * Approval rules in the host: the broker consults them (deny first, allow without a question), offers "Always Allow
 * in This Workspace" with the rules that would cover the call and writes them to the workspace's setting; a
 * web_fetch of a local address asks every time, says so and is never allowed by a rule; the rules Show Tool Rules
 * lists (the setting's and, trusted, Claude Code's) and removes.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import type { FetchTarget } from "../../src/core/tools/web/fetch-target.js";
import type { ToolApprovalRequest } from "../../src/core/tools/types.js";
import { ApprovalBroker, type ApprovalOffer, type AutoApprove } from "../../src/host/tools/tool-approval.js";
import { SETTING_SOURCE, WorkspaceToolRules, type RulesSettingValue } from "../../src/host/tools/tool-rules.js";
import { tempDirPerTest } from "../util/temp-dir.js";

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(cond(), "timed out waiting");
}

/** The setting as VS Code keeps it: a user value and a workspace value; writes go to the workspace's. */
function fakeStore(workspace?: RulesSettingValue, user?: RulesSettingValue) {
  const state = { workspace: workspace as RulesSettingValue | undefined, user, writes: [] as RulesSettingValue[] };
  return {
    state,
    store: {
      effective: () => state.workspace ?? state.user,
      workspace: () => state.workspace,
      writeWorkspace: async (v: RulesSettingValue) => {
        state.workspace = v;
        state.writes.push(v);
      },
    },
  };
}

interface Asked {
  request: ToolApprovalRequest;
  summary: string;
  offer: ApprovalOffer;
}

function setup(
  opts: {
    auto?: AutoApprove;
    workspace?: RulesSettingValue;
    trusted?: boolean;
    cwd?: string;
    target?: (url: URL) => FetchTarget;
  } = {},
) {
  const asked: Asked[] = [];
  const fake = fakeStore(opts.workspace);
  const cwd = opts.cwd ?? "/work/project";
  const rules = new WorkspaceToolRules({ store: fake.store, cwd, trusted: () => opts.trusted !== false });
  const errors: string[] = [];
  const broker = new ApprovalBroker(
    () => opts.auto ?? false,
    { ask: (request, summary, offer) => asked.push({ request, summary, offer }), done: () => undefined },
    (name) => !["read", "grep", "find", "ls"].includes(name),
    {
      cwd,
      rules,
      onError: (m) => errors.push(m),
      inspectUrl: async (url) => opts.target?.(url) ?? { url, host: url.hostname, addresses: ["93.184.215.14"] },
    },
  );
  return { broker, asked, fake, rules, errors };
}

const bash = (id: string, command: string): ToolApprovalRequest => ({
  toolCallId: id,
  toolName: "bash",
  args: { command },
});

describe("the approval broker with rules", () => {
  it("a deny rule refuses without asking, even with autoApprove; an allow rule approves without asking", async () => {
    const { broker, asked } = setup({
      auto: true,
      workspace: { allow: ["Bash(npm test:*)"], deny: ["Bash(git push:*)"] },
    });
    assert.deepEqual(await broker.policy(bash("1", "git status && git push")), {
      approved: false,
      reason: "denied by the rule Bash(git push:*)",
    });
    const noAuto = setup({ workspace: { allow: ["Bash(npm test:*)"], deny: [] } });
    assert.deepEqual(await noAuto.broker.policy(bash("2", "npm test -- --grep x")), { approved: true });
    assert.deepEqual(noAuto.asked, []);
    assert.deepEqual(asked, []);
    const deniedRead = setup({ workspace: { allow: [], deny: ["Read(.env)"] } });
    assert.equal(
      (await deniedRead.broker.policy({ toolCallId: "r", toolName: "read", args: { path: ".env" } })).approved,
      false,
      "a deny rule reaches tools that otherwise never ask",
    );
  });

  it("offers the rules for the parts not allowed yet, writes them to the workspace's setting, and the same command then runs without asking", async () => {
    const { broker, asked, fake } = setup({ workspace: { allow: ["Bash(npm test:*)"], deny: ["Bash(rm:*)"] } });
    const first = broker.policy(bash("1", "npm test && npm run lint"));
    await until(() => asked.length === 1);
    assert.deepEqual(asked[0].offer, { rules: ["Bash(npm run lint:*)"] });
    assert.equal(asked[0].summary, "Run: npm test && npm run lint");
    assert.equal(broker.answer("1", true, false, false, true), true);
    assert.deepEqual(await first, { approved: true });
    await until(() => fake.state.writes.length === 1);
    assert.deepEqual(fake.state.workspace, {
      allow: ["Bash(npm test:*)", "Bash(npm run lint:*)"],
      deny: ["Bash(rm:*)"],
    });
    assert.deepEqual(await broker.policy(bash("2", "npm run lint && npm test")), { approved: true });
    const other = broker.policy(bash("3", "npm run build"));
    await until(() => asked.length === 2);
    assert.deepEqual(asked[1].offer.rules, ["Bash(npm run build:*)"], "another command still asks");
    broker.cancelAll();
    await other;
  });

  it("an edit allowed by a rule is asked about again when its file changed after its diff; a deny rule still refuses it", async () => {
    const { broker, asked } = setup({ workspace: { allow: ["Edit(src/**)"], deny: ["Edit(src/secret/**)"] } });
    const edit = (id: string, p: string, changed?: string): ToolApprovalRequest => ({
      toolCallId: id,
      toolName: "edit",
      args: { path: p, oldText: "a", newText: "b" },
      ...(changed === undefined ? {} : { changed }),
    });
    assert.deepEqual(await broker.policy(edit("1", "src/a.ts")), { approved: true }, "the rule allows it unasked");
    const changed = "src/a.ts changed after its diff was shown; nothing was written.";
    const again = broker.policy(edit("2", "src/a.ts", changed));
    await until(() => asked.length === 1);
    assert.equal(asked[0].summary, `${changed} Review the new diff.\nEdit src/a.ts`);
    broker.answer("2", true);
    assert.deepEqual(await again, { approved: true });
    assert.equal((await broker.policy(edit("3", "src/secret/k.ts", changed))).approved, false);
    assert.equal(asked.length, 1);
  });

  it("offers nothing for a command it does not understand, or in an untrusted workspace", async () => {
    const a = setup();
    void a.broker.policy(bash("1", "for f in *; do rm $f; done"));
    await until(() => a.asked.length === 1);
    assert.deepEqual(a.asked[0].offer, { rules: [] });
    a.broker.cancelAll();
    const b = setup({ trusted: false });
    void b.broker.policy(bash("1", "npm test"));
    await until(() => b.asked.length === 1);
    assert.deepEqual(b.asked[0].offer, { rules: [] });
    b.broker.cancelAll();
  });

  it("a web_fetch names its host and offers its domain rule", async () => {
    const { broker, asked, fake } = setup();
    const p = broker.policy({ toolCallId: "w", toolName: "web_fetch", args: { url: "https://docs.example.com/a" } });
    await until(() => asked.length === 1);
    assert.equal(asked[0].summary, "Fetch https://docs.example.com/a from docs.example.com");
    assert.deepEqual(asked[0].offer, { rules: ["WebFetch(domain:docs.example.com)"] });
    broker.answer("w", true, false, false, true);
    assert.deepEqual(await p, { approved: true });
    await until(() => fake.state.writes.length === 1);
    assert.deepEqual(
      await broker.policy({ toolCallId: "w2", toolName: "web_fetch", args: { url: "https://docs.example.com/b" } }),
      { approved: true },
    );
  });

  it("a web_fetch of a local address asks every time, says so, and neither a rule, the setting nor Allow always skips it", async () => {
    const local = (url: URL): FetchTarget => ({
      url,
      host: url.hostname,
      addresses: ["127.0.0.2"],
      local: { address: "127.0.0.2", kind: "loopback" },
    });
    const { broker, asked, fake } = setup({
      auto: true,
      workspace: { allow: ["WebFetch(domain:intranet.test)", "WebFetch"], deny: [] },
      target: local,
    });
    const req = (id: string): ToolApprovalRequest => ({
      toolCallId: id,
      toolName: "web_fetch",
      args: { url: "http://intranet.test:8080/x" },
    });
    const first = broker.policy(req("1"));
    await until(() => asked.length === 1);
    assert.deepEqual(asked[0].offer, {
      rules: [],
      local: "intranet.test resolves to 127.0.0.2, a loopback address (this computer)",
    });
    assert.equal(broker.answer("1", true, true, false, true), true);
    assert.deepEqual(await first, { approved: true, localNetwork: true }, "the tool is told the approval said local");
    assert.deepEqual(fake.state.writes, [], "no rule is written for a local address");
    assert.deepEqual(broker.alwaysAllowed(), [], "Allow always is not remembered for it");
    const second = broker.policy(req("2"));
    await until(() => asked.length === 2);
    broker.answer("2", false);
    assert.equal((await second).approved, false);
  });

  it("an IP literal says what it is; the summary names the host", async () => {
    const { broker, asked } = setup({
      target: (url) => ({
        url,
        host: "10.1.2.3",
        addresses: ["10.1.2.3"],
        local: { address: "10.1.2.3", kind: "private" },
      }),
    });
    void broker.policy({ toolCallId: "1", toolName: "web_fetch", args: { url: "http://10.1.2.3/" } });
    await until(() => asked.length === 1);
    assert.equal(asked[0].offer.local, "10.1.2.3 is a private network address");
    assert.equal(asked[0].summary, "Fetch http://10.1.2.3/ from 10.1.2.3");
    assert.deepEqual(broker.pendingPrompts()[0].offer, asked[0].offer, "kept for a reloaded chat");
    broker.cancelAll();
  });
});

describe("the workspace's tool rules", () => {
  const tmp = tempDirPerTest();

  it("adds to the workspace's value only, each rule once", async () => {
    const fake = fakeStore(undefined, { allow: ["Bash(ls:*)"], deny: [] });
    const rules = new WorkspaceToolRules({ store: fake.store, cwd: tmp.dir, trusted: () => true });
    await rules.add(["Bash(npm test:*)"]);
    await rules.add(["Bash(npm test:*)", "Edit(src/**)"]);
    assert.deepEqual(fake.state.workspace, { allow: ["Bash(npm test:*)", "Edit(src/**)"], deny: [] });
    assert.equal(fake.state.user?.allow.length, 1, "the user's value is untouched");
    const untrusted = new WorkspaceToolRules({ store: fakeStore().store, cwd: tmp.dir, trusted: () => false });
    assert.equal(untrusted.canAdd(), false);
    await assert.rejects(untrusted.add(["Bash(x)"]), /trusted workspace/);
    assert.equal(new WorkspaceToolRules({ store: fake.store, cwd: undefined, trusted: () => true }).canAdd(), false);
  });

  it("lists the setting's rules and, in a trusted workspace, Claude Code's; removes the setting's", async () => {
    mkdirSync(path.join(tmp.dir, ".claude"));
    writeFileSync(
      path.join(tmp.dir, ".claude", "settings.json"),
      JSON.stringify({ permissions: { allow: ["Bash(make:*)"], deny: ["Read(.env)"], ask: ["Bash(git push:*)"] } }),
    );
    const fake = fakeStore({ allow: ["Bash(npm test:*)", "WebFetch(example.com)"], deny: ["Bash(rm:*)"] });
    let trusted = true;
    const rules = new WorkspaceToolRules({ store: fake.store, cwd: tmp.dir, trusted: () => trusted });
    assert.deepEqual(await rules.list(), [
      { rule: "Bash(rm:*)", list: "deny", source: SETTING_SOURCE, removable: true },
      { rule: "Read(.env)", list: "deny", source: ".claude/settings.json", removable: false },
      { rule: "Bash(git push:*)", list: "ask", source: ".claude/settings.json", removable: false },
      { rule: "Bash(npm test:*)", list: "allow", source: SETTING_SOURCE, removable: true },
      {
        rule: "WebFetch(example.com)",
        list: "allow",
        source: SETTING_SOURCE,
        removable: true,
        problem: "expected domain:host",
      },
      { rule: "Bash(make:*)", list: "allow", source: ".claude/settings.json", removable: false },
    ]);
    assert.deepEqual(await rules.current(), {
      allow: ["Bash(npm test:*)", "WebFetch(example.com)", "Bash(make:*)"],
      deny: ["Bash(rm:*)", "Read(.env)"],
      ask: ["Bash(git push:*)"],
    });
    assert.equal(await rules.remove("Bash(npm test:*)", "allow"), true);
    assert.equal(await rules.remove("Bash(make:*)", "allow"), false, "Claude Code's file is not changed from here");
    assert.deepEqual(fake.state.workspace, { allow: ["WebFetch(example.com)"], deny: ["Bash(rm:*)"] });
    trusted = false;
    assert.deepEqual(await rules.current(), { allow: ["WebFetch(example.com)"], deny: ["Bash(rm:*)"], ask: [] });
  });
});
