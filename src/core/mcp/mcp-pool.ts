/**
 * The MCP servers of a workspace and their tools. Servers start lazily, all at once in the background, when the
 * first prompt asks for tools; that prompt waits for them a bounded time. A server that fails is reported once and
 * the others go on. A server of a project file starts only once the user agreed to its entry (mcp-agreement.ts):
 * the first prompt asks about each one not yet answered and waits for the answers; a refused or unanswered one
 * stays off, its tools absent, until the user allows it. The pool is an `AgentToolSource`, so an AgentSession (the
 * main one, a parallel branch, an aside) gets the tools of the running servers, all of them or only the read-only
 * ones.
 */
import { keyEnvNames, withoutKeys } from "../providers/api-key.js";
import type { AgentTool, AgentToolSource } from "../tools/types.js";
import { agreementQuestion, type McpAgreement, type McpDecision } from "./mcp-agreement.js";
import type { McpConfig, McpConfigIssue } from "./mcp-config.js";
import { McpConnection, type McpServerState } from "./mcp-connection.js";
import { mcpToolName } from "./mcp-names.js";
import { createMcpAgentTool, type McpAgentTool } from "./mcp-tool.js";
import { errorText } from "../error-text.js";

/** Default bound on one tool call (the setting `agentTree.mcp.timeout` overrides it). */
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 60_000;
/** Default bound on a server's start (initialize + tools/list). */
export const DEFAULT_MCP_STARTUP_TIMEOUT_MS = 30_000;
/** How long a prompt waits for servers still starting before it goes on without them. */
export const DEFAULT_MCP_PROMPT_WAIT_MS = 10_000;

/** Constructor options. */
export interface McpPoolOptions {
  /** Reads the configuration (again on `reload`). */
  loadConfig: () => McpConfig;
  /** Workspace folder: relative `cwd`s resolve against it. */
  cwd: string;
  /** The environment stdio servers inherit (default: this process's without the built-in models' keys). */
  baseEnv?: () => NodeJS.ProcessEnv;
  /**
   * Names of the environment variables that hold model keys (the host: `keyEnvNames` over its model registry;
   * default: over the built-in models). A project's entry that names one in `${VAR}` does not start.
   */
  keyEnvNames?: () => readonly string[];
  /** Keeps the user's answers about project servers and asks; without it no project server starts. */
  agreement?: McpAgreement;
  /** A line for the output channel (the trail of agreements and of servers kept off). */
  log?: (line: string) => void;
  /** Bound on one tool call, read at each call. */
  callTimeoutMs?: () => number;
  startupTimeoutMs?: number;
  promptWaitMs?: number;
  /** A server failed, or the configuration has a problem: said once each. */
  onReport?: (report: McpReport) => void;
  /** Enable/Disable choices made in the UI (server name → enabled), applied over the files. */
  enabledOverrides?: Readonly<Record<string, boolean>>;
  clientInfo?: { name: string; version: string };
}

/** Something the user should be told once. */
export type McpReport =
  { kind: "failed"; server: string; message: string } | { kind: "config"; issue: McpConfigIssue; message: string };

/** One tool in the listing. */
export interface McpToolStatus {
  /** The name the model calls. */
  name: string;
  /** The name on the server. */
  mcpName: string;
  description: string;
  readOnly: boolean;
}

/**
 * A server's state in the listing: the connection's, or for a project server kept off, "unapproved" (the user has
 * not agreed to its entry yet) or "refused" (the user refused it).
 */
export type McpListedState = McpServerState | "unapproved" | "refused";

/** One server in the listing (Agent: Show MCP Servers). */
export interface McpServerStatus {
  name: string;
  source: string;
  /** Who wrote the entry: a "project" server needs the user's agreement. */
  origin: "user" | "project";
  transport: "stdio" | "http";
  /** The command line or the URL (without headers: they may hold tokens). */
  target: string;
  state: McpListedState;
  tools: McpToolStatus[];
  error?: string;
  pid?: number;
}

