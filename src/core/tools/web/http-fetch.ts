/**
 * One `web_fetch` download with undici: GET, redirects followed by hand so each hop is checked again (its scheme,
 * its host, every address it resolves to — also at connect time, so a name that resolves differently the second
 * time cannot slip through), a time limit on the whole download and a byte limit on the body. A redirect to another
 * host is not followed: the caller hands the new URL to the model, whose next call is approved for that host.
 * `http_proxy`/`https_proxy`/`no_proxy` are honoured through undici's EnvHttpProxyAgent; through a proxy the proxy
 * resolves names, so only this side's view of the host is checked.
 */
import type { LookupAddress, LookupOptions } from "node:dns";
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from "undici";
import { describeLocal, localKindOf } from "./address-kind.js";
import { hostOf, inspectTarget, systemLookup, type LookupAll } from "./fetch-target.js";
import { errorText } from "../../error-text.js";

/** Limits of one fetch. */
export interface FetchLimits {
  /** The whole download, redirects included, ms. */
  timeoutMs: number;
  /** The body, in bytes; a larger page is refused. */
  maxBytes: number;
  /** Redirects followed within one host. */
  maxRedirects: number;
}

/** Defaults: generous for documentation pages, small enough to stay quick. */
export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeoutMs: 30_000, maxBytes: 5 * 1024 * 1024, maxRedirects: 10 };

