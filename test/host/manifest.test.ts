/**
 * package.json as the Marketplace, Open VSX and VS Code read it: the entry is complete (icon, repository,
 * issues, keywords, banner, changelog), the extension runs beside the workspace in remote windows, and every
 * contribution points at something that exists (commands with a title and category, menu items and
 * keybindings naming contributed commands, menu conditions naming contributed views, icon files).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DEFAULT_CHECKPOINT_LIMITS } from "../../src/core/checkpoints/types.js";
import { COMMAND_IDS, CONTRIBUTED_COMMAND_IDS, KEYBINDING_COMMAND_IDS } from "../../src/host/common/command-ids.js";

const ROOT = join(__dirname, "..", "..");

interface Command {
  command: string;
  title?: string;
  category?: string;
  icon?: string;
}
interface MenuItem {
  command?: string;
  submenu?: string;
  when?: string;
}
interface Manifest {
  name: string;
  publisher: string;
  version: string;
  license?: string;
  icon?: string;
  repository?: { type?: string; url?: string };
  bugs?: { url?: string };
  homepage?: string;
  keywords?: string[];
  galleryBanner?: { color?: string; theme?: string };
  extensionKind?: string[];
  engines: { vscode: string };
  devDependencies: Record<string, string>;
  contributes: {
    viewsContainers: { activitybar: { id: string; icon: string }[] };
    views: Record<string, { id: string }[]>;
    commands: Command[];
    menus: Record<string, MenuItem[]>;
    keybindings: { command: string; when?: string }[];
    configuration: { properties: Record<string, { enum?: string[]; default?: unknown; markdownDescription?: string }> };
  };
}

const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;
const commandIds = new Set(pkg.contributes.commands.map((c) => c.command));
const viewIds = new Set(Object.values(pkg.contributes.views).flatMap((vs) => vs.map((v) => v.id)));

/** Width and height of a PNG file, from its IHDR chunk; throws if it is not a PNG. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  assert.ok(
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
    "PNG signature",
  );
  assert.equal(bytes.toString("latin1", 12, 16), "IHDR", "PNG header chunk");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("package.json", () => {
  it("has a 128 × 128 PNG icon", () => {
    assert.ok(pkg.icon, "icon");
    assert.match(pkg.icon, /\.png$/, "the Marketplace takes no SVG icon");
    const file = join(ROOT, pkg.icon);
    assert.ok(existsSync(file), `${pkg.icon} missing`);
    assert.deepEqual(pngSize(file), { width: 128, height: 128 });
  });

  it("names its repository, issue tracker, home page, keywords and gallery banner", () => {
    assert.equal(pkg.repository?.type, "git");
    assert.match(pkg.repository?.url ?? "", /^https:\/\/\S+\.git$/);
    const repo = (pkg.repository?.url ?? "").replace(/\.git$/, "");
    assert.equal(pkg.bugs?.url, `${repo}/issues`);
    assert.ok(pkg.homepage?.startsWith(repo), "homepage in the repository");
    const keywords = pkg.keywords ?? [];
    assert.ok(keywords.length >= 5 && keywords.length <= 30, "5 to 30 keywords (the Marketplace keeps 30)");
    assert.equal(new Set(keywords).size, keywords.length, "no keyword twice");
    assert.match(pkg.galleryBanner?.color ?? "", /^#[0-9a-f]{6}$/i);
    assert.ok(["dark", "light"].includes(pkg.galleryBanner?.theme ?? ""), "banner theme dark or light");
    assert.ok(pkg.license && existsSync(join(ROOT, "LICENSE")), "license and LICENSE file");
  });

  it("runs where the workspace files are (remote windows: SSH, containers, code-server)", () => {
    // The agent's tools read, write and run commands in the workspace, and sessions live beside it.
    assert.deepEqual(pkg.extensionKind, ["workspace"]);
  });

  it("has a changelog with an Unreleased section and the current version", () => {
    const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
    const versions = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => m[1]);
    assert.equal(versions[0], "Unreleased");
    assert.ok(versions.includes(pkg.version), `CHANGELOG.md has no section for ${pkg.version}`);
    assert.match(readFileSync(join(ROOT, ".vscodeignore"), "utf8"), /^!CHANGELOG\.md$/m, "packaged");
  });

  it("is built against the VS Code API it declares", () => {
    const engine = /^\^(\d+)\.(\d+)\./.exec(pkg.engines.vscode);
    const types = /^\^?(\d+)\.(\d+)\./.exec(pkg.devDependencies["@types/vscode"]);
    assert.ok(engine && types, "engines.vscode and @types/vscode are version ranges");
    // vsce refuses @types/vscode newer than engines.vscode: the code could call API older VS Codes lack.
    assert.ok(
      Number(types[1]) < Number(engine[1]) ||
        (Number(types[1]) === Number(engine[1]) && Number(types[2]) <= Number(engine[2])),
      `@types/vscode ${pkg.devDependencies["@types/vscode"]} is newer than engines.vscode ${pkg.engines.vscode}`,
    );
  });

  it("gives every command a unique id, a title and the Agent category, and existing icons", () => {
    const ids = pkg.contributes.commands.map((c) => c.command);
    assert.equal(new Set(ids).size, ids.length, "a command id twice");
    for (const c of pkg.contributes.commands) {
      assert.match(c.command, /^agentTree\.[a-zA-Z]+$/, c.command);
      assert.ok(c.title?.trim(), `${c.command} has no title`);
      assert.equal(c.category, "Agent", `${c.command} category`);
      if (c.icon !== undefined && !/^\$\([a-z-]+\)$/.test(c.icon))
        assert.ok(existsSync(join(ROOT, c.icon)), `${c.command} icon ${c.icon} missing`);
    }
    for (const container of pkg.contributes.viewsContainers.activitybar)
      assert.ok(existsSync(join(ROOT, container.icon)), `${container.id} icon ${container.icon} missing`);
  });

  it("contributes exactly the commands the host registers (src/host/common/command-ids.ts) and binds no other", () => {
    const contributed = pkg.contributes.commands.map((c) => c.command);
    assert.deepEqual([...contributed].sort(), [...CONTRIBUTED_COMMAND_IDS].sort());
    const registered = new Set<string>(COMMAND_IDS);
    for (const k of pkg.contributes.keybindings) assert.ok(registered.has(k.command), `${k.command} is not registered`);
    const bound = new Set(pkg.contributes.keybindings.map((k) => k.command));
    for (const id of KEYBINDING_COMMAND_IDS) assert.ok(bound.has(id), `${id} is bound to no key`);
  });

  it("lets every menu item name a contributed command, and every view condition a contributed view", () => {
    for (const [menu, items] of Object.entries(pkg.contributes.menus)) {
      for (const item of items) {
        assert.ok(item.command && commandIds.has(item.command), `${menu}: ${item.command} is not contributed`);
        for (const [, view] of (item.when ?? "").matchAll(/\b(?:view|webviewId|focusedView) == '?([\w.]+)'?/g))
          assert.ok(viewIds.has(view), `${menu}: ${item.command} names an unknown view ${view}`);
      }
    }
  });

  it("binds keys only to this extension's commands and views", () => {
    for (const k of pkg.contributes.keybindings) {
      assert.match(k.command, /^agentTree\./, k.command);
      for (const [, view] of (k.when ?? "").matchAll(/\bfocusedView == '([\w.]+)'/g))
        assert.ok(viewIds.has(view), `${k.command} names an unknown view ${view}`);
    }
  });

  it("offers files following the tree under the names the docs use", () => {
    const props = pkg.contributes.configuration.properties;
    const restore = props["agentTree.checkpoints.restoreOnSwitch"];
    assert.deepEqual(restore?.enum, ["ask", "always", "never"]);
    assert.equal(restore?.default, "ask");
    const cap = props["agentTree.checkpoints.maxFileSizeMB"];
    assert.equal(cap?.default, DEFAULT_CHECKPOINT_LIMITS.maxFileBytes / 1024 / 1024, "the engine's own cap");
    assert.match(cap?.markdownDescription ?? "", /per-file size cap/i);
    const title = (id: string): string | undefined => pkg.contributes.commands.find((c) => c.command === id)?.title;
    assert.equal(title("agentTree.restoreFilesHere"), "Restore Files to This Point");
    assert.equal(title("agentTree.showChangesHere"), "Show Changes at This Point");
    assert.equal(title("agentTree.undoFileRestore"), "Undo File Restore");
    const rowMenu = pkg.contributes.menus["webview/context"].map((m) => m.command);
    assert.ok(rowMenu.includes("agentTree.restoreFilesHere") && rowMenu.includes("agentTree.showChangesHere"));
    const hidden = pkg.contributes.menus.commandPalette.filter((m) => m.when === "false").map((m) => m.command);
    assert.ok(hidden.includes("agentTree.restoreFilesHere"), "a row item needs its row");
    assert.ok(!hidden.includes("agentTree.undoFileRestore"), "Undo File Restore is in the palette");
  });

  it("the row menu's parallel items show only on the rows they act on (the keys the tree row sets)", () => {
    // The tree row's data-vscode-context sets these (webview/tree/tree-branches.ts; test/webview/tree-branch-menu).
    const expected: Record<string, string> = {
      "agentTree.adoptBranch": "parallelBranch",
      "agentTree.archiveOtherBranches": "parallelBranch",
      "agentTree.runCheckAgain": "checkedBranch",
      "agentTree.continueAsBranch": "aside",
    };
    const rowMenu = pkg.contributes.menus["webview/context"];
    for (const [command, key] of Object.entries(expected)) {
      const item = rowMenu.find((m) => m.command === command);
      const terms = (item?.when ?? "").split("&&").map((t) => t.trim());
      assert.ok(terms.includes(key), `${command}'s when clause needs \`${key}\`: ${item?.when}`);
      assert.ok(terms.includes("webviewSection == 'entry'"), command);
    }
  });

  it("the README's tables name every setting and every command it contributes (the README stays true)", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const missing = [
      ...Object.keys(pkg.contributes.configuration.properties),
      ...pkg.contributes.commands.map((c) => c.command),
    ].filter((id) => !readme.includes(`\`${id}\``));
    assert.deepEqual(missing, [], "add them to the README's Settings or Commands table");
  });
});
