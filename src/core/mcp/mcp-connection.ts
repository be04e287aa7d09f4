/**
 * One MCP server, through the official client (`@modelcontextprotocol/sdk`): start (spawn or connect, initialize,
 * list tools), calls with a timeout and the caller's abort signal, and its end — stopped by us, failed to start,
 * died, or disconnected because it wrote something other than MCP messages on its stdout or a message larger than
 * the client reads. A failure is reported once, with the last lines the server wrote on stderr. A stdio server's
 * process is gone when a stop resolves, even one that ignores SIGTERM (mcp-process.ts). On Linux a stdio server is
 * not this process's child (mcp-stdio-transport.ts: it could read this process's start-up environment, keys
 * included); elsewhere the SDK's transport starts it as a child.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, type StdioServerParameters } from "@modelcontextprotocol/sdk/client/stdio.js";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { KeyRedactor } from "../agent/key-redactor.js";
import type { ToolResult } from "../tools/types.js";
import { canDetach } from "../tools/command-process.js";
import type { McpServerConfig } from "./mcp-config.js";
import { expandHome, expandMap, namedVars, type RefusedVars } from "./mcp-expand.js";
import {
  endProcess,
  processesBelow,
  startedGroup,
  startedProcess,
  stillRunning,
  type StartedProcess,
} from "./mcp-process.js";
import { DetachedStdioTransport } from "./mcp-stdio-transport.js";
import { errorText } from "../error-text.js";

/** Where a server is. */
export type McpServerState = "stopped" | "starting" | "running" | "failed" | "disabled";

/** What a connection needs from its pool. */
export interface McpConnectionEnv {
  /** Relative `cwd` of a stdio server resolves against this (the workspace folder). */
  cwd: string;
  /** The environment a stdio server inherits (the host's, without model keys). */
  baseEnv: () => NodeJS.ProcessEnv;
  /** Names of the variables that hold model keys: `${VAR}` of a project's entry may not name them. */
  keyEnvNames: () => readonly string[];
  /** Bound on initialize + tools/list. */
  startupTimeoutMs: number;
  clientInfo: { name: string; version: string };
  /** The server failed (start, death, garbage): called once per failure. */
  onFailure: (conn: McpConnection) => void;
  /** State or tool list changed. */
  onChange: () => void;
}

/** Lines of stderr kept for the failure report. */
const STDERR_LINES = 20;
/** Bound on pages of tools/list (a server that keeps returning cursors cannot hold the start forever). */
const MAX_TOOL_PAGES = 50;

/** `fetch failed` says nothing: the cause (ECONNREFUSED, a DNS error) does. */
function withCause(err: unknown): string {
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : "";
  return cause && !errorText(err).includes(cause) ? `${errorText(err)} (${cause})` : errorText(err);
}

/** The SDK's schema check failed (zod 3 names it ZodError, zod 4 $ZodError). */
function isSchemaError(err: unknown): err is Error & { issues?: { path?: unknown[]; message?: string }[] } {
  return err instanceof Error && /^\$?ZodError$/.test(err.name);
}

/** A stdout line that is not JSON-RPC reaches the client as a JSON or schema parse error. */
function isGarbageError(err: unknown): boolean {
  return err instanceof SyntaxError || isSchemaError(err);
}

/**
 * A stdio message longer than the client's read buffer: the SDK's ReadBuffer throws this (its only sign) and
 * drops the connection; what follows on stdout would otherwise be reported as garbage.
 */
function isOverflowError(err: unknown): boolean {
  return err instanceof Error && /^ReadBuffer exceeded maximum size/.test(err.message);
}

const BUFFER_MB = Math.round(STDIO_DEFAULT_MAX_BUFFER_SIZE / (1024 * 1024));

/** The SDK's stdio transport, remembering the process it started (the SDK forgets it when a close begins). */
class TrackedStdioTransport extends StdioClientTransport {
  constructor(
    params: StdioServerParameters,
    private readonly onSpawn: (p: StartedProcess) => void,
  ) {
    super(params);
  }

