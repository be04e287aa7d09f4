/**
 * Tree and chat views under VS Code's Dark Modern, Light Modern and Dark High Contrast themes, in real
 * Chromium: every visible row's / message's text must reach WCAG contrast 4.5 against what is painted behind
 * it (3.0 for deliberately dimmed tree rows), and the focused tree row must show a visible outline.
 * Screenshots go to test-results/themes/ (gitignored) for a human look.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import type { CompareItem, CompareOverview, CompareTurn } from "../../src/core/compare/compare-types.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { call, chatSnapshot, CLAUDE, msg, type ChatSnapshot } from "./chat-fixtures.js";
import { applyTheme, settle, webviewRig, withPage } from "./harness.js";
import { treeRow, treeSnapshot } from "./tree-fixtures.js";

/** A workbench theme: its body class and the values of every --vscode-* variable media/webview.css reads. */
interface Theme {
  id: string;
  bodyClass: string;
  vars: Record<string, string>;
}

const FONTS = {
  "--vscode-font-family": "sans-serif",
  "--vscode-font-size": "13px",
  "--vscode-editor-font-family": "monospace",
  "--vscode-editor-font-size": "13px",
};

// Values as VS Code computes them: the theme file (extensions/theme-defaults/themes/*.json, with its includes)
// over the colour registry's defaults (src/vs/platform/theme/common/colors/*.ts). Colours a theme leaves null
// are omitted: VS Code sets no variable for them, so our CSS's fallbacks apply.
const THEMES: Theme[] = [
  {
    id: "dark-modern",
    bodyClass: "vscode-dark",
    vars: {
      ...FONTS,
      "--vscode-foreground": "#cccccc",
      "--vscode-descriptionForeground": "#9d9d9d",
      "--vscode-errorForeground": "#f85149",
      "--vscode-focusBorder": "#0078d4",
      "--vscode-textLink-foreground": "#4daafc",
      "--vscode-textLink-activeForeground": "#4daafc",
      "--vscode-textPreformat-foreground": "#d0d0d0",
      "--vscode-textBlockQuote-background": "#2b2b2b",
      "--vscode-textBlockQuote-border": "#616161",
      "--vscode-textCodeBlock-background": "#2b2b2b",
      "--vscode-panel-border": "#2b2b2b",
      "--vscode-input-background": "#313131",
      "--vscode-input-border": "#3c3c3c",
      "--vscode-input-foreground": "#cccccc",
      "--vscode-input-placeholderForeground": "#989898",
      "--vscode-inputValidation-warningBackground": "#352a05",
      "--vscode-inputValidation-warningBorder": "#b89500",
      "--vscode-sideBar-background": "#181818",
      "--vscode-editor-background": "#1f1f1f",
      "--vscode-diffEditor-insertedTextBackground": "#9ccc2c33",
      "--vscode-diffEditor-removedTextBackground": "#ff000033",
      "--vscode-diffEditor-insertedLineBackground": "#9bb95533",
      "--vscode-diffEditor-removedLineBackground": "#ff000033",
      "--vscode-progressBar-background": "#0078d4",
      "--vscode-list-activeSelectionBackground": "#04395e",
      "--vscode-list-activeSelectionForeground": "#ffffff",
      "--vscode-list-inactiveSelectionBackground": "#37373d",
      "--vscode-list-hoverBackground": "#2a2d2e",
      "--vscode-list-focusOutline": "#0078d4",
      "--vscode-list-warningForeground": "#cca700",
      "--vscode-list-errorForeground": "#f88070",
      "--vscode-badge-background": "#616161",
      "--vscode-badge-foreground": "#f8f8f8",
      "--vscode-tree-indentGuidesStroke": "#585858",
      "--vscode-charts-green": "#89d185",
      "--vscode-charts-purple": "#b180d7",
      "--vscode-charts-yellow": "#cca700",
      "--vscode-testing-iconPassed": "#73c991",
      // Not read by media/webview.css, but by the toolkit's dropdowns and buttons in both views.
      "--vscode-dropdown-background": "#313131",
      "--vscode-dropdown-foreground": "#cccccc",
      "--vscode-dropdown-border": "#3c3c3c",
      "--vscode-button-background": "#0078d4",
      "--vscode-button-foreground": "#ffffff",
      "--vscode-button-hoverBackground": "#026ec1",
      "--vscode-button-secondaryBackground": "#313131",
      "--vscode-button-secondaryForeground": "#cccccc",
      "--vscode-button-secondaryHoverBackground": "#3c3c3c",
    },
  },
  {
    id: "light-modern",
    bodyClass: "vscode-light",
    vars: {
      ...FONTS,
      "--vscode-foreground": "#3b3b3b",
      "--vscode-descriptionForeground": "#3b3b3b",
      "--vscode-errorForeground": "#f85149",
      "--vscode-focusBorder": "#005fb8",
      "--vscode-textLink-foreground": "#005fb8",
      "--vscode-textLink-activeForeground": "#005fb8",
      "--vscode-textPreformat-foreground": "#3b3b3b",
      "--vscode-textBlockQuote-background": "#f8f8f8",
      "--vscode-textBlockQuote-border": "#e5e5e5",
      "--vscode-textCodeBlock-background": "#f8f8f8",
      "--vscode-panel-border": "#e5e5e5",
      "--vscode-input-background": "#ffffff",
      "--vscode-input-border": "#cecece",
      "--vscode-input-foreground": "#3b3b3b",
      "--vscode-input-placeholderForeground": "#767676",
      "--vscode-inputValidation-warningBackground": "#f6f5d2",
      "--vscode-inputValidation-warningBorder": "#b89500",
      "--vscode-sideBar-background": "#f8f8f8",
      "--vscode-editor-background": "#ffffff",
      "--vscode-diffEditor-insertedTextBackground": "#9ccc2c40",
      "--vscode-diffEditor-removedTextBackground": "#ff000033",
      "--vscode-diffEditor-insertedLineBackground": "#9bb95533",
      "--vscode-diffEditor-removedLineBackground": "#ff000033",
      "--vscode-progressBar-background": "#005fb8",
      "--vscode-list-activeSelectionBackground": "#e8e8e8",
      "--vscode-list-activeSelectionForeground": "#000000",
      "--vscode-list-inactiveSelectionBackground": "#e4e6f1",
      "--vscode-list-hoverBackground": "#f2f2f2",
      "--vscode-list-focusOutline": "#005fb8",
      "--vscode-list-warningForeground": "#855f00",
      "--vscode-list-errorForeground": "#b01011",
      "--vscode-badge-background": "#cccccc",
      "--vscode-badge-foreground": "#3b3b3b",
      "--vscode-tree-indentGuidesStroke": "#a9a9a9",
      "--vscode-charts-green": "#388a34",
      "--vscode-charts-purple": "#652d90",
      "--vscode-charts-yellow": "#bf8803",
      "--vscode-testing-iconPassed": "#73c991",
      "--vscode-dropdown-background": "#ffffff",
      "--vscode-dropdown-foreground": "#3b3b3b",
      "--vscode-dropdown-border": "#cecece",
      "--vscode-button-background": "#005fb8",
      "--vscode-button-foreground": "#ffffff",
      "--vscode-button-hoverBackground": "#0258a8",
      "--vscode-button-secondaryBackground": "#e5e5e5",
      "--vscode-button-secondaryForeground": "#3b3b3b",
      "--vscode-button-secondaryHoverBackground": "#cccccc",
    },
  },
  {
    id: "high-contrast-dark",
    bodyClass: "vscode-high-contrast",
    vars: {
      ...FONTS,
      "--vscode-foreground": "#ffffff",
      "--vscode-descriptionForeground": "rgba(255, 255, 255, 0.7)",
      "--vscode-errorForeground": "#f48771",
      "--vscode-focusBorder": "#f38518",
      "--vscode-contrastBorder": "#6fc3df",
      "--vscode-contrastActiveBorder": "#f38518",
      "--vscode-textLink-foreground": "#21a6ff",
      "--vscode-textLink-activeForeground": "#21a6ff",
      "--vscode-textPreformat-foreground": "#ffffff",
      "--vscode-textBlockQuote-border": "#ffffff",
      "--vscode-textCodeBlock-background": "#000000",
      "--vscode-panel-border": "#6fc3df",
      "--vscode-input-background": "#000000",
      "--vscode-input-border": "#6fc3df",
      "--vscode-input-foreground": "#ffffff",
      "--vscode-input-placeholderForeground": "rgba(255, 255, 255, 0.7)",
      "--vscode-inputValidation-warningBackground": "#000000",
      "--vscode-inputValidation-warningBorder": "#6fc3df",
      "--vscode-sideBar-background": "#000000",
      "--vscode-editor-background": "#000000",
      "--vscode-diffEditor-insertedTextBorder": "#33ff2e",
      "--vscode-diffEditor-removedTextBorder": "#ff008f",
      "--vscode-progressBar-background": "#6fc3df",
      "--vscode-list-hoverBackground": "rgba(255, 255, 255, 0.1)",
      "--vscode-list-focusOutline": "#f38518",
      "--vscode-tree-indentGuidesStroke": "#a9a9a9",
      "--vscode-badge-background": "#000000",
      "--vscode-badge-foreground": "#ffffff",
      "--vscode-charts-green": "#89d185",
      "--vscode-charts-purple": "#b180d7",
      "--vscode-charts-yellow": "#ffd370",
      "--vscode-testing-iconPassed": "#73c991",
      "--vscode-dropdown-background": "#000000",
      "--vscode-dropdown-foreground": "#ffffff",
      "--vscode-dropdown-border": "#6fc3df",
      "--vscode-button-foreground": "#ffffff",
      "--vscode-button-border": "#6fc3df",
      "--vscode-button-secondaryForeground": "#ffffff",
    },
  },
];

