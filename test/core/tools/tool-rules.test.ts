/**
 * Approval rules: Claude Code's syntax (prefixes, wildcards, paths, domains, bare names), compound commands allowed
 * only when every part is, deny over ask over allow, what "Always Allow in This Workspace" offers, the bash parts,
 * and the rules read from a project's .claude/settings*.json.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { readClaudeRules } from "../../../src/core/tools/rules/claude-settings.js";
import { shellParts } from "../../../src/core/tools/rules/shell-parts.js";
import { judgeCall, parseRule, suggestRules, type RuleSet } from "../../../src/core/tools/rules/tool-rules.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const CWD = "/work/project";
const HOME = "/home/me";

async function verdict(toolName: string, args: Record<string, unknown>, rules: RuleSet): Promise<string> {
  const v = await judgeCall({ toolName, args, cwd: CWD, home: HOME }, rules);
  return v.kind === "allow" ? `allow ${v.rules.join(" ")}` : v.kind === "none" ? "none" : `${v.kind} ${v.rule}`;
}

const bash = (command: string, rules: RuleSet): Promise<string> => verdict("bash", { command }, rules);
const allow = (...r: string[]): RuleSet => ({ allow: r, deny: [] });

describe("bash parts", () => {
  it("splits lists, pipes, subshells, substitutions and here-documents; collects written files", async () => {
    assert.deepEqual(await shellParts("npm test && npm run lint"), {
      commands: ["npm test", "npm run lint"],
      writes: [],
    });
    assert.deepEqual((await shellParts("a; b || c | d"))?.commands, ["a", "b", "c", "d"]);
    assert.deepEqual((await shellParts("echo $(cat x) `whoami`"))?.commands, [
      "cat x",
      "whoami",
      "echo $(cat x) `whoami`",
    ]);
    assert.deepEqual((await shellParts("(cd a && ls)"))?.commands, ["cd a", "ls"]);
    assert.deepEqual((await shellParts("cat <<EOF\nhi $(date)\nEOF"))?.commands, ["cat", "date"]);
    assert.deepEqual(
      (await shellParts("cat <<'EOF'\nhi $(date)\nEOF"))?.commands,
      ["cat"],
      "a quoted here-document runs nothing",
    );
    assert.deepEqual((await shellParts("npm test\nrm -rf /"))?.commands, ["npm test", "rm -rf /"]);
    assert.deepEqual(await shellParts("npm test > out.txt 2>&1"), { commands: ["npm test"], writes: ["out.txt"] });
    assert.deepEqual(await shellParts("npm test 2>/dev/null </dev/null"), { commands: ["npm test"], writes: [] });
    assert.deepEqual((await shellParts("echo ${X:-$(rm y)}"))?.commands, ["rm y", "echo ${X:-$(rm y)}"]);
  });

  it("has no parts for what it does not understand", async () => {
    for (const c of [
      "if true; then ls; fi",
      "for i in 1; do ls; done",
      "$CMD arg",
      "echo 'unterminated",
      "echo hi > $F",
      "f() { ls; }",
      "echo $((1+2))",
      "",
    ])
      assert.equal(await shellParts(c), undefined, c);
  });
});

describe("rule matching", () => {
  it("prefix rules match at a word boundary; exact rules exactly; wildcards anywhere", async () => {
    assert.equal(await bash("npm test", allow("Bash(npm test:*)")), "allow Bash(npm test:*)");
    assert.equal(await bash("npm test -- --grep x", allow("Bash(npm test:*)")), "allow Bash(npm test:*)");
    assert.equal(await bash("npm testing", allow("Bash(npm test:*)")), "none");
    assert.equal(await bash("npm run build", allow("Bash(npm run build)")), "allow Bash(npm run build)");
    assert.equal(await bash("npm run build --watch", allow("Bash(npm run build)")), "none");
    assert.equal(await bash("git checkout main", allow("Bash(git * main)")), "allow Bash(git * main)");
    assert.equal(await bash("ls", allow("Bash(ls *)")), "allow Bash(ls *)", "a single trailing ' *' is optional");
    assert.equal(await bash("lsof", allow("Bash(ls *)")), "none");
    assert.equal(await bash("lsof", allow("Bash(ls*)")), "allow Bash(ls*)");
    assert.equal(await bash("anything at all | more", allow("Bash")), "allow Bash");
  });

  it("allows a compound command only when every part is allowed", async () => {
    const rules = allow("Bash(npm test:*)", "Bash(npm run lint:*)");
    assert.equal(await bash("npm test && npm run lint", rules), "allow Bash(npm test:*) Bash(npm run lint:*)");
    for (const c of [
      "npm test && rm -rf /",
      "npm test; curl x",
      "npm test || rm x",
      "npm test | sh",
      "npm test $(rm x)",
      "npm test `rm x`",
      "(npm test; rm x)",
      "npm test\nrm x",
      "npm test > package.json",
    ])
      assert.equal(await bash(c, rules), "none", c);
    assert.equal(
      await bash("npm test > out.txt", { allow: ["Bash(npm test:*)", "Edit(out.txt)"], deny: [] }),
      "allow Bash(npm test:*) Edit(out.txt)",
    );
    assert.equal(await bash("if true; then npm test; fi", rules), "none", "not understood: asks");
    assert.equal(
      await bash("if true; then npm test; fi", allow("Bash")),
      "allow Bash",
      "a bare Bash rule allows anything",
    );
  });

  it("deny wins over allow, for any part; ask over allow", async () => {
    const rules: RuleSet = { allow: ["Bash(git:*)", "Bash"], deny: ["Bash(git push:*)"] };
    assert.equal(await bash("git status", rules), "allow Bash(git:*)");
    assert.equal(await bash("git status && git push origin", rules), "deny Bash(git push:*)");
    assert.equal(await bash("echo $(git push)", rules), "deny Bash(git push:*)");
    assert.equal(await bash("git status", { allow: ["Bash"], deny: [], ask: ["Bash(git:*)"] }), "ask Bash(git:*)");
    assert.equal(
      await verdict("edit", { path: "src/a.ts" }, { allow: ["Edit(src/**)"], deny: ["Edit(**/*.ts)"] }),
      "deny Edit(**/*.ts)",
    );
    assert.equal(
      await bash("echo x > .env", { allow: ["Bash"], deny: ["Edit(.env)"] }),
      "deny Edit(.env)",
      "a redirection is a write",
    );
  });

  it("file patterns follow gitignore, anchored as Claude Code's are", async () => {
    const edit = (p: string, rule: string): Promise<string> => verdict("edit", { path: p }, allow(rule));
    assert.equal(await edit("src/a.ts", "Edit(src/**)"), "allow Edit(src/**)");
    assert.equal(await edit("src/deep/b.ts", "Edit(src/**)"), "allow Edit(src/**)");
    assert.equal(await edit("lib/src/a.ts", "Edit(src/**)"), "none", "a pattern with / is anchored");
    assert.equal(await edit("a/b/.env", "Edit(.env)"), "allow Edit(.env)", "a pattern without / matches at any depth");
    assert.equal(await edit("README.md", "Edit(./README.md)"), "allow Edit(./README.md)");
    assert.equal(await edit("docs/README.md", "Edit(./README.md)"), "none");
    assert.equal(await edit("docs/x.md", "Edit(/docs/*.md)"), "allow Edit(/docs/*.md)", "/ is the workspace");
    assert.equal(await edit("docs/x.md", "Edit(docs)"), "allow Edit(docs)", "inside a matched folder");
    assert.equal(await edit("/etc/hosts", "Edit(//etc/**)"), "allow Edit(//etc/**)");
    assert.equal(await edit(`${HOME}/.bashrc`, "Edit(~/.bashrc)"), "allow Edit(~/.bashrc)");
    assert.equal(await edit("../other/x", "Edit(**)"), "none", "outside the workspace");
    assert.equal(
      await verdict("write", { path: "src/a.ts" }, allow("Write(src/**)")),
      "allow Write(src/**)",
      "Write covers writes",
    );
    assert.equal(
      await verdict("write", { path: "src/a.ts" }, allow("edit(src/**)")),
      "none",
      "our edit covers edit only",
    );
    assert.equal(await verdict("read", { path: ".env" }, { allow: [], deny: ["Read(.env)"] }), "deny Read(.env)");
    assert.equal(await verdict("grep", { path: "secrets" }, { allow: [], deny: ["Read(secrets/**)"] }), "none");
    assert.equal(
      await verdict("grep", { path: "secrets/x" }, { allow: [], deny: ["Read(secrets/**)"] }),
      "deny Read(secrets/**)",
    );
  });

  it("domain rules name a host or its subdomains; bare names cover a whole tool", async () => {
    const fetch = (url: string, rule: string): Promise<string> => verdict("web_fetch", { url }, allow(rule));
    assert.equal(
      await fetch("https://example.com/a", "WebFetch(domain:example.com)"),
      "allow WebFetch(domain:example.com)",
    );
    assert.equal(
      await fetch("https://EXAMPLE.com:8443/a", "WebFetch(domain:example.com)"),
      "allow WebFetch(domain:example.com)",
    );
    assert.equal(await fetch("https://evil-example.com/", "WebFetch(domain:example.com)"), "none");
    assert.equal(
      await fetch("https://docs.example.com/", "WebFetch(domain:*.example.com)"),
      "allow WebFetch(domain:*.example.com)",
    );
    assert.equal(await fetch("https://x.org/", "WebFetch"), "allow WebFetch");
    assert.equal(await fetch("https://x.org/", "web_fetch(domain:x.org)"), "allow web_fetch(domain:x.org)");
    assert.equal(await verdict("mcp__fx__echo", {}, allow("mcp__fx__echo")), "allow mcp__fx__echo");
  });

  it("a malformed rule or one for a tool that takes no specifier matches nothing", async () => {
    assert.ok(parseRule("Bash(npm test").problem);
    assert.ok(parseRule("WebFetch(example.com)").problem);
    assert.ok(parseRule("mcp__fx__echo(x)").problem);
    assert.equal(await fetchRule("WebFetch(example.com)"), "none");
    async function fetchRule(rule: string): Promise<string> {
      return verdict("web_fetch", { url: "https://example.com" }, allow(rule));
    }
  });
});

