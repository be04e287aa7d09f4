/**
 * What a `web_fetch` URL reaches, decided before anything is sent: http or https only, the host's every resolved
 * address (DNS first; IPv6 and IPv4 alike), and the first that is not a public internet address. The approval
 * names the host from this and says when it is local; the fetch checks every hop again (http-fetch.ts).
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { localKindOf, type LocalKind } from "./address-kind.js";

/** A URL web_fetch does not take (bad syntax, another scheme). */
export class FetchUrlError extends Error {}

/** `dns.lookup` with `all: true`, as the fetch resolves (tests give their own). */
export type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver, every address, in the order the system gives them. */
export const systemLookup: LookupAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/** A non-public address the host resolves to. */
export interface LocalAddress {
  address: string;
  kind: LocalKind;
}

/** What a URL reaches. */
export interface FetchTarget {
  url: URL;
  /** The host name as the user reads it (`example.com`, `127.0.0.1`, `::1`). */
  host: string;
  /** Every address the host resolved to (empty when it did not resolve here). */
  addresses: string[];
  /** The first address that is not public; undefined when all are public. */
  local?: LocalAddress;
  /** The name did not resolve here (the fetch may still reach it through a proxy). */
  unresolved?: boolean;
}

/** The host part of `url` without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "");
}

/** Parses what the model gave: an absolute http or https URL. Throws FetchUrlError with the reason. */
export function parseFetchUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new FetchUrlError(`"${raw.slice(0, 200)}" is not an absolute URL (expected http:// or https://).`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new FetchUrlError(`Only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, "")}.`);
  if (hostOf(url) === "") throw new FetchUrlError(`The URL ${url.href} has no host.`);
  return url;
}

/** `localhost` and `*.localhost` always mean this computer (RFC 6761), whatever a resolver says. */
function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return h === "localhost" || h.endsWith(".localhost");
}

/**
 * Resolves `url`'s host and classifies every address. A name that does not resolve here is reported `unresolved`
 * (not an error): behind a proxy only the proxy may know it, and the fetch's own checks still apply.
 */
export async function inspectTarget(url: URL, lookup: LookupAll = systemLookup): Promise<FetchTarget> {
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const kind = localKindOf(host);
    return { url, host, addresses: [host], ...(kind ? { local: { address: host, kind } } : {}) };
  }
  if (isLocalhostName(host)) return { url, host, addresses: [], local: { address: host, kind: "loopback" } };
  let addresses: string[];
  try {
    addresses = (await lookup(host)).map((a) => a.address);
  } catch {
    return { url, host, addresses: [], unresolved: true };
  }
  for (const address of addresses) {
    const kind = localKindOf(address);
    if (kind) return { url, host, addresses, local: { address, kind } };
  }
  return { url, host, addresses };
}
