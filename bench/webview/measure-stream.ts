/**
 * A long reply streamed into the chat (`npm run bench -- --stream-only`, or `node --import tsx
 * bench/webview/measure-stream.ts`): the host's side in plain Node (the real ChatSync and DTO building, driven by
 * agent events through mock timers, each post serialised as the webview channel serialises it), then the real chat
 * webview in headless Chromium (test/webview/harness.ts) fed the same posts one frame apart. Replies of 5, 50 and
 * 200 KB (prose with markdown, and one big fenced code block) in 200-byte steps — one post per 50 ms window at
 * 4 KB/s, a fast model — and a `!command` printing 1 and 5 MB in 20 KB steps every 250 ms (the output so far, cut to
 * its tail as runCommand reports it). Printed, never written.
 */
import { mock } from "node:test";
import { performance } from "node:perf_hooks";
import type { AgentEvent } from "../../src/core/agent/events.js";
import { emptyUsage, type AssistantMessage } from "../../src/core/messages.js";
import { MAX_BYTES, truncateTail } from "../../src/core/tools/truncate.js";
import { ChatSync } from "../../src/host/chat/chat-sync.js";
import type { ChatMessageDto, HostToWebview } from "../../src/shared/protocol.js";
import { launchHeadless } from "../../test/util/chromium.js";
import { openView, startWebviewServer } from "../../test/webview/harness.js";
import { printAlone } from "../print-alone.js";

/** Bytes the model adds per 50 ms post (4 KB/s). */
const REPLY_STEP = 200;
/** Bytes a command prints per 250 ms update. */
const COMMAND_STEP = 20 * 1024;

/** One streamed case's figures. */
export interface StreamCase {
  name: string;
  /** The reply's (or output's) final size in bytes. */
  bytes: number;
  posts: number;
  /** Host → webview, the posts' serialised size summed. */
  postedBytes: number;
  /** Host per post: the event handled, the DTO built, the message serialised (ms). */
  hostMs: number[];
  /** Webview per post: from the message to the end of its handling and render (ms; main thread). */
  updateMs: number[];
  /** Per post, from the message to the frame after it (layout and paint included; ms). */
  frameMs: number[];
  /** Main-thread tasks over 50 ms during the stream. */
  longTasks: number;
  /** The page's main-thread CPU over the stream (DevTools TaskDuration, ms). */
  cpuMs: number;
  /** Of which JavaScript, and style and layout (DevTools ScriptDuration; RecalcStyleDuration + LayoutDuration). */
  scriptMs: number;
  layoutMs: number;
}

const WORDS =
  "the session tree keeps every branch so a reply can be retried edited or compared later while the agent reads files and runs commands".split(
    " ",
  );

/** Prose with markdown: headings, paragraphs with inline marks and links, lists, small code blocks and tables. */
export function proseReply(bytes: number): string {
  let out = "";
  let i = 0;
  const words = (n: number): string => {
    const w: string[] = [];
    for (let k = 0; k < n; k++) w.push(WORDS[(i * 7 + k * 3) % WORDS.length]);
    return w.join(" ");
  };
  while (out.length < bytes) {
    const section = i++;
    out += `## Step ${section}: ${words(4)}\n\n`;
    out += `The **${words(2)}** of \`src/core/file-${section}.ts\` ${words(30)}; see [the docs](https://example.com/${section}). ${words(25)}.\n\n`;
    out += `- ${words(8)}\n- \`${words(2)}\` ${words(6)}\n  - ${words(5)}\n- ${words(10)}\n\n`;
    if (section % 3 === 0)
      out += "```ts\n" + `export function f${section}(x: number): number {\n  return x * ${section};\n}\n` + "```\n\n";
    if (section % 4 === 0)
      out += `| name | size |\n| --- | ---: |\n| ${words(2)} | ${section} |\n| ${words(3)} | ${section * 2} |\n\n`;
    out += `1. ${words(12)}\n2. ${words(9)} *${words(2)}*\n\n> ${words(20)}\n\n`;
  }
  return out.slice(0, bytes);
}

/** A short answer followed by one fenced code block holding a long file. */
export function codeReply(bytes: number): string {
  let out = "Here is the whole file:\n\n```ts\n";
  for (let n = 0; out.length < bytes; n++) {
    out += `export function handler${n}(input: Readonly<Record<string, number>>): number {\n`;
    out += `  // Sum the values of keys that start with "k${n}" (comments and <angle> & brackets escape).\n`;
    out += `  return Object.entries(input).filter(([k]) => k.startsWith("k${n}")).reduce((s, [, v]) => s + v, 0);\n}\n\n`;
  }
  return out.slice(0, bytes);
}

