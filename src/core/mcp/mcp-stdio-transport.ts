/**
 * The stdio transport of an MCP server started away from the extension host (Linux): the SDK's
 * StdioClientTransport spawns the server as a child of this process, and a child can read this process's start-up
 * environment (`/proc/$PPID/environ`), model keys included. This one starts it through command-process.ts's
 * `startServer` (`setsid`, the same helper as `bash`: the server's parent is init or a subreaper, and it leads a
 * process group of its own) and speaks to it over its stdin and stdout with the SDK's own framing (`ReadBuffer`,
 * `serializeMessage`), as the SDK's transport does: one JSON-RPC message a line, a message over the read buffer
 * is an error (the SDK's) and closes the transport, and the server's end is the end of its output (`onclose`).
 *
 * Ending the process is its owner's (the connection, through mcp-process.ts, told the pid by `onStart`): `close`
 * only closes the server's stdin — except before the pid is known, when nobody else could end it: then the process
 * group is killed as soon as it is known, and `close` resolves once it is gone.
 */
import { PassThrough } from "node:stream";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { startServer, type ServerProcess } from "../tools/command-process.js";
import { DEFAULT_END_TIMINGS, endProcess, startedGroup } from "./mcp-process.js";
import { toError } from "../error-text.js";

/** What to run, as the SDK's StdioServerParameters say it. */
export interface DetachedStdioParams {
  command: string;
  args: readonly string[];
  cwd: string;
  /** Its environment, over the SDK's default one (HOME, PATH, …), as the SDK's transport does. */
  env: Record<string, string>;
}

/** See the file comment. */
export class DetachedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr; there before `start`, so nothing it writes early is lost. */
  readonly stderr = new PassThrough();
  /** The server's pid (= its process group's) once started, until its end. */
  pid: number | undefined;
  private server: ServerProcess | undefined;
  private readonly readBuffer = new ReadBuffer();
  private closed = false;

  constructor(
    private readonly params: DetachedStdioParams,
    /** The server runs as `pid`, the leader of its own process group: its owner ends it (see the file comment). */
    private readonly onStart: (pid: number) => void,
  ) {}

  /** Starts the server; resolves once it runs (its pid known), rejects when it could not be started. */
  async start(): Promise<void> {
    if (this.server) throw new Error("DetachedStdioTransport already started");
    if (this.closed) throw new Error("DetachedStdioTransport closed before it started");
    const { command, args, cwd } = this.params;
    const server = startServer([command, ...args], cwd, { ...getDefaultEnvironment(), ...this.params.env });
    this.server = server;
    server.stderr.pipe(this.stderr);
    server.stdout.on("data", (chunk: Buffer) => {
      try {
        this.readBuffer.append(chunk);
        this.processReadBuffer();
      } catch (err) {
        // Over the read buffer: the SDK's error, and the connection is dropped (as the SDK's transport does).
        this.onerror?.(toError(err));
        void this.close();
      }
    });
    server.stdout.on("error", (err) => this.onerror?.(err));
    server.stdin.on("error", (err) => this.onerror?.(err));
    void server.closed.then(() => {
      this.server = undefined;
      this.pid = undefined;
      this.onclose?.();
    });
    const pid = await server.pid;
    if (this.closed) return;
    this.pid = pid;
    this.onStart(pid);
  }

  /** Every whole line as a message; a line that is not JSON-RPC is reported and the next one read (as the SDK). */
  private processReadBuffer(): void {
    for (;;) {
      try {
        const message = this.readBuffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (err) {
        this.onerror?.(toError(err));
      }
    }
  }

  /** Writes `message` to the server's stdin; resolves once written (or buffered below the stream's mark). */
  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.server?.stdin;
    if (!stdin || this.closed) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Closes the server's stdin (see the file comment); kills it if its pid is not known yet. */
  async close(): Promise<void> {
    const unknown = !this.closed && this.pid === undefined;
    this.closed = true;
    const server = this.server;
    this.readBuffer.clear();
    if (!server) return;
    server.stdin.end();
    if (!unknown) return;
    server.kill();
    const pid = await server.pid.catch(() => undefined);
    // Already killed: this only waits (bounded) until the group is gone.
    if (pid !== undefined) await endProcess(startedGroup(pid), { ...DEFAULT_END_TIMINGS, exitMs: 0, termMs: 0 });
  }
}