/** One measured run of text. */
interface TextContrast {
  root: string;
  cls: string;
  text: string;
  fg: string;
  bg: string;
  ratio: number;
  dimmed: boolean;
  /** An opaque layer was found behind the text (else the blank canvas was assumed). */
  opaque: boolean;
}

// In-page measurement, passed as a string (tsx's name-keeping helpers do not exist in the page). For each
// visible, non-decorative text node under `roots`: its colour (alpha and ancestors' opacity applied) over
// the composite of the backgrounds behind it, walking up to the first opaque one.
const MEASURE = `(opts) => {
  const parse = (c) => {
    let m = /^rgba?\\(([^)]*)\\)$/.exec(c);
    if (m !== null) { const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
    m = /^color\\(srgb ([^)]*)\\)$/.exec(c);
    if (m !== null) { const p = m[1].split(/[\\s\\/]+/).filter(Boolean).map(Number); return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1]; }
    throw new Error("unparsed colour " + c);
  };
  const over = (top, bottom, a) => [0, 1, 2].map((i) => top[i] * a + bottom[i] * (1 - a));
  const lum = (c) => {
    const l = c.map((v) => { const s = v / 255; return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4); });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  };
  const hex = (c) => "#" + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  const out = [];
  for (const root of document.querySelectorAll(opts.roots)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) {
      if ((n.textContent || "").trim() === "") continue;
      const el = n.parentElement;
      if (el === null || el.closest('[aria-hidden="true"]') !== null) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const shown = [...range.getClientRects()].some((r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight);
      if (!shown || getComputedStyle(el).visibility !== "visible") continue;
      const layers = [];
      let opacity = 1;
      for (let e = el; e !== null; e = e.parentElement) {
        const cs = getComputedStyle(e);
        opacity *= Number(cs.opacity);
        const b = parse(cs.backgroundColor);
        if (b[3] > 0 && (layers.length === 0 || layers[layers.length - 1][3] < 1)) layers.push(b);
      }
      const opaque = layers.length > 0 && layers[layers.length - 1][3] >= 1;
      let bg = [255, 255, 255];
      for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg, layers[i][3]);
      const fgRaw = parse(getComputedStyle(el).color);
      const fg = over(fgRaw, bg, fgRaw[3] * opacity);
      const a = lum(fg), b = lum(bg);
      out.push({
        root: root.getAttribute("data-entry-id") || root.getAttribute("data-message-id") || root.className,
        cls: el.className,
        text: (n.textContent || "").trim().slice(0, 40),
        fg: hex(fg),
        bg: hex(bg),
        ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
        dimmed: opts.dimmed !== null && el.closest(opts.dimmed) !== null,
        opaque,
      });
    }
  }
  return out;
}`;

