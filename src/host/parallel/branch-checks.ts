/**
 * The editor side of a check per branch (docs/parallel.md, "A check per branch"): Explore in Parallel's check
 * question, the checks run as each branch finishes (in its copy, in the sandbox of branch `bash`, with the time
 * limit), **Run Check Again** on a branch's row, **Adopt Best Branch** (the first of the ranking, adopted as Adopt This
 * Branch adopts) and the summary tab that ranks the branches. The runs and records are the core's
 * (src/core/parallel/check-runner.ts, branch-check.ts, branch-ranking.ts). Each action reports its own failures.
 */
import fs from "node:fs";
import path from "node:path";
import * as vscode from "vscode";
import { errorText } from "../../core/error-text.js";
import { escapeHtml } from "../../core/escape-html.js";
import { keyEnvValues, withoutKeys } from "../../core/providers/api-key.js";
import { BranchCopy, listBranchCopies } from "../../core/parallel/branch-copy.js";
import { readBranchChecks, checkSummary, type BranchCheckRecord } from "../../core/parallel/branch-check.js";
import { readBranchRuns } from "../../core/parallel/branch-run-lines.js";
import { branchCost, rankBranches, type RankedBranch } from "../../core/parallel/branch-ranking.js";
import {
  defaultCheckCommand,
  DEFAULT_CHECK_TIMEOUT_SECONDS,
  liveCheckIds,
  runBranchCheck,
} from "../../core/parallel/check-runner.js";
import type { Exploration } from "../../core/parallel/explore.js";
import type { SessionManager } from "../../core/session/session-manager.js";
import { findSandbox } from "../../core/tools/sandbox.js";
import type { CheckpointService } from "../checkpoints/checkpoint-service.js";
import { NO_SESSION_TEXT } from "../common/guard-texts.js";
import type { Notify } from "../common/notifier.js";
import { branchBashPlace } from "../tools/sandbox-choice.js";
import type { SessionController } from "../session/session-controller.js";
import { sandboxSettings } from "../common/settings.js";
import { branchRunOf, GROUP_KINDS, newestEntryOf } from "./branch-lookup.js";
import { exploreSummaryHtml, type RankedSummaryBranch, type SummaryBranch } from "./explore-summary.js";

/** What the checks need from the rest of the host. */
export interface BranchChecksDeps {
  controller: SessionController;
  checkpoints: CheckpointService;
  /** Where copies live; undefined: no copies. */
  copiesDir: string | undefined;
  notify: Notify;
  log: vscode.LogOutputChannel;
  /** The branches this window runs now, by first entry (parallel-actions.ts). */
  liveBranchIds(): ReadonlySet<string>;
  /** Adopt This Branch on a row (parallel-actions.ts): the three-way merge, then the leaf moved. */
  adopt(entryId: string): Promise<void>;
}

/** `agentTree.parallel.check` ("" when unset). */
function checkSetting(): string {
  const v = vscode.workspace.getConfiguration("agentTree").get<unknown>("parallel.check");
  return typeof v === "string" ? v : "";
}

/** `agentTree.parallel.checkTimeout` (default 300). */
function checkTimeout(): number {
  const v = vscode.workspace.getConfiguration("agentTree").get<unknown>("parallel.checkTimeout");
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? v : DEFAULT_CHECK_TIMEOUT_SECONDS;
}

/** A branch whose check is wanted: where its copy is and what it changed. */
interface CheckTarget {
  branchId: string;
  rowId: string;
  copyDir: string;
  folder: string;
  changedLines: number;
}

/** See the file comment. */
export class BranchChecks {
  private panel: vscode.WebviewPanel | undefined;

  constructor(private readonly d: BranchChecksDeps) {}