/** The assistant message after `text` streamed, as the provider adapters build partials. */
function partial(text: string): AssistantMessage {
  return {
    role: "assistant",
    content: text === "" ? [] : [{ type: "text", text }],
    api: "openai-completions",
    provider: "openai",
    model: "gpt-bench",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: 1,
  };
}

/** The command output so far as runCommand reports it: the tail, a line saying what was cut first. */
function outputSoFar(printed: string): string {
  // runCommand keeps the last 200 KB in memory and cuts that to its tail (command-run.ts, cutOutput).
  const kept = printed.slice(-4 * MAX_BYTES);
  const t = truncateTail(kept.replace(/\n$/, ""));
  return t.truncated || kept.length < printed.length
    ? `[Output truncated: showing the last ${t.keptLines} lines (${printed.length} bytes in total).]\n${t.text}`
    : t.text;
}

/** Lines a build might print: long enough to be realistic, different enough not to compress into nothing. */
function commandOutput(bytes: number): string {
  let out = "";
  for (let n = 0; out.length < bytes; n++)
    out += `[${String(n).padStart(7, "0")}] compiling src/module-${n % 977}/file-${n}.ts … ok (${(n * 37) % 1000} ms)\n`;
  return out.slice(0, bytes);
}

/** The host side: events through the real ChatSync; returns the posts and the time each took. */
function hostSide(
  events: AgentEvent[],
  intervalMs: number,
): { posts: HostToWebview[]; hostMs: number[]; bytes: number } {
  const posts: HostToWebview[] = [];
  const hostMs: number[] = [];
  let bytes = 0;
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const sync = new ChatSync(
      (m) => {
        // VS Code sends a webview message as JSON: that is the channel's cost and size.
        bytes += JSON.stringify(m).length;
        posts.push(m);
      },
      { onSettled: () => undefined, onStreaming: () => undefined },
    );
    for (const e of events) {
      const t = performance.now();
      sync.handle(e);
      // The throttle's window passes: the coalesced update is posted now.
      mock.timers.tick(intervalMs);
      hostMs.push(performance.now() - t);
    }
    sync.dispose();
  } finally {
    mock.timers.reset();
  }
  return { posts, hostMs, bytes };
}

/** The streamed messages' posts of one case, and the host's figures. */
interface HostCase {
  name: string;
  bytes: number;
  /** The posts of the streamed message (chat/message, chat/messageText), in order. */
  updates: HostToWebview[];
  /** Its id and text after the last of them. */
  id: string;
  finalText: string;
  hostMs: number[];
  postedBytes: number;
}

function replyCase(name: string, text: string): HostCase {
  const events: AgentEvent[] = [{ type: "agent_start" }, { type: "message_start", message: partial("") }];
  for (let end = REPLY_STEP; ; end += REPLY_STEP) {
    events.push({ type: "message_update", message: partial(text.slice(0, Math.min(end, text.length))) });
    if (end >= text.length) break;
  }
  return fromPosts(name, text.length, hostSide(events, 50));
}

function commandCase(name: string, bytes: number): HostCase {
  const printed = commandOutput(bytes);
  const command = "npm run build";
  const events: AgentEvent[] = [{ type: "bash_execution_start", command, excludeFromContext: false }];
  for (let end = COMMAND_STEP; ; end += COMMAND_STEP) {
    events.push({ type: "bash_execution_update", command, output: outputSoFar(printed.slice(0, end)) });
    if (end >= printed.length) break;
  }
  return fromPosts(name, bytes, hostSide(events, 250));
}

function fromPosts(
  name: string,
  bytes: number,
  h: { posts: HostToWebview[]; hostMs: number[]; bytes: number },
): HostCase {
  const updates = h.posts.filter((p) => p.type === "chat/message" || p.type === "chat/messageText");
  let id = "";
  let finalText = "";
  for (const p of updates) {
    if (p.type === "chat/message") [id, finalText] = [p.message.id, p.message.text];
    else if (p.type === "chat/messageText") finalText = finalText.slice(0, p.at) + p.append;
  }
  return { name, bytes, updates, id, finalText, hostMs: h.hostMs.slice(-updates.length), postedBytes: h.bytes };
}

/** The in-page loop: each post, its handling timed to a message queued right after it, then the next frame. */
const STREAM_LOOP = `async () => {
  const updates = window.__benchUpdates;
  delete window.__benchUpdates;
  const times = [];
  const frames = [];
  let longTasks = 0;
  const observer = new PerformanceObserver((list) => { longTasks += list.getEntries().length; });
  observer.observe({ type: "longtask" });
  for (const update of updates) {
    const t0 = performance.now();
    const workMs = await new Promise((ok) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { channel.port1.close(); ok(performance.now() - t0); };
      window.postMessage(update, "*");
      channel.port2.postMessage(0);
    });
    times.push(workMs);
    await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
    frames.push(performance.now() - t0);
  }
  await new Promise((ok) => setTimeout(ok, 100));
  observer.disconnect();
  return { times, frames, longTasks };
}`;