describe("rules offered by Always Allow in This Workspace", () => {
  const offer = (toolName: string, args: Record<string, unknown>, rules: RuleSet = allow()): Promise<string[]> =>
    suggestRules({ toolName, args, cwd: CWD, home: HOME }, rules);

  it("offer the command's prefix, one per part not allowed yet", async () => {
    assert.deepEqual(await offer("bash", { command: "npm test" }), ["Bash(npm test:*)"]);
    assert.deepEqual(await offer("bash", { command: "npm run lint -- --fix" }), ["Bash(npm run lint:*)"]);
    assert.deepEqual(await offer("bash", { command: "git status --short" }), ["Bash(git status:*)"]);
    assert.deepEqual(await offer("bash", { command: "ls -la src" }), ["Bash(ls:*)"]);
    assert.deepEqual(
      await offer("bash", { command: "python script.py" }),
      ["Bash(python script.py)"],
      "an interpreter: the whole command",
    );
    assert.deepEqual(await offer("bash", { command: "rm -rf build" }), ["Bash(rm -rf build)"]);
    assert.deepEqual(await offer("bash", { command: "npm test && npm run lint" }, allow("Bash(npm test:*)")), [
      "Bash(npm run lint:*)",
    ]);
    assert.deepEqual(await offer("bash", { command: "npm test > out.txt" }), ["Bash(npm test:*)", "Edit(./out.txt)"]);
    assert.deepEqual(
      await offer("bash", { command: "if true; then ls; fi" }),
      [],
      "nothing for what is not understood",
    );
  });

  it("offer the file's folder, or the host", async () => {
    assert.deepEqual(await offer("edit", { path: "src/core/a.ts" }), ["Edit(src/core/**)"]);
    assert.deepEqual(await offer("write", { path: "README.md" }), ["Edit(./README.md)"]);
    assert.deepEqual(await offer("write", { path: "/elsewhere/x" }), []);
    assert.deepEqual(await offer("web_fetch", { url: "https://Docs.Example.com/a?b" }), [
      "WebFetch(domain:docs.example.com)",
    ]);
  });

  it("what they offer then allows the call", async () => {
    for (const [toolName, args] of [
      ["bash", { command: "npm test && npm run lint -- --fix > out.txt" }],
      ["edit", { path: "src/core/a.ts" }],
      ["write", { path: "README.md" }],
      ["web_fetch", { url: "https://docs.example.com/a" }],
    ] as const) {
      const rules = await offer(toolName, args);
      assert.equal(
        (await judgeCall({ toolName, args, cwd: CWD, home: HOME }, allow(...rules))).kind,
        "allow",
        toolName,
      );
    }
  });
});

