/**
 * The start-up most end-to-end suites share: a temp folder with the demo workspace (demo/) and a Chromium
 * profile (profile/), one code-server workbench on it for the whole suite (and the fake model server when the
 * suite chats), all stopped and removed after the suite.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import type { FrameLocator, Page } from "playwright-core";
import { DEMO_IDS, generateDemo, type DemoWorkspace } from "../../demo/generate-demo.js";
import { chatView, startAgentWorkbench, treeView, uiStep, waitForLeaf, type AgentWorkbench } from "./agent-ui.js";
import { startFakeOpenAI } from "./fake-openai-server.js";
import type { FakeServer } from "./fake-provider-common.js";
import { openViewContainer, setSidebarWidth } from "./workbench.js";

/** What a suite set up by {@link demoWorkbenchSuite} works with, once its `before` ran. */
export interface DemoWorkbenchSuite {
  /** The suite's temp folder. */
  tmp(): string;
  demo(): DemoWorkspace;
  /** The running workbench; throws when it did not start. */
  wb(): AgentWorkbench;
  /** The workbench's page (every step drives it). */
  page(): Page;
  /** The text of a file of the demo workspace (`path` relative to it). */
  workspaceText(path: string): string;
  /** The fake model server (only with the `fakeModel` option). */
  fake(): FakeServer;
  /** A test body that reports what the UI showed when it fails (uiStep), as `<name>-<stepName>`. */
  step(stepName: string, fn: () => Promise<void>): () => Promise<void>;
  /**
   * Opens the Agent view container (`sidebarWidth` px wide when given) and waits for the tree: for the demo
   * session's leaf, or (with `newSession`) for the empty tree.
   */
  openAgentTree(sidebarWidth?: number): Promise<FrameLocator>;
  /** Opens the Agent view container as {@link openAgentTree} does and returns its chat view. */
  openChat(sidebarWidth?: number): Promise<FrameLocator>;
}

/** Options of {@link demoWorkbenchSuite}. */
export interface DemoWorkbenchOptions {
  /** Names the temp folder (agent-tree-e2e-<name>-…) and the failure screenshots (<name>-<step>). */
  name: string;
  /**
   * "none": no model at all (no custom model, no default, no key in the environment), so summaries are extractive;
   * "unreachable" (the default): the demo's model at an address nothing listens on, for suites that never chat;
   * a `{ chunkDelayMs }` object: the fake OpenAI server of the suite answers.
   */
  model?: "none" | "unreachable" | { chunkDelayMs: number };
  /** More workspace settings of the demo. */
  settings?: Record<string, unknown>;
  /** Removes the demo's session file: the window opens on a new, empty session. */
  newSession?: boolean;
  /** Files written into the demo workspace before the start (path relative to it → text). */
  files?: Record<string, string>;
  /**
   * pi's and Claude Code's folders in the temp folder (PI_CODING_AGENT_DIR: `piAgentDir`, CLAUDE_CONFIG_DIR: an
   * empty folder), so the extension reads no session from outside it.
   */
  isolateOtherTools?: boolean;
  /** More extensions to install beside this one, each from its folder (e.g. a test extension: test/fixtures/). */
  installExtensions?: { folder: string }[];
  /** Runs before the workbench starts (more files, other sessions); returns more environment for code-server. */
  prepare?(setup: DemoSetup): Record<string, string> | void;
}

/** Where a suite's files are, for its `prepare`. */
export interface DemoSetup {
  tmp: string;
  demo: DemoWorkspace;
  /** pi's agent folder of the suite (with `isolateOtherTools`). */
  piAgentDir: string;
  /** The suite's fake model server (with a `{ chunkDelayMs }` model). */
  fake?: FakeServer;
}

/** Bounds of the start-up (code-server, Chromium, the workbench) and of the clean-up, on a busy machine. */
const START_TIMEOUT_MS = 5 * 60_000;
const STOP_TIMEOUT_MS = 2 * 60_000;

/**
 * Registers the before/after hooks of the file (or of the `describe` it is called in) and returns what the
 * tests use.
 */
export function demoWorkbenchSuite(options: DemoWorkbenchOptions): DemoWorkbenchSuite {
  let tmp: string | undefined;
  let demo: DemoWorkspace | undefined;
  let ui: AgentWorkbench | undefined;
  let fake: FakeServer | undefined;
  const model = options.model ?? "unreachable";

  before(
    async () => {
      tmp = mkdtempSync(join(tmpdir(), `agent-tree-e2e-${options.name}-`));
      if (typeof model === "object") fake = await startFakeOpenAI({ chunkDelayMs: model.chunkDelayMs });
      const noModel = model === "none" ? { "agentTree.models.custom": [], "agentTree.model": "" } : {};
      demo = generateDemo(join(tmp, "demo"), {
        // Port 9 (discard): nothing answers there.
        baseUrl: fake?.baseURL ?? "http://127.0.0.1:9/v1",
        settings: { ...noModel, ...options.settings },
      });
      if (options.newSession) rmSync(demo.sessionFile);
      for (const [path, text] of Object.entries(options.files ?? {})) writeFileSync(join(demo.workspace, path), text);
      const piAgentDir = join(tmp, "pi-agent");
      const claudeDir = join(tmp, "claude");
      if (options.isolateOtherTools) mkdirSync(claudeDir);
      const env = {
        ...(model === "none" ? { OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" } : {}),
        ...(options.isolateOtherTools ? { PI_CODING_AGENT_DIR: piAgentDir, CLAUDE_CONFIG_DIR: claudeDir } : {}),
        ...options.prepare?.({ tmp, demo, piAgentDir, fake }),
      };
      ui = await startAgentWorkbench({
        workspace: demo.workspace,
        profileDir: join(tmp, "profile"),
        env,
        installExtensions: options.installExtensions,
      });
    },
    { timeout: START_TIMEOUT_MS },
  );

  after(
    async () => {
      await ui?.close();
      await fake?.close();
      if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
    },
    { timeout: STOP_TIMEOUT_MS },
  );

  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} did not start`);
    return value;
  };
  const wb = (): AgentWorkbench => started(ui, "the workbench");
  const openAgentTree = async (sidebarWidth?: number): Promise<FrameLocator> => {
    const { page } = wb();
    await openViewContainer(page, "Agent");
    if (sidebarWidth !== undefined) await setSidebarWidth(page, sidebarWidth);
    const t = await treeView(page);
    if (!options.newSession) await waitForLeaf(t, DEMO_IDS.leaf, "the demo session's leaf");
    return t;
  };
  return {
    tmp: () => started(tmp, "the temp folder"),
    demo: () => started(demo, "the demo workspace"),
    wb,
    page: () => wb().page,
    workspaceText: (path) => readFileSync(join(started(demo, "the demo workspace").workspace, path), "utf8"),
    fake: () => started(fake, "the fake model server"),
    step: (stepName, fn) => uiStep(() => ui, `${options.name}-${stepName}`, fn),
    openAgentTree,
    async openChat(sidebarWidth) {
      await openAgentTree(sidebarWidth);
      return chatView(wb().page);
    },
  };
}
