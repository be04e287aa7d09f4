/**
 * web_fetch against real HTTP servers on 127.0.0.1 (and 127.0.0.2): HTML to Markdown with links, text as text,
 * binaries refused, the size cap, the time limit, schemes, redirects (same host followed, another host reported,
 * a private hop refused), local addresses only with an approval that said so, a name that resolves to a local
 * address at connect time, and a fetch through an HTTP proxy on 127.0.0.1.
 */
import assert from "node:assert/strict";
import type { LookupAddress } from "node:dns";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createWebFetchTool, type WebFetchToolOptions } from "../../../src/core/tools/web-fetch-tool.js";
import type { ToolContext, ToolResult } from "../../../src/core/tools/types.js";

function text(r: ToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

const ARTICLE = `<!doctype html><html><head><title>Widget guide</title><script>var secret = 1;</script></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Widgets</h1>
<p>Widgets are configured with a <a href="/docs/config.html">configuration file</a> that lives next to the project.
This paragraph is long enough for a reader view to count it as the article's main content, with several sentences.</p>
<p>Each widget has a <strong>name</strong> and a <em>size</em>. See <a href="https://example.org/spec">the spec</a> for the
rest of the fields, and the changelog for what changed in each release of the widget format over the years.</p>
<pre><code>widget --size 3</code></pre>
<ul><li>small</li><li>large</li></ul>
</article><footer>Copyright nobody</footer></body></html>`;

interface Servers {
  base: string;
  port: number;
  /** A server on 127.0.0.2 (a private hop's target). */
  base2: string;
  close(): Promise<void>;
}

function listen(server: http.Server | net.Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

async function startServers(): Promise<Servers> {
  let port = 0;
  let port2 = 0;
  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    if (url === "/page") return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(ARTICLE);
    if (url === "/latin1")
      return res
        .writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    if (url === "/text") return res.writeHead(200, { "content-type": "text/plain" }).end("plain words\nsecond line");
    if (url === "/json") return res.writeHead(200, { "content-type": "application/json" }).end('{"a":1}');
    if (url === "/png")
      return res.writeHead(200, { "content-type": "image/png" }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    if (url === "/untyped-binary") return res.writeHead(200).end(Buffer.from([1, 2, 0, 3]));
    if (url === "/big")
      return res.writeHead(200, { "content-type": "text/plain", "content-length": 20_000 }).end("x".repeat(20_000));
    if (url === "/big-stream") {
      // No content-length: the cap must stop the reading itself.
      res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 20; i++) res.write("y".repeat(1000));
      return res.end();
    }
    if (url === "/slow") return; // never answers
    if (url === "/missing") return res.writeHead(404, { "content-type": "text/plain" }).end("no such page");
    if (url === "/same") return res.writeHead(302, { location: "/page" }).end();
    if (url === "/loop") return res.writeHead(302, { location: "/loop" }).end();
    if (url === "/to-private") return res.writeHead(302, { location: `http://127.0.0.2:${port2}/page` }).end();
    if (url === "/to-file") return res.writeHead(302, { location: "file:///etc/passwd" }).end();
    res.writeHead(404).end();
  });
  const server2 = http.createServer((_req, res) =>
    res.writeHead(200, { "content-type": "text/plain" }).end("on 127.0.0.2"),
  );
  port = await listen(server, "127.0.0.1");
  port2 = await listen(server2, "127.0.0.2");
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    base2: `http://127.0.0.2:${port2}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await new Promise((r) => server2.close(r));
    },
  };
}

/** An HTTP proxy on 127.0.0.1: CONNECT tunnels and absolute-form requests; `site.test` means 127.0.0.1 to it. */
async function startProxy(): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const mapHost = (h: string): string => (h === "site.test" ? "127.0.0.1" : h);
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? "");
    const up = http.request(
      {
        host: mapHost(target.hostname),
        port: target.port,
        path: target.pathname + target.search,
        method: req.method,
        headers: req.headers,
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on("error", () => res.writeHead(502).end());
    req.pipe(up);
  });
  server.on("connect", (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? "").split(":");
    const up = net.connect(Number(port), mapHost(host), () => {
      socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on("error", () => socket.destroy());
    socket.on("error", () => up.destroy());
  });
  const port = await listen(server, "127.0.0.1");
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

const NO_PROXY_ENV = (): NodeJS.ProcessEnv => ({});

function tool(options: WebFetchToolOptions = {}) {
  return createWebFetchTool({ env: NO_PROXY_ENV, ...options });
}

/** What the host passes once the user approved a call whose approval said the address is local. */
const LOCAL_OK: ToolContext = { cwd: "/", localNetwork: true };
const PUBLIC_ONLY: ToolContext = { cwd: "/" };

describe("web_fetch", { timeout: 60_000 }, () => {
  let s: Servers;
  before(async () => {
    s = await startServers();
  });
  after(() => s.close());

  it("turns an HTML page into Markdown of its main content, links absolute, scripts gone", async () => {
    const r = await tool().execute({ url: `${s.base}/page`, prompt: "How is a widget configured?" }, LOCAL_OK);
    const t = text(r);
    assert.equal(r.isError, undefined, t);
    assert.match(t, /^Fetched to answer: How is a widget configured\?\n/);
    assert.match(t, /^# Widget guide$/m);
    assert.match(t, new RegExp(`^Source: ${s.base}/page \\(text/html, converted to Markdown\\)$`, "m"));
    assert.match(t, new RegExp(`\\[configuration file\\]\\(${s.base}/docs/config\\.html\\)`));
    assert.match(t, /\[the spec\]\(https:\/\/example\.org\/spec\)/);
    assert.match(t, /\*\*name\*\*/);
    assert.match(t, /```\nwidget --size 3\n```/);
    assert.match(t, /^-\s+small$/m);
    assert.doesNotMatch(t, /secret|Copyright nobody/, "scripts and the footer are not the article");
  });

  it("converts in a worker thread, the same Markdown; a conversion past its time limit is stopped", async () => {
    const worker = path.join(process.cwd(), "test", "util", "html-worker-tsx.mjs");
    const inThread = text(await tool({ htmlWorker: false }).execute({ url: `${s.base}/page` }, LOCAL_OK));
    const inWorker = text(await tool({ htmlWorker: worker }).execute({ url: `${s.base}/page` }, LOCAL_OK));
    assert.match(inWorker, /\[configuration file\]/);
    assert.equal(inWorker, inThread);
    const slow = await tool({ htmlWorker: worker, convertTimeoutMs: 1 }).execute({ url: `${s.base}/page` }, LOCAL_OK);
    assert.equal(slow.isError, true);
    assert.match(text(slow), /Converting the page took over 0.001 seconds; stopped\./);
  });

  it("returns other text as it is, decoded by its charset", async () => {
    assert.match(text(await tool().execute({ url: `${s.base}/text` }, LOCAL_OK)), /\n\nplain words\nsecond line$/);
    assert.match(
      text(await tool().execute({ url: `${s.base}/json` }, LOCAL_OK)),
      /\(application\/json\)\n\n\{"a":1\}$/,
    );
    assert.match(text(await tool().execute({ url: `${s.base}/latin1` }, LOCAL_OK)), /café$/);
  });

  it("refuses binaries, by type and by content", async () => {
    const png = await tool().execute({ url: `${s.base}/png` }, LOCAL_OK);
    assert.equal(png.isError, true);
    assert.match(text(png), /is image\/png \(7 bytes\), not text/);
    const untyped = await tool().execute({ url: `${s.base}/untyped-binary` }, LOCAL_OK);
    assert.equal(untyped.isError, true);
    assert.match(text(untyped), /not text/);
  });

  it("refuses a page over the size cap, with or without a content-length", async () => {
    const small = tool({ limits: { maxBytes: 10_000 } });
    const big = await small.execute({ url: `${s.base}/big` }, LOCAL_OK);
    assert.equal(big.isError, true);
    assert.match(text(big), /20000 bytes, over the limit of 10000 bytes/);
    const streamed = await small.execute({ url: `${s.base}/big-stream` }, LOCAL_OK);
    assert.equal(streamed.isError, true);
    assert.match(text(streamed), /larger than the limit of 10000 bytes/);
  });

  it("stops at the time limit", async () => {
    const r = await tool({ limits: { timeoutMs: 300 } }).execute({ url: `${s.base}/slow` }, LOCAL_OK);
    assert.equal(r.isError, true);
    assert.match(text(r), /No complete answer within 0.3 seconds/);
  });

  it("takes http and https only", async () => {
    for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/x", "javascript:alert(1)", "not a url"]) {
      const r = await tool().execute({ url }, LOCAL_OK);
      assert.equal(r.isError, true, url);
      assert.match(text(r), /Only http and https|not an absolute URL/, url);
    }
  });

  it("reports an error status with the page", async () => {
    const r = await tool().execute({ url: `${s.base}/missing` }, LOCAL_OK);
    assert.equal(r.isError, true);
    assert.match(text(r), /HTTP 404 Not Found\n\nno such page$/);
  });

  it("follows a redirect on the same host; reports one to another host without following it", async () => {
    const same = await tool().execute({ url: `${s.base}/same` }, LOCAL_OK);
    assert.match(text(same), new RegExp(`Source: ${s.base}/page `));
    const other = await tool().execute({ url: `${s.base}/to-private` }, LOCAL_OK);
    assert.equal(other.isError, undefined);
    assert.match(text(other), new RegExp(`redirects \\(HTTP 302\\) to another host: ${s.base2}/page\\n`));
    assert.doesNotMatch(text(other), /on 127\.0\.0\.2/, "the other host was not fetched");
    const loop = await tool({ limits: { maxRedirects: 3 } }).execute({ url: `${s.base}/loop` }, LOCAL_OK);
    assert.match(text(loop), /More than 3 redirects/);
    const file = await tool().execute({ url: `${s.base}/to-file` }, LOCAL_OK);
    assert.equal(file.isError, true);
    assert.match(text(file), /redirected to file: .*only http and https/);
  });

  it("never reaches a loopback or private address without an approval that said so", async () => {
    const r = await tool().execute({ url: `${s.base2}/page` }, PUBLIC_ONLY);
    assert.equal(r.isError, true);
    assert.match(text(r), /127\.0\.0\.2 is a loopback address \(this computer\)/);
    for (const url of ["http://[::ffff:127.0.0.1]:1/", "http://0.0.0.0:1/", "http://[::1]:1/", "http://localhost:1/"]) {
      const blocked = await tool().execute({ url }, PUBLIC_ONLY);
      assert.match(text(blocked), /is (a loopback|an unspecified) address/, url);
    }
    // Approved as local, the same page comes.
    assert.match(text(await tool().execute({ url: `${s.base2}/page` }, LOCAL_OK)), /on 127\.0\.0\.2$/);
  });

  it("checks the addresses again when it connects (a name that resolves to a local address the second time)", async () => {
    const answers: LookupAddress[][] = [
      [{ address: "93.184.215.14", family: 4 }],
      [{ address: "127.0.0.1", family: 4 }],
    ];
    let calls = 0;
    const lookup = async (host: string): Promise<LookupAddress[]> => {
      assert.equal(host, "rebind.test");
      return answers[Math.min(calls++, answers.length - 1)];
    };
    const r = await tool({ lookup }).execute({ url: `http://rebind.test:${s.port}/page` }, PUBLIC_ONLY);
    assert.equal(r.isError, true);
    assert.match(text(r), /rebind\.test resolves to a local address now: 127\.0\.0\.1 is a loopback address/);
    assert.equal(calls, 2, "resolved before the request and again at connect time");
  });

  it("works through an HTTP proxy (http_proxy), which resolves names this side cannot", async () => {
    const proxy = await startProxy();
    try {
      const lookup = async (): Promise<LookupAddress[]> => {
        throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
      };
      const viaProxy = tool({ lookup, env: () => ({ http_proxy: proxy.url, https_proxy: proxy.url }) });
      const r = await viaProxy.execute({ url: `http://site.test:${s.port}/page` }, PUBLIC_ONLY);
      assert.equal(r.isError, undefined, text(r));
      assert.match(text(r), /# Widget guide/);
      assert.ok(
        proxy.seen.some((l) => l.includes(`site.test:${s.port}`)),
        `the proxy carried the request: ${proxy.seen.join(", ")}`,
      );
      // no_proxy: the host is reached directly (and, not resolving here, fails).
      const direct = tool({ lookup, env: () => ({ http_proxy: proxy.url, no_proxy: "site.test" }) });
      const seenBefore = proxy.seen.length;
      const d = await direct.execute({ url: `http://site.test:${s.port}/page` }, PUBLIC_ONLY);
      assert.equal(d.isError, true);
      assert.equal(proxy.seen.length, seenBefore, "no_proxy kept it away from the proxy");
    } finally {
      await proxy.close();
    }
  });
});