  /**
   * The check question of Explore in Parallel (or `feature`: Replay with Model), prefilled from the setting, else the
   * workspace's `package.json` test script; "" for no check, undefined when cancelled.
   */
  async ask(feature = "Explore in Parallel"): Promise<string | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const pkg =
      folder?.scheme === "file"
        ? await fs.promises.readFile(path.join(folder.fsPath, "package.json"), "utf8").catch(() => undefined)
        : undefined;
    const place = branchBashPlace(sandboxSettings(), await findSandbox());
    const where = "sandbox" in place ? "sandboxed, in its copy" : `in its copy, not sandboxed (${place.unsandboxed})`;
    const command = await vscode.window.showInputBox({
      title: `${feature}: a check when each branch finishes (empty: none)`,
      prompt: `A shell command run ${where} when each branch finishes, limit ${checkTimeout()} s; exit code 0 passes`,
      value: defaultCheckCommand(checkSetting(), pkg),
      placeHolder: "e.g. npm test (empty: no check)",
    });
    return command === undefined ? undefined : command.trim();
  }

  /**
   * Runs `command` on each branch of `exploration` that finishes `done`, as it finishes; resolves when every
   * branch has ended and its check with it. Nothing when `command` is empty.
   */
  async follow(exploration: Exploration, command: string): Promise<void> {
    if (command === "") return;
    const sm = this.d.controller.sessionManager;
    if (!sm) return;
    await Promise.all(
      exploration.branches.map(async (b) => {
        const o = await b.outcome;
        if (o.state !== "done" || !o.branchId) return;
        const changedLines = o.files.reduce((n, f) => n + f.added + f.removed, 0);
        await this.run(sm, command, {
          branchId: o.branchId,
          rowId: o.tipId ?? o.branchId,
          copyDir: b.copy.dir,
          folder: b.copy.info.folder,
          changedLines,
        });
      }),
    );
    const checks = readBranchChecks(sm, liveCheckIds());
    const states = exploration.branches.map((b) => (b.branchId ? checks.get(b.branchId)?.state : undefined));
    const passed = states.filter((s) => s === "passed").length;
    this.d.notify.status(`Checks: ${passed} of ${exploration.branches.length} branches passed \`${command}\`.`);
  }

  /** Run Check Again: the check of the branch holding `entryId` (its last command, else asked), in its copy. */
  async runAgain(entryId: string): Promise<void> {
    const sm = this.d.controller.sessionManager;
    if (!sm) return this.d.notify.info(NO_SESSION_TEXT);
    const live = this.d.liveBranchIds();
    const run = branchRunOf(sm, entryId, live);
    if (!run || !GROUP_KINDS.has(run.kind))
      return this.d.notify.info("That row is not on a branch of Explore in Parallel or Replay with Model.");
    if (run.state === "running")
      return this.d.notify.warn("That branch is still running: its check runs when it ends.");
    if (this.checking(run.branchId)) return this.d.notify.info("That branch's check is running already.");
    const checks = readBranchChecks(sm);
    const group = [...readBranchRuns(sm).values()].filter((r) => r.groupId === run.groupId).map((r) => r.branchId);
    const previous = checks.get(run.branchId) ?? group.map((id) => checks.get(id)).find((c) => c !== undefined);
    const command =
      previous?.command ??
      (
        await vscode.window.showInputBox({
          title: "Run Check Again: the check to run in the branch's copy",
          value: defaultCheckCommand(checkSetting(), undefined),
          validateInput: (v) => (v.trim() === "" ? "Give a command (exit code 0 passes)" : undefined),
        })
      )?.trim();
    if (!command) return;
    const target = await this.copyOf(sm, run.branchId);
    if (!target) return;
    this.d.notify.status(`Running the check \`${command}\` in the branch's copy…`);
    const record = await this.run(sm, command, target);
    if (record) this.d.notify.status(`Check ${checkSummary(record)}.`, record.state === "passed" ? "info" : "error");
  }

  /**
   * Adopt Best Branch: the branches started with the one holding `entryId` (else the session's newest
   * exploration), ranked — passing check first, then fewer changed lines, then cost — and the first adopted.
   */
  async adoptBest(entryId?: string): Promise<void> {
    const sm = this.d.controller.sessionManager;
    if (!sm) return this.d.notify.info(NO_SESSION_TEXT);
    const live = this.d.liveBranchIds();
    const runs = [...readBranchRuns(sm, live).values()].filter((r) => GROUP_KINDS.has(r.kind));
    const groupId = entryId ? branchRunOf(sm, entryId, live)?.groupId : runs.at(-1)?.groupId;
    const group = runs.filter((r) => r.groupId === groupId);
    if (group.length === 0)
      return this.d.notify.info("There is no branch of Explore in Parallel or Replay with Model to adopt.");
    if (group.some((r) => r.state === "running"))
      return this.d.notify.warn("Branches of that exploration still run: stop them or wait for them first.");
    if (group.some((r) => this.checking(r.branchId)))
      return this.d.notify.warn("A check of that exploration still runs: wait for it first.");
    const ranked = await this.rank(sm, group);
    const best = ranked[0];
    const check = best.check ? `check ${best.check}` : "no check";
    this.d.notify.status(
      `Adopting branch ${best.number} of ${group.length} (${check}, ${best.changedLines} changed lines, ` +
        `$${best.cost.toFixed(4)}).`,
    );
    await this.d.adopt(newestEntryOf(sm, best.branchId));
  }

  /** The summary tab of a finished exploration (or replay: `feature`): its branches ranked, with Adopt Best Branch. */
  showSummary(prompt: string, branches: readonly SummaryBranch[], feature = "Explore in Parallel"): void {
    const sm = this.d.controller.sessionManager;
    if (!sm) return;
    const checks = readBranchChecks(sm, liveCheckIds());
    const rows = branches.map((b): RankedSummaryBranch => ({
      ...b,
      changedLines: b.outcome.files.reduce((n, f) => n + f.added + f.removed, 0),
      ...this.checkOf(checks.get(b.outcome.branchId ?? "")),
    }));
    const ranked = rankBranches(
      rows.map((r): RankedBranch => ({
        branchId: r.outcome.branchId ?? "",
        number: r.number,
        run: r.outcome.state,
        changedLines: r.changedLines,
        cost: r.outcome.usage.cost.total,
        ...(r.check ? { check: r.check.state } : {}),
      })),
    );
    const byNumber = new Map(rows.map((r) => [r.number, r]));
    const ordered = ranked.map((r) => byNumber.get(r.number) as RankedSummaryBranch);
    const best = ordered[0];
    const args = best?.outcome.tipId ? [{ webviewSection: "entry", entryId: best.outcome.tipId }] : undefined;
    const uri = args ? `command:agentTree.adoptBestBranch?${encodeURIComponent(JSON.stringify(args))}` : undefined;
    this.panel?.dispose();
    const panel = vscode.window.createWebviewPanel(
      "agentTree.exploreSummary",
      `${feature}: Summary`,
      vscode.ViewColumn.Active,
      { enableScripts: false, enableCommandUris: ["agentTree.adoptBestBranch"], localResourceRoots: [] },
    );
    this.panel = panel;
    panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    panel.webview.html = summaryPage(
      panel.webview.cspSource,
      `${feature}: Summary`,
      exploreSummaryHtml(prompt, ordered, uri, feature),
    );
  }

  // ---- internals --------------------------------------------------------------------------------

  /** True while a check of the branch starting at `branchId` runs (registered with the session as work there). */
  private checking(branchId: string): boolean {
    const runs = this.d.controller.agent?.runs.offLeaf() ?? [];
    return runs.some((w) => w.kind === "command" && w.firstEntryId === branchId);
  }

  private checkOf(check: BranchCheckRecord | undefined): { check?: BranchCheckRecord } {
    return check ? { check } : {};
  }

  /** Runs and records one check; failures to record are reported (undefined). */
  private async run(sm: SessionManager, command: string, t: CheckTarget): Promise<BranchCheckRecord | undefined> {
    // Work at the branch while it runs (the session's one busy): its operations wait for it, and a second check of
    // the branch is refused.
    const work = this.d.controller.agent?.runs.begin({
      kind: "command",
      place: "off-leaf",
      label: "the branch's check",
      parentId: sm.getEnvelope(t.branchId)?.parentId ?? null,
    });
    work?.setFirstEntry(t.branchId);
    try {
      const registry = await this.d.controller.models();
      const place = branchBashPlace(sandboxSettings(), await findSandbox());
      const record = await runBranchCheck({
        sessionManager: sm,
        branchId: t.branchId,
        rowId: t.rowId,
        command,
        cwd: t.copyDir,
        folder: t.folder,
        timeoutSeconds: checkTimeout(),
        env: withoutKeys(process.env, registry),
        secretValues: () => keyEnvValues(process.env, registry),
        changedLines: t.changedLines,
        ...("sandbox" in place ? { sandbox: place.sandbox } : {}),
      });
      this.d.log.info(
        `Branch check \`${command}\` ${checkSummary(record)}${record.sandboxed ? "" : " (not sandboxed)"}`,
      );
      return record;
    } catch (e) {
      this.d.notify.error("The branch's check", e);
      return undefined;
    } finally {
      work?.end();
    }
  }

  /** The branch's copy (made by this or an earlier window) and its changed lines; says why when there is none. */
  private async copyOf(sm: SessionManager, branchId: string): Promise<CheckTarget | undefined> {
    const found = this.d.copiesDir
      ? (await listBranchCopies(this.d.copiesDir)).find((c) => c.info?.branchId === branchId)
      : undefined;
    if (!found?.info)
      return void this.d.notify.warn(
        "That branch's copy is gone (adopted, archived or removed): there is nothing to check.",
      );
    const info = found.info;
    const workspace = await this.d.checkpoints.workspace();
    const storeDir = workspace?.engine(info.folder)?.storeDir;
    if (!storeDir) return void this.d.notify.warn(`The checkpoints of ${info.folder} are not open in this window.`);
    try {
      const copy = await BranchCopy.open(found.root, storeDir);
      const changedLines = (await copy.lineStats()).reduce((n, f) => n + f.added + f.removed, 0);
      return { branchId, rowId: newestEntryOf(sm, branchId), copyDir: copy.dir, folder: info.folder, changedLines };
    } catch (e) {
      return void this.d.notify.warn(`That branch's copy cannot be read: ${errorText(e)}`);
    }
  }

  /** The branches of one exploration as the ranking sees them, best first. */
  private async rank(
    sm: SessionManager,
    group: readonly { branchId: string; state: RankedBranch["run"] }[],
  ): Promise<RankedBranch[]> {
    const checks = readBranchChecks(sm, liveCheckIds());
    const copies = this.d.copiesDir ? await listBranchCopies(this.d.copiesDir) : [];
    const workspace = await this.d.checkpoints.workspace();
    const out: RankedBranch[] = [];
    for (const [i, r] of group.entries()) {
      const check = checks.get(r.branchId);
      let changedLines = check?.changedLines;
      const found = copies.find((c) => c.info?.branchId === r.branchId);
      const storeDir = found?.info ? workspace?.engine(found.info.folder)?.storeDir : undefined;
      if (found && storeDir)
        changedLines = await BranchCopy.open(found.root, storeDir)
          .then(async (c) => (await c.lineStats()).reduce((n, f) => n + f.added + f.removed, 0))
          .catch(() => changedLines);
      out.push({
        branchId: r.branchId,
        number: i + 1,
        run: r.state,
        ...(check ? { check: check.state } : {}),
        changedLines: changedLines ?? Number.MAX_SAFE_INTEGER,
        cost: branchCost(sm, r.branchId),
      });
    }
    return rankBranches(out);
  }
}

/** The summary tab's page: the body, the theme's colours, no script (its button is a command link). */
function summaryPage(cspSource: string, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${cspSource} 'unsafe-inline';">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); padding: 0 16px; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid var(--vscode-panel-border); padding: 4px 6px; text-align: left; vertical-align: top; }
.check-passed { color: var(--vscode-testing-iconPassed); }
.check-failed, .check-timedOut, .check-error { color: var(--vscode-testing-iconFailed); }
.hint { color: var(--vscode-descriptionForeground); }
pre { white-space: pre-wrap; max-height: 20em; overflow: auto; }
a.button { display: inline-block; padding: 4px 12px; color: var(--vscode-button-foreground);
  background: var(--vscode-button-background); text-decoration: none; border-radius: 2px; }
a.button:hover { background: var(--vscode-button-hoverBackground); }
</style></head><body>
${body}
</body></html>`;
}