/** Measures every case `only` keeps (with `quick`, the 200 KB replies and 5 MB output are left out). */
export async function measureStream(
  quick = process.argv.includes("--quick"),
  only: (name: string) => boolean = () => true,
): Promise<StreamCase[]> {
  const sizes = quick ? [5, 50] : [5, 50, 200];
  const hostCases: HostCase[] = [];
  for (const kb of sizes) {
    hostCases.push(replyCase(`prose ${kb} KB`, proseReply(kb * 1024)));
    hostCases.push(replyCase(`code block ${kb} KB`, codeReply(kb * 1024)));
  }
  for (const mb of quick ? [1] : [1, 5]) hostCases.push(commandCase(`!command ${mb} MB`, mb * 1024 * 1024));

  const selected = hostCases.filter((c) => only(c.name));
  const server = await startWebviewServer();
  const browser = await launchHeadless();
  const cases: StreamCase[] = [];
  try {
    for (const c of selected) {
      const view = await openView(browser, server, { view: "chat", width: 600, height: 800 });
      try {
        const user: ChatMessageDto = {
          id: "u1",
          role: "user",
          title: "You",
          icon: "account",
          text: "Go",
          timestamp: 1,
        };
        await view.send({
          type: "chat/snapshot",
          start: 0,
          keep: false,
          messages: [user],
          streaming: true,
          usage: { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow: 0 },
        });
        // Handed over untimed, in pieces small enough for one protocol message each.
        await view.page.evaluate("window.__benchUpdates = []");
        for (let i = 0; i < c.updates.length; i += 20)
          await view.page.evaluate(
            (batch) => (window as unknown as { __benchUpdates: unknown[] }).__benchUpdates.push(...batch),
            c.updates.slice(i, i + 20),
          );
        const cdp = await view.page.context().newCDPSession(view.page);
        await cdp.send("Performance.enable");
        const metrics = async (): Promise<Record<string, number>> =>
          Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value * 1000]));
        const before = await metrics();
        const r = (await view.page.evaluate(`(${STREAM_LOOP})()`)) as {
          times: number[];
          frames: number[];
          longTasks: number;
        };
        const after = await metrics();
        const spent = (name: string): number => (after[name] ?? 0) - (before[name] ?? 0);
        const cpuMs = spent("TaskDuration");
        // The streamed text must have reached the page, else the figures measure nothing.
        const shown = (await view.page.evaluate(
          `document.querySelector('[data-message-id="${c.id}"]')?.textContent?.length ?? 0`,
        )) as number;
        if (shown < Math.min(c.finalText.length, 1000) / 2)
          throw new Error(`${c.name}: the streamed message is not shown (${shown} characters)`);
        const problems = await view.problems();
        if (problems.errors.length > 0) throw new Error(`${c.name}: page errors: ${problems.errors.join("; ")}`);
        cases.push({
          name: c.name,
          bytes: c.bytes,
          posts: c.updates.length,
          postedBytes: c.postedBytes,
          hostMs: c.hostMs,
          updateMs: r.times,
          frameMs: r.frames,
          longTasks: r.longTasks,
          cpuMs,
          scriptMs: spent("ScriptDuration"),
          layoutMs: spent("LayoutDuration") + spent("RecalcStyleDuration"),
        });
      } finally {
        await view.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return cases;
}

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(0));
const size = (b: number): string =>
  b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(1)} MB` : `${(b / 1024).toFixed(0)} KB`;

/** The printed lines, one per case. */
export function streamLines(cases: readonly StreamCase[]): string[] {
  return cases.map(
    (c) =>
      `stream ${c.name}: ${c.posts} posts, ${size(c.postedBytes)} posted; webview per post median ${ms(quantile(c.updateMs, 0.5))} ` +
      `p95 ${ms(quantile(c.updateMs, 0.95))} max ${ms(Math.max(...c.updateMs))} ms (to the next frame median ${ms(quantile(c.frameMs, 0.5))} ` +
      `p95 ${ms(quantile(c.frameMs, 0.95))} ms), ${c.longTasks} tasks > 50 ms, ` +
      `CPU ${(c.cpuMs / 1000).toFixed(2)} s (script ${(c.scriptMs / 1000).toFixed(2)} s, style and layout ` +
      `${(c.layoutMs / 1000).toFixed(2)} s); host per post median ${ms(quantile(c.hostMs, 0.5))} p95 ${ms(quantile(c.hostMs, 0.95))} ms`,
  );
}

if (process.argv[1]?.endsWith("measure-stream.ts")) printAlone(measureStream(), streamLines);