async function measure(page: Page, roots: string, dimmed: string | null): Promise<TextContrast[]> {
  return (await page.evaluate(`(${MEASURE})(${JSON.stringify({ roots, dimmed })})`)) as TextContrast[];
}

/** Minimum ratio seen per theme and check, for the report (written to test-results/themes/contrast.json). */
const minima: Record<
  string,
  Record<string, { normal: number; dimmed: number; worst: string; focusOutline?: number }>
> = {};
const OUT = join(process.cwd(), "test-results", "themes");

/** Assert every measured run meets its threshold; name the failures precisely. */
function check(theme: Theme, what: string, runs: TextContrast[]): void {
  assert.ok(runs.length > 0, `${theme.id}/${what}: no text measured`);
  const bad = runs.filter((r) => !r.opaque || r.ratio < (r.dimmed ? 3.0 : 4.5));
  const min = (xs: TextContrast[]) => Math.min(...xs.map((r) => r.ratio));
  const worst = runs.reduce((a, b) => (b.ratio < a.ratio ? b : a));
  (minima[theme.id] ??= {})[what] = {
    normal: min(runs.filter((r) => !r.dimmed)),
    dimmed: runs.some((r) => r.dimmed) ? min(runs.filter((r) => r.dimmed)) : NaN,
    worst: `${worst.root} .${worst.cls} "${worst.text}" ${worst.fg} on ${worst.bg}`,
  };
  assert.deepEqual(
    bad.map(
      (r) => `${r.root} .${r.cls} "${r.text}" ${r.fg} on ${r.bg} = ${r.ratio.toFixed(2)}${r.dimmed ? " (dimmed)" : ""}`,
    ),
    [],
    `${theme.id}/${what}: text below WCAG contrast (4.5, dimmed 3.0)`,
  );
}