describe("Claude Code's settings files", () => {
  const tmp = tempDirPerTest();

  it("reads permissions.allow/ask/deny of settings.json and settings.local.json", async () => {
    mkdirSync(path.join(tmp.dir, ".claude"));
    writeFileSync(
      path.join(tmp.dir, ".claude", "settings.json"),
      JSON.stringify({ permissions: { allow: ["Bash(npm test:*)", 3, ""], deny: ["Read(.env)"] }, model: "x" }),
    );
    writeFileSync(
      path.join(tmp.dir, ".claude", "settings.local.json"),
      `{ "permissions": { "ask": ["Bash(git push:*)"], }, }`,
    );
    const r = await readClaudeRules(tmp.dir);
    assert.deepEqual(r.issues, []);
    assert.deepEqual(r.rules, [
      { rule: "Bash(npm test:*)", list: "allow", source: ".claude/settings.json" },
      { rule: "Read(.env)", list: "deny", source: ".claude/settings.json" },
      { rule: "Bash(git push:*)", list: "ask", source: ".claude/settings.local.json" },
    ]);
  });

  it("reports a malformed file and reads on", async () => {
    mkdirSync(path.join(tmp.dir, ".claude"));
    writeFileSync(path.join(tmp.dir, ".claude", "settings.json"), "{ not json");
    writeFileSync(
      path.join(tmp.dir, ".claude", "settings.local.json"),
      JSON.stringify({ permissions: { allow: "Bash" } }),
    );
    const r = await readClaudeRules(tmp.dir);
    assert.equal(r.rules.length, 0);
    assert.match(r.issues[0], /^\.claude\/settings\.json: not valid JSON/);
    assert.match(r.issues[1], /permissions\.allow is not a list/);
    assert.deepEqual(await readClaudeRules(path.join(tmp.dir, "none")), { rules: [], issues: [] });
  });
});
