/**
 * Start a fake model server in its own process (end-to-end tests, `npm start` demo):
 *
 *   node --import tsx test/util/fake-openai-server-cli.ts [--port N] [--anthropic] [--chunk-delay MS]
 *
 * Prints the base URL as the first stdout line, then serves until SIGINT/SIGTERM or stdin closes
 * (when started with --exit-on-stdin-close, so a crashed parent doesn't leave it running).
 * Replies with the deterministic default (echo / structured summary / `/tool NAME {json}`);
 * script it over HTTP with POST <origin>/__fake/enqueue.
 */
import { startFakeAnthropic } from "./fake-anthropic-server.js";
import { startFakeOpenAI } from "./fake-openai-server.js";

function parseArgs(argv: readonly string[]): {
  port?: number;
  anthropic: boolean;
  chunkDelayMs: number;
  exitOnStdinClose: boolean;
} {
  const out = { port: undefined as number | undefined, anthropic: false, chunkDelayMs: 0, exitOnStdinClose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--port") out.port = Number(argv[++i]);
    else if (a === "--anthropic") out.anthropic = true;
    else if (a === "--chunk-delay") out.chunkDelayMs = Number(argv[++i]);
    else if (a === "--exit-on-stdin-close") out.exitOnStdinClose = true;
    else throw new Error(`Unknown argument ${a}`);
  }
  if (out.port !== undefined && !(Number.isInteger(out.port) && out.port >= 0 && out.port < 65536))
    throw new Error("--port must be 0-65535");
  if (!Number.isFinite(out.chunkDelayMs) || out.chunkDelayMs < 0)
    throw new Error("--chunk-delay must be a number of ms");
  return out;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const start = opts.anthropic ? startFakeAnthropic : startFakeOpenAI;
  const server = await start({ port: opts.port, chunkDelayMs: opts.chunkDelayMs, models: undefined });
  process.stdout.write(`${server.baseURL}\n`);
  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    void server.close().then(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  if (opts.exitOnStdinClose) {
    process.stdin.resume();
    process.stdin.on("end", stop);
    process.stdin.on("close", stop);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`fake server: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