const rig = webviewRig();

before(async () => {
  await mkdir(OUT, { recursive: true });
});

after(async () => {
  await writeFile(join(OUT, "contrast.json"), JSON.stringify(minima, null, 2));
  for (const [id, checks] of Object.entries(minima))
    console.log(
      `[themes] ${id}: ` +
        Object.entries(checks)
          .map(
            ([k, v]) =>
              `${k} min ${v.normal.toFixed(2)}${Number.isNaN(v.dimmed) ? "" : ` (dimmed ${v.dimmed.toFixed(2)})`}`,
          )
          .join("; "),
    );
});

/** Every row kind the brief names: user, assistant, tool, label (tag and entry), branch summary, compaction. */
function treeNodes(): TreeRow[] {
  return [
    treeRow("u1", null, "user", { preview: "Refactor the parser" }),
    treeRow("a1", "u1", "assistant", { preview: "Sure, two approaches" }),
    treeRow("u2", "a1", "user", { preview: "Try approach A" }),
    treeRow("a2", "u2", "assistant", { preview: "Approach A plan", label: "plan-a" }),
    treeRow("c1", "a2", "compaction", { tokens: 48_000, preview: "summary" }),
    treeRow("t1", "c1", "toolResult", { toolName: "write", preview: "src/parser.ts written", changedFiles: 2 }),
    treeRow("lb", "t1", "label", { preview: "checkpoint" }),
    treeRow("u3", "lb", "user", { preview: "Looks good, continue" }),
    treeRow("u4", "a1", "user", { preview: "Actually approach B" }),
    // Brought from the other branch: its row says "from: …" (the source marker is measured too).
    treeRow("b1", "u4", "branch_summary", { preview: "Tried approach A first", fromId: "a2" }),
    treeRow("a4", "b1", "assistant", { preview: "Approach B result" }),
    treeRow("fa", "a4", "assistant", { preview: "Timed out", failed: true }),
  ];
}

