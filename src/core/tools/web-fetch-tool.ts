/**
 * `web_fetch` {url, prompt?}: a web page as Markdown (HTML: its main content, links kept), other text as text;
 * binaries are refused. The fetch itself (limits, redirects, the checks of every address) is web/http-fetch.ts.
 *
 * `prompt` runs no second model: the result starts with it as the question the page is fetched to answer, and the
 * session's own model answers it from the page in its next turn. A small model's digest would cost a model call
 * and a key of its own, could drop what the question did not foresee, and could not be checked against the page;
 * the page itself, capped like every tool's output, can.
 *
 * The call changes nothing but reaches the network, so the host asks before it runs (`asks`), naming the host; a
 * loopback or private address needs an approval that says so (`ToolContext.localNetwork`).
 */
import { guarded, optString, reqString, textResult } from "./tool-args.js";
import { MAX_BYTES, MAX_LINES, truncateHead } from "./truncate.js";
import type { AgentTool, ToolResult } from "./types.js";
import { loadHttpFetch } from "./lazy-parts.js";
import type { FetchLimits } from "./web/http-fetch.js";
import { FetchUrlError, parseFetchUrl, type LookupAll } from "./web/fetch-target.js";
import { convertHtml, HtmlConvertError } from "./web/html-convert.js";
import { toolParameters } from "./tool-parameters.js";

/** Options of `createWebFetchTool` (tests: limits, a resolver, the proxy variables). */
export interface WebFetchToolOptions {
  limits?: Partial<FetchLimits>;
  lookup?: LookupAll;
  /** Where http_proxy/https_proxy/no_proxy are read (default: process.env at each call). */
  env?: () => NodeJS.ProcessEnv;
  /** The HTML conversion's worker script (false: in this thread; default: dist/tools/html-worker.mjs when there). */
  htmlWorker?: string | false;
  /** Time limit of the HTML conversion, ms (default 30 s). */
  convertTimeoutMs?: number;
}

/** Text types besides text/*: JSON, XML, scripts and configuration formats. */
const TEXT_APPLICATION = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/ecmascript",
  "application/x-javascript",
  "application/x-sh",
  "application/x-httpd-php",
  "application/toml",
  "application/yaml",
  "application/x-yaml",
  "application/graphql",
  "application/sql",
  "application/x-ndjson",
  "application/rss+xml",
  "application/atom+xml",
  "image/svg+xml",
]);

type BodyKind = "html" | "text" | "binary";

function bodyKind(mediaType: string, body: Buffer): BodyKind {
  const head = body.subarray(0, 8192);
  if (head.includes(0)) return "binary";
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "html";
  if (mediaType.startsWith("text/") || TEXT_APPLICATION.has(mediaType)) return "text";
  if (mediaType.endsWith("+json") || mediaType.endsWith("+xml")) return "text";
  if (mediaType === "") {
    // No type given: text that looks like HTML is HTML; other bytes without NULs are text.
    return /^\s*(<!doctype html|<html[\s>])/i.test(head.toString("latin1")) ? "html" : "text";
  }
  return "binary";
}

/** The body as a string: the header's charset, else an HTML page's <meta charset>, else UTF-8. */
function decode(body: Buffer, charset: string | undefined, kind: BodyKind): string {
  let label = charset;
  if (!label && kind === "html")
    label = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(body.subarray(0, 2048).toString("latin1"))?.[1];
  try {
    return new TextDecoder(label ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/** Create the web_fetch tool. */
export function createWebFetchTool(options: WebFetchToolOptions = {}): AgentTool {
  return {
    name: "web_fetch",
    description: `Fetch a web page (http or https) and return its main content as Markdown, links kept; other text (JSON, plain text) as it is. Binaries are refused. At most ${MAX_LINES} lines or ${MAX_BYTES / 1024}KB are returned. A redirect to another host is reported, not followed: fetch the new URL to follow it. Optional prompt: what you want to learn from the page (it heads the result).`,
    parameters: toolParameters(
      {
        url: ["string", "The http or https URL to fetch"],
        prompt: ["string", "What to look for in the page (optional)"],
      },
      ["url"],
    ),
    mutates: false,
    asks: true,
    promptSnippet: "Fetch a web page as Markdown",
    execute: guarded("web_fetch", async (args, ctx): Promise<ToolResult> => {
      const raw = reqString(args, "url");
      const prompt = optString(args, "prompt")?.trim();
      let url: URL;
      try {
        url = parseFetchUrl(raw);
      } catch (e) {
        if (e instanceof FetchUrlError) return textResult(e.message, true);
        throw e;
      }
      const { FetchError, fetchUrl } = await loadHttpFetch();
      let outcome;
      try {
        outcome = await fetchUrl(url, {
          allowLocal: ctx.localNetwork === true,
          ...(options.limits ? { limits: options.limits } : {}),
          ...(options.lookup ? { lookup: options.lookup } : {}),
          env: options.env?.() ?? process.env,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        });
      } catch (e) {
        if (e instanceof FetchError) return textResult(e.message, true, { url: url.href });
        throw e;
      }
      if (outcome.kind === "redirect") {
        return textResult(
          `${outcome.url} redirects (HTTP ${outcome.status}) to another host: ${outcome.location}\nTo follow it, call web_fetch with that URL.`,
          false,
          { url: url.href, redirect: outcome.location, status: outcome.status },
        );
      }
      const kind = bodyKind(outcome.mediaType, outcome.body);
      const type = outcome.mediaType || "no content type";
      const details = {
        url: url.href,
        finalUrl: outcome.url,
        status: outcome.status,
        contentType: type,
        bytes: outcome.body.length,
      };
      if (kind === "binary")
        return textResult(
          `${outcome.url} is ${type} (${outcome.body.length} bytes), not text; web_fetch returns text only.`,
          true,
          details,
        );
      const text = decode(outcome.body, outcome.charset, kind);
      let title: string | undefined;
      let content = text;
      if (kind === "html") {
        try {
          const page = await convertHtml(text, outcome.url, {
            ...(options.htmlWorker === undefined ? {} : { workerScript: options.htmlWorker }),
            ...(options.convertTimeoutMs === undefined ? {} : { timeoutMs: options.convertTimeoutMs }),
            ...(ctx.signal ? { signal: ctx.signal } : {}),
          });
          title = page.title;
          content = page.markdown;
        } catch (e) {
          if (e instanceof HtmlConvertError) return textResult(e.message, true, details);
          throw e;
        }
      }
      const head: string[] = [];
      if (prompt) head.push(`Fetched to answer: ${prompt}`);
      if (title) head.push(`# ${title}`);
      const status =
        outcome.status >= 200 && outcome.status < 300
          ? ""
          : ` — HTTP ${outcome.status} ${outcome.statusText}`.trimEnd();
      head.push(`Source: ${outcome.url} (${type}${kind === "html" ? ", converted to Markdown" : ""})${status}`);
      const t = truncateHead(content.trim() || "(empty page)", MAX_LINES, MAX_BYTES, { cutLongFirstLine: true });
      let out = `${head.join("\n")}\n\n${t.text}`;
      if (t.truncated)
        out += `\n\n[Page cut: showing ${t.keptLines} of ${t.totalLines} lines (${Buffer.byteLength(content, "utf8")} bytes in all).]`;
      return textResult(out, outcome.status >= 400, { ...details, truncated: t.truncated });
    }),
  };
}