/** Which tools a session gets. */
export interface McpToolFilter {
  /** Only tools a server marks read-only (`readOnlyHint`): for read-only asides. */
  readOnly?: boolean;
}

/** See the file comment. */
export class McpPool implements AgentToolSource {
  private connections: McpConnection[] = [];
  private issues: McpConfigIssue[] = [];
  private readonly overrides = new Map<string, boolean>();
  private readonly listeners = new Set<() => void>();
  private toolCache: McpAgentTool[] | undefined;
  private loaded = false;
  private disposed = false;
  private readonly reportedIssues = new Set<string>();
  /** Project servers asked about (or said to be refused) since the last load: a prompt asks about each once. */
  private readonly asked = new Set<string>();
  /** The questions of the current prompt, asked one after the other. */
  private asking: Promise<void> | undefined;

  constructor(private readonly options: McpPoolOptions) {
    for (const [name, on] of Object.entries(options.enabledOverrides ?? {})) this.overrides.set(name, on);
  }

  /** Listens for state and tool changes; returns the unsubscribe function. */
  onDidChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.toolCache = undefined;
    for (const l of [...this.listeners]) {
      try {
        l();
      } catch {
        // A listener's failure does not stop the others.
      }
    }
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const config = this.options.loadConfig();
    this.issues = config.issues;
    for (const issue of config.issues) {
      const message = `MCP configuration (${issue.source}): ${issue.message}`;
      if (this.reportedIssues.has(message)) continue;
      this.reportedIssues.add(message);
      this.options.onReport?.({ kind: "config", issue, message });
    }
    this.connections = config.servers.map((s) => {
      const enabled = this.overrides.get(s.name) ?? s.enabled;
      return new McpConnection(
        { ...s, enabled },
        {
          cwd: this.options.cwd,
          baseEnv: this.options.baseEnv ?? (() => withoutKeys(process.env)),
          keyEnvNames: () => this.keyNames(),
          startupTimeoutMs: this.options.startupTimeoutMs ?? DEFAULT_MCP_STARTUP_TIMEOUT_MS,
          clientInfo: this.options.clientInfo ?? { name: "agent-tree", version: "0.1.0" },
          onFailure: (conn) =>
            this.options.onReport?.({ kind: "failed", server: conn.name, message: conn.error ?? conn.name }),
          onChange: () => this.changed(),
        },
      );
    });
  }

  /** True when any server is configured and enabled (the prompt then waits for them). */
  hasServers(): boolean {
    this.load();
    return this.connections.some((c) => c.state !== "disabled");
  }

  private keyNames(): readonly string[] {
    return this.options.keyEnvNames?.() ?? keyEnvNames(process.env);
  }

  /** The user's answer to `c`'s entry: a server of the user's own files needs none. */
  private decision(c: McpConnection): McpDecision | "changed" | undefined {
    if (c.config.origin === "user") return "allowed";
    return this.options.agreement?.decision(c.config);
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  private label(c: McpConnection): string {
    return `MCP server "${c.name}" (${c.config.source})`;
  }

  /**
   * Asks the user about `c` (whatever was answered before); keeps the answer and starts the server when allowed.
   * Resolves with the answer, undefined when the question was dismissed or cannot be asked.
   */
  private async askAbout(c: McpConnection): Promise<McpDecision | undefined> {
    this.asked.add(c.name);
    const agreement = this.options.agreement;
    if (!agreement) {
      this.log(`${this.label(c)} is not started: project servers need your agreement, and none can be asked here.`);
      return undefined;
    }
    const keys = new Set(this.keyNames());
    const question = agreementQuestion(c.config, (n) => keys.has(n), agreement.decision(c.config) === "changed");
    this.log(`${this.label(c)} asks to start: ${question.detail.split("\n").slice(0, 3).join(" ")}`);
    let answer: McpDecision | undefined;
    try {
      answer = await agreement.ask(c.config, question);
    } catch (e) {
      this.log(`${this.label(c)}: the question failed (${errorText(e)}); not started.`);
      answer = undefined;
    }
    if (answer) {
      try {
        await agreement.record(c.config, answer);
      } catch (e) {
        this.log(`${this.label(c)}: your answer could not be kept (${errorText(e)}).`);
      }
    }
    this.log(
      answer === "allowed"
        ? `${this.label(c)}: allowed by you; starting it.`
        : answer === "refused"
          ? `${this.label(c)}: refused by you; it stays off (Agent: Show MCP Servers → Allow to change that).`
          : `${this.label(c)}: no answer; it stays off until you allow it in Agent: Show MCP Servers.`,
    );
    this.changed();
    if (answer === "allowed" && this.connections.includes(c) && c.state === "stopped" && !this.disposed) void c.start();
    return answer;
  }

  /** Starts every enabled server that is not running or starting, in the background. */
  start(): void {
    if (this.disposed) return;
    this.load();
    const toAsk: McpConnection[] = [];
    for (const c of this.connections) {
      if (c.state !== "stopped") continue;
      const d = this.decision(c);
      if (d === "allowed") void c.start();
      else if (!this.asked.has(c.name)) {
        if (d === "refused") {
          this.asked.add(c.name);
          this.log(`${this.label(c)} is not started: you refused this entry (Agent: Show MCP Servers → Allow).`);
        } else toAsk.push(c);
      }
    }
    if (toAsk.length > 0) {
      for (const c of toAsk) this.asked.add(c.name);
      const before = this.asking ?? Promise.resolve();
      const asking: Promise<void> = before.then(async () => {
        for (const c of toAsk) if (this.connections.includes(c) && !this.disposed) await this.askAbout(c);
      });
      this.asking = asking;
      void asking.finally(() => {
        if (this.asking === asking) this.asking = undefined;
      });
    }
  }

  /**
   * Starts the servers (first call) and waits for those still starting, at most the prompt wait or until
   * `signal` aborts; then the tools of the running servers. A failed server is not restarted here.
   */
  async ready(signal?: AbortSignal, filter: McpToolFilter = {}): Promise<readonly AgentTool[]> {
    this.start();
    // The user's answers about project servers first: the user is at the screen, having just sent the prompt.
    if (this.asking && !signal?.aborted) {
      let onAbort: (() => void) | undefined;
      await Promise.race([
        this.asking,
        new Promise<void>((resolve) => {
          onAbort = resolve;
          signal?.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
    const pending = this.connections.flatMap((c) => (c.pending ? [c.pending] : []));
    if (pending.length > 0 && !signal?.aborted) {
      let timer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;
      await Promise.race([
        Promise.all(pending),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, this.options.promptWaitMs ?? DEFAULT_MCP_PROMPT_WAIT_MS);
          onAbort = resolve;
          signal?.addEventListener("abort", onAbort, { once: true });
        }),
      ]);
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
    return this.tools(filter);
  }

  /**
   * A tool source for one AgentSession: all tools, or (`readOnly`) only those a server marks read-only, for a
   * read-only aside. The main session uses the pool itself, which is the unfiltered source.
   */
  source(filter: McpToolFilter = {}): AgentToolSource {
    return { current: () => this.tools(filter), ready: (signal) => this.ready(signal, filter) };
  }

  /** The tools of the running servers, now (no start, no wait). */
  current(): readonly AgentTool[] {
    return this.tools();
  }

  /** The tools of the running servers: all, or only those marked read-only. */
  tools(filter: McpToolFilter = {}): McpAgentTool[] {
    if (!this.toolCache) {
      const taken = new Set<string>();
      const timeout = (): number => this.options.callTimeoutMs?.() ?? DEFAULT_MCP_CALL_TIMEOUT_MS;
      this.toolCache = this.connections
        .filter((c) => c.state === "running")
        .flatMap((c) =>
          c.tools.map((t) => {
            const name = mcpToolName(c.name, t.name, (n) => taken.has(n));
            taken.add(name);
            return createMcpAgentTool(c, t, name, timeout);
          }),
        );
    }
    return filter.readOnly ? this.toolCache.filter((t) => t.readOnly) : [...this.toolCache];
  }

  /** Every configured server with its state and tools (the file order, later files last). */
  status(): McpServerStatus[] {
    this.load();
    const tools = this.tools();
    return this.connections.map((c) => {
      const t = c.config.transport;
      const d = this.decision(c);
      const s: McpServerStatus = {
        name: c.name,
        source: c.config.source,
        origin: c.config.origin,
        transport: t.type,
        target: t.type === "http" ? t.url : [t.command, ...t.args].join(" "),
        state: c.state !== "stopped" || d === "allowed" ? c.state : d === "refused" ? "refused" : "unapproved",
        tools: tools
          .filter((x) => x.server === c.name)
          .map((x) => ({ name: x.name, mcpName: x.mcpName, description: x.description, readOnly: x.readOnly })),
      };
      if (c.error) s.error = c.error;
      if (c.pid !== undefined) s.pid = c.pid;
      return s;
    });
  }

  /** Configuration problems found at the last load. */
  configIssues(): readonly McpConfigIssue[] {
    this.load();
    return this.issues;
  }

  /** pids of the running stdio servers. */
  pids(): number[] {
    return this.connections.flatMap((c) => (c.pid !== undefined ? [c.pid] : []));
  }

  private find(name: string): McpConnection {
    this.load();
    const c = this.connections.find((x) => x.name === name);
    if (!c) throw new Error(`No MCP server named "${name}"`);
    return c;
  }

  /**
   * Starts `c`, asking the user first when its entry is a project's that was not allowed (also one refused
   * before: the user asked for it). Resolves when it runs, failed, or stays off.
   */
  private async startAsked(c: McpConnection): Promise<void> {
    if (this.disposed) return;
    if (this.decision(c) !== "allowed" && (await this.askAbout(c)) !== "allowed") return;
    await (c.pending ?? c.start());
  }

  /** Asks the user to allow a project server (Agent: Show MCP Servers → Allow) and starts it when allowed. */
  async allow(name: string): Promise<void> {
    const c = this.find(name);
    if (c.state === "disabled") throw new Error(`MCP server "${name}" is disabled; enable it first`);
    if (c.state === "running" || c.state === "starting") return;
    await this.startAsked(c);
  }

  /** Stops and starts one server (also starts a stopped or failed one); resolves when it runs or failed. */
  async restart(name: string): Promise<void> {
    const c = this.find(name);
    if (c.state === "disabled") throw new Error(`MCP server "${name}" is disabled; enable it first`);
    await c.stop();
    await this.startAsked(c);
  }

  /** Enables (and starts) or disables (and stops) one server for this window. */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    const c = this.find(name);
    this.overrides.set(name, enabled);
    c.config.enabled = enabled;
    if (!enabled) await c.stop("disabled");
    else if (c.state === "disabled") {
      c.state = "stopped";
      await this.startAsked(c);
    }
  }

  /** Enable/Disable choices made in the UI (to keep them for the workspace). */
  enabledOverrides(): Record<string, boolean> {
    return Object.fromEntries(this.overrides);
  }

  /** The configuration changed: every server stops; they start again on the next prompt. */
  async reload(): Promise<void> {
    const old = this.connections;
    this.connections = [];
    this.loaded = false;
    this.asked.clear();
    await Promise.all(old.map((c) => c.stop()));
    this.changed();
  }

  /** Stops every server (window closing): resolves when their processes are gone. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all(this.connections.map((c) => c.stop()));
    this.listeners.clear();
  }
}