/** A chat streaming a reply: markdown, thinking, tool calls and their results (one failed), a failed reply. */
function themedChat(): ChatSnapshot {
  const markdown = [
    "Here is the plan:",
    "1. **Split** the tokenizer out\n2. Add `parseExpr` with *precedence*",
    "```ts\nconst ast = parse(source);\n```",
    "See [the grammar notes](https://example.com).",
    "> Keep the old entry point for now.",
  ].join("\n\n");
  return chatSnapshot(
    [
      msg("u1", "user", "Refactor the parser and explain the change."),
      msg("a1", "assistant", markdown, {
        model: "claude",
        thinking: "The tokenizer is tangled with parsing.",
        toolCalls: [call("k1", "read", '{"path":"src/parser.ts"}'), call("k2", "bash", '{"command":"npm test"}')],
      }),
      msg("r1", "toolResult", "export function parse(src) { … }", { toolCallId: "k1", toolName: "read" }),
      msg("r2", "toolResult", "42 passing\n1 failing", { toolCallId: "k2", toolName: "bash", isError: true }),
      msg("a2", "assistant", "Running the tests again.", {
        stopReason: "error",
        errorMessage: "429 rate limited",
        failure: "Error: 429 rate limited",
      }),
      msg("b1", "bashExecution", "$ git status\nnothing to commit", {
        excludedFromContext: true,
        note: "Not sent to the model (!!)",
      }),
    ],
    {
      todos: [
        { content: "Split the tokenizer out", status: "completed" },
        { content: "Add parseExpr", status: "in_progress" },
        { content: "Update the docs", status: "pending" },
      ],
      streaming: true,
      model: CLAUDE,
      usage: { input: 1200, output: 340, cost: 0.0123, contextTokens: 5000, contextWindow: 200_000 },
    },
  );
}

/** The selected row's focus ring: visible outline, and its contrast against the view background. */
async function focusOutline(page: Page): Promise<{ style: string; width: number; color: string; ratio: number }> {
  const src = `() => {
    const row = document.querySelector(".tree-row.selected");
    if (row === null) throw new Error("no selected row");
    const cs = getComputedStyle(row);
    const parse = (c) => { const m = /\\(([^)]*)\\)/.exec(c); const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number); return c.startsWith("color(") ? [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1] : [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
    const lum = (c) => { const l = c.slice(0, 3).map((v) => { const s = v / 255; return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4); }); return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
    const oc = parse(cs.outlineColor), bg = parse(getComputedStyle(document.body).backgroundColor);
    const a = lum(oc), b = lum(bg);
    return { style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), color: cs.outlineColor, alpha: oc[3], ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
  }`;
  const r = (await page.evaluate(`(${src})()`)) as {
    style: string;
    width: number;
    color: string;
    alpha: number;
    ratio: number;
  };
  assert.ok(r.alpha > 0, `outline colour ${r.color} is transparent`);
  return r;
}