  override async start(): Promise<void> {
    await super.start();
    if (this.pid !== null) this.onSpawn(startedProcess(this.pid));
  }
}

/** One line out of a schema error: where and what. */
function schemaProblem(err: Error & { issues?: { path?: unknown[]; message?: string }[] }): string {
  const first = err.issues?.[0];
  if (!first) return "its shape is wrong";
  const where = first.path?.length ? `${first.path.join(".")}: ` : "";
  return `${where}${first.message ?? "invalid"}`;
}

/** See the file comment. */
export class McpConnection {
  state: McpServerState;
  /** Why it failed (with the stderr tail appended when there is one). */
  error: string | undefined;
  /** The server's tools, as it listed them. */
  tools: Tool[] = [];
  /** Server instructions from initialize, if any. */
  instructions: string | undefined;
  private client: Client | undefined;
  private transport: Transport | undefined;
  private starting: Promise<void> | undefined;
  private stderrTail: string[] = [];
  private stderrPartial = "";
  /** Set when we close it on purpose, so the close is not a death. */
  private closing = false;
  /** Set when the server was dropped for a message over the client's buffer: calls say "result too large". */
  private overflowed = false;
  /** Processes started (and those below them), by pid, not yet seen gone. */
  private readonly processes = new Map<number, StartedProcess>();
  /** Bumped by every start and stop; callbacks of an older client are ignored. */
  private generation = 0;
  /** Values filled in from the environment (`${TOKEN}` in env or headers): kept out of reports and results. */
  private readonly redactor: KeyRedactor;
  private secrets: string[] = [];

  constructor(
    readonly config: McpServerConfig,
    private readonly env: McpConnectionEnv,
  ) {
    this.state = config.enabled ? "stopped" : "disabled";
    this.redactor = new KeyRedactor(() => this.secrets);
  }

  /** `result` without the values this server's configuration took from the environment. */
  redact(result: ToolResult): ToolResult {
    return this.redactor.redact(result);
  }

  private redactText(text: string): string {
    const r = this.redactor.redact({ content: [{ type: "text", text }] }).content[0];
    return r.type === "text" ? r.text : text;
  }

  /** Remembers the values of the variables `raw` names (the tokens), and returns `expanded`. */
  private rememberSecrets(
    raw: Readonly<Record<string, string>>,
    expanded: Record<string, string>,
  ): Record<string, string> {
    for (const v of Object.values(raw))
      for (const name of namedVars(v)) {
        const value = process.env[name];
        if (value) this.secrets.push(value);
      }
    return expanded;
  }

  /** `map` expanded from the environment; a project's entry may not name a model key. */
  private expand(map: Readonly<Record<string, string>>, what: string): Record<string, string> {
    const keys = this.config.origin === "project" ? new Set(this.env.keyEnvNames()) : undefined;
    const refuse: RefusedVars | undefined = keys && {
      isRefused: (name) => keys.has(name),
      why:
        `a model key, which an entry of a project file (${this.config.source}) is not given. Keys are filled in ` +
        "only for servers of your own mcp.json (~/.pi/agent/mcp.json) or your user settings (agentTree.mcp.servers)",
    };
    return this.rememberSecrets(map, expandMap(map, process.env, `MCP server "${this.name}" ${what}`, refuse));
  }

  /** The name of the server. */
  get name(): string {
    return this.config.name;
  }