/** Options of `fetchUrl`. */
export interface FetchOptions {
  /** The user approved reaching a loopback or private address (the approval said so). */
  allowLocal: boolean;
  limits?: Partial<FetchLimits>;
  /** The resolver (tests give their own; default: the system's). */
  lookup?: LookupAll;
  /** Where the proxy variables are read (default: process.env). */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

/** What came back. */
export type FetchOutcome =
  | {
      kind: "response";
      /** The URL of the last hop. */
      url: string;
      status: number;
      statusText: string;
      /** The media type, lower case, without parameters ("" when the server sent none). */
      mediaType: string;
      /** The `charset` parameter, if any. */
      charset?: string;
      body: Buffer;
    }
  /** A redirect to another host (or from https down to http): not followed. */
  | { kind: "redirect"; url: string; status: number; location: string };

/** A fetch that failed for a reason the model should read (blocked address, limit, timeout, network error). */
export class FetchError extends Error {}

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  203: "Non-Authoritative Information",
  204: "No Content",
  206: "Partial Content",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  410: "Gone",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

const HEADERS = {
  "user-agent": "AgentTree-web_fetch/1 (+a coding agent fetching a page its user approved)",
  accept: "text/markdown, text/html;q=0.9, application/xhtml+xml;q=0.9, text/plain;q=0.8, */*;q=0.1",
};

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` of every direct connection: resolves all addresses and refuses the connection when one is not a
 * public address and the user did not approve a local one. `net.connect` skips it for IP literals, which the
 * per-hop check covers.
 */
function guardedLookup(allowLocal: boolean, lookup: LookupAll) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname).then(
      (addresses) => {
        if (addresses.length === 0)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), []);
        const wanted = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
        if (!allowLocal) {
          const local = addresses.find((a) => localKindOf(a.address) !== undefined);
          if (local) {
            const kind = localKindOf(local.address) ?? "special";
            return callback(new BlockedAddressError(hostname, describeLocal(local.address, kind)), []);
          }
        }
        const list = wanted.length > 0 ? wanted : addresses;
        if (options.all) callback(null, list);
        else callback(null, list[0].address, list[0].family);
      },
      (e: NodeJS.ErrnoException) => callback(e, []),
    );
  };
}

/** A connection refused because the host resolved to a local address the user did not approve. */
class BlockedAddressError extends FetchError {
  constructor(host: string, what: string) {
    super(
      `${host} resolves to a local address now: ${what}. Fetching it needs an approval that says so; call web_fetch again to be asked.`,
    );
  }
}

/** The dispatcher of one fetch: through the proxy the variables name, else direct with the guarded lookup. */
function dispatcherFor(allowLocal: boolean, lookup: LookupAll, env: NodeJS.ProcessEnv): Dispatcher {
  const connect = { lookup: guardedLookup(allowLocal, lookup) };
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY ?? "";
  const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY ?? "";
  if (httpProxy === "" && httpsProxy === "") return new Agent({ connect });
  // Explicit values, so the agent reads no other environment than the one given.
  return new EnvHttpProxyAgent({ httpProxy, httpsProxy, noProxy: env.no_proxy ?? env.NO_PROXY ?? "", connect });
}

/** Checks one hop's URL before it is requested: scheme, and (for an IP literal or a name that resolves) its addresses. */
async function checkHop(url: URL, allowLocal: boolean, lookup: LookupAll): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchError(
      `A redirect led to ${url.protocol.replace(/:$/, "")}, which is not fetched (http and https only).`,
    );
  if (allowLocal) return;
  const target = await inspectTarget(url, lookup);
  if (target.local) throw new BlockedAddressError(hostOf(url), describeLocal(target.local.address, target.local.kind));
}

function parseContentType(value: string | string[] | undefined): { mediaType: string; charset?: string } {
  const raw = (Array.isArray(value) ? value[0] : value) ?? "";
  const [type, ...params] = raw.split(";");
  const out: { mediaType: string; charset?: string } = { mediaType: type.trim().toLowerCase() };
  for (const p of params) {
    const m = /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p);
    if (m) out.charset = m[1].toLowerCase();
  }
  return out;
}

/** True when `to` stays where the approval was given: the same host name and port, http→https allowed. */
function sameHost(from: URL, to: URL): boolean {
  if (hostOf(from).toLowerCase() !== hostOf(to).toLowerCase()) return false;
  if (from.protocol === "https:" && to.protocol === "http:") return false;
  const port = (u: URL): string => u.port || (u.protocol === "https:" ? "443" : "80");
  return port(from) === port(to) || (from.protocol === "http:" && to.protocol === "https:" && to.port === "");
}

/** A body stream not to be read further. */
interface DiscardableBody {
  destroy(): void;
  on(event: "error", listener: () => void): unknown;
}

/** Stops reading a body; its stream's abort error has nowhere to go and is dropped. */
function discard(body: DiscardableBody): void {
  body.on("error", () => undefined);
  body.destroy();
}

/** Reads the body up to `maxBytes`; a larger one is refused (the stream is destroyed). */
async function readCapped(body: AsyncIterable<Buffer> & DiscardableBody, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(body);
      throw new FetchError(`The page is larger than the limit of ${maxBytes} bytes; not fetched.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Downloads `url` (already approved): see the file comment. Throws FetchError for what the model should read. */
export async function fetchUrl(url: URL, options: FetchOptions): Promise<FetchOutcome> {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...options.limits };
  const lookup = options.lookup ?? systemLookup;
  const dispatcher = dispatcherFor(options.allowLocal, lookup, options.env ?? process.env);
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    let current = url;
    for (let hop = 0; ; hop++) {
      await checkHop(current, options.allowLocal, lookup);
      const res = await request(current, {
        method: "GET",
        dispatcher,
        signal,
        headers: HEADERS,
        headersTimeout: limits.timeoutMs,
        bodyTimeout: limits.timeoutMs,
      });
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && location !== undefined) {
        await res.body.dump();
        const text = Array.isArray(location) ? location[0] : location;
        let next: URL;
        try {
          next = new URL(text, current);
        } catch {
          throw new FetchError(`The server redirected to "${text.slice(0, 200)}", which is not a URL.`);
        }
        if (next.protocol !== "http:" && next.protocol !== "https:")
          throw new FetchError(
            `The server redirected to ${next.protocol.replace(/:$/, "")}: (${next.href.slice(0, 200)}); only http and https are fetched.`,
          );
        if (!sameHost(current, next))
          return { kind: "redirect", url: current.href, status: res.statusCode, location: next.href };
        if (hop + 1 > limits.maxRedirects)
          throw new FetchError(`More than ${limits.maxRedirects} redirects; stopped at ${next.href}.`);
        current = next;
        continue;
      }
      const length = Number(res.headers["content-length"]);
      if (Number.isFinite(length) && length > limits.maxBytes) {
        discard(res.body);
        throw new FetchError(`The page is ${length} bytes, over the limit of ${limits.maxBytes} bytes; not fetched.`);
      }
      const body = await readCapped(res.body, limits.maxBytes);
      const type = parseContentType(res.headers["content-type"]);
      return {
        kind: "response",
        url: current.href,
        status: res.statusCode,
        statusText: STATUS_TEXT[res.statusCode] ?? "",
        ...type,
        body,
      };
    }
  } catch (e) {
    if (timeout.aborted) throw new FetchError(`No complete answer within ${limits.timeoutMs / 1000} seconds; stopped.`);
    if (options.signal?.aborted) throw new FetchError("Aborted.");
    if (e instanceof FetchError) throw e;
    const cause = (e as { cause?: unknown }).cause;
    if (cause instanceof FetchError) throw cause;
    throw new FetchError(`Could not fetch ${url.href}: ${networkText(e)}`);
  } finally {
    void dispatcher.close().catch(() => undefined);
  }
}

/** A network error as one line (undici wraps the cause). */
function networkText(e: unknown): string {
  const err = e as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const inner = err.cause?.message ?? "";
  const code = err.code ?? err.cause?.code;
  const msg = [err.message, inner].filter((m) => m && m !== "fetch failed").join(": ");
  return code && !msg.includes(code) ? `${msg} (${code})` : msg || errorText(e);
}