for (const theme of THEMES) {
  test(`tree view under ${theme.id}: readable rows and a visible focus outline`, () =>
    withPage(rig.openView({ view: "tree", theme: theme.bodyClass, width: 420, height: 380 }), async (vp) => {
      await applyTheme(vp.page, theme.bodyClass, theme.vars);
      await vp.send(treeSnapshot(treeNodes(), "u3", "s"));
      await vp.page.focus('[role="tree"]');
      await vp.page.keyboard.press("Control+o"); // "all" filter: label entries show too
      await settle(vp.page);
      await vp.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await vp.page.mouse.move(1, 1);
      await settle(vp.page);
      const kinds = await vp.page.$$eval('[role="treeitem"]', (els) => els.map((e) => e.className));
      for (const k of ["kind-user", "kind-assistant", "kind-toolResult", "kind-label", "kind-branch_summary"])
        assert.ok(
          kinds.some((c) => c.includes(k)),
          `${k} row rendered`,
        );
      assert.ok(kinds.some((c) => c.includes("kind-compaction")) && kinds.some((c) => c.includes(" dim")));
      assert.equal(await vp.page.locator(".tree-row.selected.active-leaf").count(), 1, "leaf starts selected");
      // Unfocused: the leaf's inactive selection.
      check(theme, "tree", await measure(vp.page, '[role="treeitem"]', ".tree-row.dim, .tree-row.search-context"));

      // Focused, with the selection moved onto the branch summary (coloured text on the selection).
      await vp.page.click('[data-entry-id="b1"] .role');
      await vp.page.mouse.move(1, 1);
      await settle(vp.page);
      assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("role")), "tree");
      check(
        theme,
        "tree-focused",
        await measure(vp.page, '[role="treeitem"]', ".tree-row.dim, .tree-row.search-context"),
      );
      const ring = await focusOutline(vp.page);
      assert.notEqual(ring.style, "none", "focused row has an outline");
      assert.ok(ring.width > 0, `outline width ${ring.width}`);
      assert.ok(ring.ratio >= 3, `focus outline ${ring.color} contrast ${ring.ratio.toFixed(2)} < 3 against the view`);
      minima[theme.id]["tree-focused"].focusOutline = ring.ratio;
      await vp.page.screenshot({ path: join(OUT, `tree-${theme.id}.png`) });

      // Search: hits at full strength, their ancestors shown as dimmed context.
      await vp.page.keyboard.press("Control+f");
      await vp.page.keyboard.type("approach");
      await settle(vp.page);
      assert.ok((await vp.page.locator(".tree-row.search-context").count()) > 0, "search shows context rows");
      check(
        theme,
        "tree-search",
        await measure(vp.page, '[role="treeitem"]', ".tree-row.dim, .tree-row.search-context"),
      );
      await vp.page.screenshot({ path: join(OUT, `tree-search-${theme.id}.png`) });
      assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
    }));

  test(`compare tab under ${theme.id}: readable ends, ancestor, turns and marked words`, () =>
    withPage(rig.openCompareView({ theme: theme.bodyClass, width: 1000, height: 900 }), async (vp) => {
      await applyTheme(vp.page, theme.bodyClass, theme.vars);
      await vp.send({ type: "compare/snapshot", overview: compareOverview(), sessionName: "Parser" });
      await vp.send({ type: "compare/turns", turns: compareTurns() });
      await vp.page.mouse.move(1, 1);
      await settle(vp.page);
      for (const sel of ["mark.cmp-del", "mark.cmp-ins", ".cmp-gap", ".cmp-badge.status-left", ".markdown code"])
        assert.ok((await vp.page.locator(sel).count()) > 0, `${sel} rendered`);
      check(theme, "compare", await measure(vp.page, ".cmp-header, .cmp-columns, .cmp-ancestor, .cmp-turn", null));
      await vp.page.screenshot({ path: join(OUT, `compare-${theme.id}.png`) });
      assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
    }));

  test(`chat view under ${theme.id}: readable messages, tool calls, error and approval`, () =>
    withPage(rig.openView({ view: "chat", theme: theme.bodyClass, width: 480, height: 1100 }), async (vp) => {
      await applyTheme(vp.page, theme.bodyClass, theme.vars);
      await vp.send(themedChat());
      await vp.send({ type: "chat/approval", toolCallId: "k3", toolName: "bash", summary: "rm -rf build" });
      await vp.page.locator('[data-message-id="a1"] details.tool-call').nth(1).locator("summary").click();
      await vp.page.locator(".chat-todos-summary").click();
      await vp.page.mouse.move(1, 1);
      await settle(vp.page);
      const calls = vp.page.locator('[data-message-id="a1"] details.tool-call');
      assert.equal(await calls.nth(0).getAttribute("open"), null, "first tool call collapsed");
      assert.equal(await calls.nth(1).getAttribute("open"), "", "second tool call open");
      for (const sel of [
        ".msg-user",
        ".markdown pre",
        ".markdown a",
        ".msg-error",
        ".approval",
        ".tool-result",
        ".msg-bash-note",
        ".todo-completed",
      ])
        assert.ok((await vp.page.locator(sel).count()) > 0, `${sel} rendered`);
      check(theme, "chat", await measure(vp.page, "[data-message-id], .approval, .chat-todos", null));
      await vp.page.screenshot({ path: join(OUT, `chat-${theme.id}.png`) });
      assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
    }));
}