  /** pid of a running stdio server. */
  get pid(): number | undefined {
    if (this.transport instanceof DetachedStdioTransport) return this.transport.pid;
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  /** The last lines the server wrote on stderr. */
  stderrLines(): readonly string[] {
    return this.stderrPartial ? [...this.stderrTail, this.stderrPartial] : this.stderrTail;
  }

  /** Starts it unless running or starting; resolves when it runs or failed (never rejects). */
  start(): Promise<void> {
    if (this.state === "disabled") return Promise.resolve();
    if (this.state === "running") return Promise.resolve();
    if (this.starting) return this.starting;
    const gen = ++this.generation;
    this.state = "starting";
    this.error = undefined;
    this.stderrTail = [];
    this.stderrPartial = "";
    this.secrets = [];
    this.env.onChange();
    this.starting = this.connect(gen).finally(() => {
      if (gen === this.generation) this.starting = undefined;
    });
    return this.starting;
  }

  /** The promise of a start in progress (undefined when none). */
  get pending(): Promise<void> | undefined {
    return this.starting;
  }

  private createTransport(): Transport {
    const t = this.config.transport;
    if (t.type === "http") {
      const headers = this.expand(t.headers, "header");
      return new StreamableHTTPClientTransport(new URL(t.url), { requestInit: { headers } });
    }
    const env = { ...this.env.baseEnv(), ...this.expand(t.env, "env") };
    const defined = Object.fromEntries(
      Object.entries(env).filter((e): e is [string, string] => typeof e[1] === "string"),
    );
    const cwd = path.resolve(this.env.cwd, expandHome(t.cwd ?? "."));
    // Spawning in a missing folder says "spawn <the program> ENOENT", naming the wrong thing.
    if (!fs.statSync(cwd, { throwIfNoEntry: false })?.isDirectory())
      throw new Error(`its working folder ${cwd} does not exist or is not a folder`);
    const params = { command: expandHome(t.command), args: t.args.map(expandHome), cwd, env: defined };
    const remember = (p: StartedProcess): void => void this.processes.set(p.pid, p);
    const transport = canDetach()
      ? new DetachedStdioTransport(params, (pid) => remember(startedGroup(pid)))
      : new TrackedStdioTransport({ ...params, stderr: "pipe" }, remember);
    transport.stderr?.on("data", (chunk: Buffer) => this.keepStderr(chunk.toString("utf8")));
    return transport;
  }

  private keepStderr(text: string): void {
    const lines = (this.stderrPartial + text).split(/\r?\n/);
    this.stderrPartial = lines.pop() ?? "";
    this.stderrTail.push(
      ...lines.filter((l) => l.trim() !== "").map((l) => (l.length > 500 ? l.slice(0, 500) + "…" : l)),
    );
    if (this.stderrTail.length > STDERR_LINES) this.stderrTail.splice(0, this.stderrTail.length - STDERR_LINES);
  }

  private async connect(gen: number): Promise<void> {
    this.closing = false;
    this.overflowed = false;
    let client: Client | undefined;
    try {
      const transport = this.createTransport();
      this.transport = transport;
      client = new Client(this.env.clientInfo, { capabilities: {} });
      this.client = client;
      client.onclose = () => {
        // A close while starting also rejects the start, whose catch says why.
        if (gen !== this.generation || this.closing || this.state === "starting") return;
        this.fail(gen, "it stopped unexpectedly");
      };
      client.onerror = (err) => {
        if (gen !== this.generation || this.closing) return;
        if (isOverflowError(err)) {
          this.overflowed = true;
          this.fail(
            gen,
            `it sent a message larger than the ${BUFFER_MB} MB the client reads (a result too large). ` +
              "It was disconnected; Restart starts it again.",
          );
        } else if (isGarbageError(err))
          this.fail(
            gen,
            `it wrote something other than MCP messages on its standard output (${errorText(err).slice(0, 200)}); ` +
              "servers must log to stderr. It was disconnected.",
          );
      };
      await client.connect(transport, { timeout: this.env.startupTimeoutMs });
      const tools = await this.listTools(client);
      if (gen !== this.generation) return;
      this.tools = tools;
      this.instructions = client.getInstructions();
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        if (gen !== this.generation || !this.client) return;
        try {
          this.tools = await this.listTools(this.client);
          this.env.onChange();
        } catch {
          // The old list stays; a dead server is reported through onclose.
        }
      });
      this.state = "running";
      this.env.onChange();
    } catch (err) {
      if (gen !== this.generation) return;
      const why =
        err instanceof McpError && err.code === ErrorCode.RequestTimeout
          ? `it did not answer within ${Math.round(this.env.startupTimeoutMs / 1000)} s`
          : err instanceof McpError && err.code === ErrorCode.ConnectionClosed
            ? this.config.transport.type === "stdio"
              ? "it exited while starting"
              : "the connection closed while starting"
            : withCause(err);
      this.fail(gen, `it failed to start: ${why}`);
    }
  }

  private async listTools(client: Client): Promise<Tool[]> {
    const tools: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const res = await client.listTools(cursor ? { cursor } : {}, { timeout: this.env.startupTimeoutMs });
      tools.push(...res.tools);
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return tools;
  }

  /** Marks it failed (once per failure), reports it, and closes what is left of it. */
  private fail(gen: number, why: string): void {
    if (gen !== this.generation || this.state === "failed") return;
    this.state = "failed";
    const tail = this.stderrLines();
    this.error = this.redactText(
      `MCP server "${this.name}": ${why}` +
        (tail.length ? `\nLast lines of its stderr:\n${tail.slice(-10).join("\n")}` : ""),
    );
    this.tools = [];
    void this.closeClient();
    this.env.onFailure(this);
    this.env.onChange();
  }

  /**
   * Calls `tool` with `args`. Rejects with a clear error on timeout, a server that is not running or a
   * malformed result (the SDK checks the result's shape); an abort of `signal` cancels the request.
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<CallToolResult> {
    const client = this.client;
    if (this.state !== "running" || !client)
      throw new Error(`MCP server "${this.name}" is not running${this.error ? ` (${this.error.split("\n")[0]})` : ""}`);
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: opts.signal,
        timeout: opts.timeoutMs,
        resetTimeoutOnProgress: true,
      });
      if (!Array.isArray(result.content))
        throw new Error(`MCP server "${this.name}" sent a malformed result for ${tool} (no content list)`);
      return result as CallToolResult;
    } catch (err) {
      // The server died or was disconnected during the call: say why, not "Connection closed".
      if ((this.state as McpServerState) === "failed" && this.overflowed)
        throw new Error(
          `MCP tool ${this.name}/${tool}: result too large (the server sent more than the ${BUFFER_MB} MB the ` +
            "client reads in one message) — ask for less. The server was disconnected; it starts again with Restart " +
            "in Agent: Show MCP Servers.",
        );
      if ((this.state as McpServerState) === "failed" && this.error) throw new Error(this.error.split("\n")[0]);
      if (isSchemaError(err))
        throw new Error(`MCP server "${this.name}" sent a malformed result for ${tool} (${schemaProblem(err)})`);
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout)
        throw new Error(
          `MCP tool ${this.name}/${tool} did not answer within ${Math.round(opts.timeoutMs / 1000)} s and was cancelled`,
        );
      throw err;
    }
  }

  /** Stops it; resolves when its process is gone (stdin closed, then SIGTERM, then SIGKILL). */
  async stop(state: "stopped" | "disabled" = "stopped"): Promise<void> {
    this.generation++;
    this.starting = undefined;
    this.state = state;
    this.tools = [];
    this.error = undefined;
    await this.closeClient();
    this.env.onChange();
  }

  /** Closes the client and waits until every process this connection started is gone. */
  private async closeClient(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    this.closing = true;
    // Before stdin closes: a launcher (npx, a script) that exits first would orphan what it started.
    for (const p of [...this.processes.values()])
      for (const below of processesBelow(p)) this.processes.set(below.pid, below);
    const close = (async () => {
      try {
        if (client) await client.close();
        else await transport?.close();
      } catch {
        // Closing a dead server can fail; its process is seen to below.
      }
    })();
    await Promise.all([close, this.endProcesses()]);
  }

  /** Ends the processes this connection started that still run (the SDK's close may not have been waited for). */
  private async endProcesses(): Promise<void> {
    await Promise.all(
      [...this.processes.values()].map(async (p) => {
        if (await endProcess(p)) this.processes.delete(p.pid);
      }),
    );
    // One that survived SIGKILL (stuck in the kernel) is tried again at the next stop.
    for (const p of [...this.processes.values()]) if (!stillRunning(p)) this.processes.delete(p.pid);
  }
}