/** Both ends, an ancestor, and a changed, a left-only and a same turn (tool call, markdown, marked words). */
function compareOverview(): CompareOverview {
  return {
    left: { entryId: "l", title: "assistant: Approach A works", label: "plan-a", turns: 3 },
    right: { entryId: "r", title: "assistant: Approach B is slow", turns: 2 },
    ancestor: {
      entryId: "x",
      sharedTurns: 1,
      items: [{ entryId: "x", kind: "assistant", text: "Two approaches: **A** or `B`?" }],
    },
    statuses: "cls",
  };
}

function compareTurns(): CompareTurn[] {
  // Messages and summaries are prose (markdown), as the host marks them; tool calls are not.
  const item = (entryId: string, kind: CompareItem["kind"], text: string, title?: string): CompareItem => ({
    entryId,
    kind,
    text,
    ...(title === undefined ? {} : { title }),
    ...(kind === "toolCall" ? {} : { prose: true }),
  });
  return [
    {
      index: 0,
      status: "changed",
      kind: "turn",
      rows: [
        {
          status: "changed",
          left: {
            item: item("lu", "user", "Try approach A"),
            spans: [{ text: "Try approach " }, { text: "A", changed: true }],
          },
          right: {
            item: item("ru", "user", "Try approach B"),
            spans: [{ text: "Try approach " }, { text: "B", changed: true }],
          },
        },
        {
          status: "changed",
          left: {
            item: item("lc", "toolCall", '{ "path": "src/a.ts" }', "edit"),
            spans: [{ text: '{ "path": "src/' }, { text: "a", changed: true }, { text: '.ts" }' }],
          },
          right: {
            item: item("rc", "toolCall", '{ "path": "src/b.ts" }', "edit"),
            spans: [{ text: '{ "path": "src/' }, { text: "b", changed: true }, { text: '.ts" }' }],
          },
        },
      ],
    },
    {
      index: 1,
      status: "left",
      kind: "branchSummary",
      rows: [{ status: "left", left: { item: item("ls", "branch_summary", "## Goal\nKeep the `parse()` API.") } }],
    },
    {
      index: 2,
      status: "same",
      kind: "turn",
      rows: [
        {
          status: "same",
          left: { item: item("lq", "user", "Run the tests") },
          right: { item: item("rq", "user", "Run the tests") },
        },
      ],
    },
  ];
}

/**
 * A ladder 36 branch levels deep (every level forks a short side branch off the continuing chain), the leaf
 * at its bottom, a label on a deep row: the shape of a long session that branched again and again.
 */
function deepSnapshot(): HostToWebview {
  const nodes: TreeRow[] = [treeRow("d0", null, "user", { preview: "Refactor the parser into modules" })];
  for (let i = 1; i <= DEEP_LEVELS; i++) {
    const kind = i % 2 === 0 ? "user" : "assistant";
    const extra = i === DEEP_LEVELS - 3 ? { label: "checkpoint" } : {};
    nodes.push(treeRow(`d${i}`, `d${i - 1}`, kind, { preview: `retry ${i}: rework the tokenizer again`, ...extra }));
    nodes.push(treeRow(`s${i}`, `d${i - 1}`, "user", { preview: `side question ${i} about error messages` }));
  }
  const leafId = `d${DEEP_LEVELS}`;
  return treeSnapshot(nodes, leafId, "deep");
}

const DEEP_LEVELS = 36;
/** Characters of role and text every visible row must show at 300 px, whatever its depth. */
const MIN_CHARS = 12;

/** Per visible row: its depth, how many leading characters of role + text are painted, its marker's box. */
interface DeepRow {
  id: string;
  level: number;
  shown: number;
  text: string;
  hint: string;
  hintWidth: number;
  marker: { left: number; right: number } | null;
  /** The right edge of the row's content box. */
  rowRight: number;
}

// In-page, as a string. A character counts as shown when its glyph ends before the row's clip edge (the text's
// own box when it has one) less the width of an ellipsis, and starts after the row's left content edge.
const DEEP_ROWS = `() => {
  const out = [];
  const ctx = document.createElement("canvas").getContext("2d");
  for (const row of document.querySelectorAll('[role="treeitem"]')) {
    const box = row.getBoundingClientRect();
    if (box.bottom <= 0 || box.top >= innerHeight) continue;
    const cs = getComputedStyle(row);
    const left = box.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
    const rowRight = box.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight);
    const entry = row.querySelector(".entry");
    const right = entry === null ? rowRight : Math.min(rowRight, entry.getBoundingClientRect().right);
    const role = row.querySelector(".role");
    ctx.font = getComputedStyle(role).font;
    const limit = right - ctx.measureText("…").width;
    let shown = 0;
    let text = "";
    const nodes = [];
    for (const el of [role, row.querySelector(".text")]) {
      if (el === null) continue;
      const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = w.nextNode(); n !== null; n = w.nextNode()) nodes.push(n);
    }
    outer: for (const n of nodes) {
      for (let i = 0; i < n.data.length; i++) {
        const r = document.createRange();
        r.setStart(n, i);
        r.setEnd(n, i + 1);
        const g = r.getBoundingClientRect();
        if (g.left < left - 0.5 || g.right > limit + 0.5) break outer;
        shown++;
        text += n.data[i];
      }
    }
    const m = row.querySelector(".active-marker");
    const mb = m === null ? null : m.getBoundingClientRect();
    const hint = row.querySelector(".depth-hint");
    out.push({
      id: row.getAttribute("data-entry-id"),
      level: Number(row.getAttribute("aria-level")) - 1,
      shown,
      text,
      hint: hint === null ? "" : hint.textContent,
      hintWidth: hint === null ? 0 : hint.getBoundingClientRect().width,
      marker: mb === null ? null : { left: mb.left, right: mb.right },
      rowRight,
    });
  }
  return out;
}`;

for (const theme of THEMES) {
  test(`deep tree under ${theme.id} at 300 px: every row readable, depth shown, ← active in view`, () =>
    withPage(rig.openView({ view: "tree", theme: theme.bodyClass, width: 300, height: 700 }), async (vp) => {
      await applyTheme(vp.page, theme.bodyClass, theme.vars);
      await vp.send(deepSnapshot());
      await settle(vp.page);
      const rows = (await vp.page.evaluate(`(${DEEP_ROWS})()`)) as DeepRow[];
      assert.ok(rows.length >= 20, `${rows.length} rows visible`);
      assert.ok(Math.max(...rows.map((r) => r.level)) >= 30, "the visible rows are 30+ levels deep");
      const short = rows.filter((r) => r.shown < MIN_CHARS).map((r) => `${r.id} (level ${r.level}): "${r.text}"`);
      assert.deepEqual(short, [], `rows showing fewer than ${MIN_CHARS} characters of their text`);

      const leaf = rows.find((r) => r.id === `d${DEEP_LEVELS}`);
      assert.ok(leaf?.marker, "the active row is visible with its marker");
      const viewWidth = await vp.page.$eval('[role="tree"]', (t) => t.getBoundingClientRect().left + t.clientWidth);
      assert.ok(
        leaf.marker.right <= leaf.rowRight + 0.5 && leaf.marker.right <= viewWidth,
        `← active ends at x=${leaf.marker.right.toFixed(1)}, past the row (${leaf.rowRight.toFixed(1)})`,
      );
      // Rows deeper than the gutter's share show their depth; aria-level still tells the true depth.
      const deep = rows.filter((r) => r.level >= 12);
      assert.ok(deep.length > 0);
      for (const r of deep) {
        assert.equal(r.hint, String(r.level), `${r.id}: depth number`);
        assert.ok(r.hintWidth > 0, `${r.id}: the depth number is shown`);
      }
      const shallow = rows.filter((r) => r.level > 0 && r.level <= 2);
      for (const r of shallow) assert.equal(r.hintWidth, 0, `${r.id}: no depth number below the cap`);
      check(theme, "tree-deep", await measure(vp.page, '[role="treeitem"]', ".tree-row.dim, .tree-row.search-context"));
      await vp.page.screenshot({ path: join(OUT, `tree-deep-300-${theme.id}.png`) });
      assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
    }));
}
