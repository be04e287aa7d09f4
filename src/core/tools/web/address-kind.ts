/**
 * Whether an IP address is a public internet address, and if not, what it is: `web_fetch` asks the user before it
 * reaches this computer or its networks, and a host rule never allows that. The ranges come from ipaddr.js (its
 * IANA special-purpose tables); IPv6 forms that carry an IPv4 address (mapped, translated, NAT64, 6to4) are judged
 * by the IPv4 address they carry.
 */
import ipaddr from "ipaddr.js";

/** What a non-public address is. */
export type LocalKind = "loopback" | "private" | "link-local" | "shared" | "unspecified" | "multicast" | "special";

/** How the approval names each kind. */
const KIND_WORDS: Record<LocalKind, string> = {
  loopback: "a loopback address (this computer)",
  private: "a private network address",
  "link-local": "a link-local address (this computer's local link)",
  shared: "a shared carrier-grade NAT address (100.64.0.0/10)",
  unspecified: "an unspecified address (0.0.0.0 or ::, which reaches this computer)",
  multicast: "a multicast or broadcast address",
  special: "a special-purpose address, not a public internet address",
};

/** "127.0.0.1 is a loopback address (this computer)"; with a host name, "db.test resolves to 10.0.0.5, a private…". */
export function describeLocal(address: string, kind: LocalKind, host = address): string {
  return host === address ? `${address} is ${KIND_WORDS[kind]}` : `${host} resolves to ${address}, ${KIND_WORDS[kind]}`;
}

const IPV4_KINDS: Record<string, LocalKind | undefined> = {
  unicast: undefined,
  loopback: "loopback",
  private: "private",
  linkLocal: "link-local",
  carrierGradeNat: "shared",
  unspecified: "unspecified",
  multicast: "multicast",
  broadcast: "multicast",
};

const IPV6_KINDS: Record<string, LocalKind | undefined> = {
  unicast: undefined,
  loopback: "loopback",
  uniqueLocal: "private",
  deprecatedSiteLocal: "private",
  linkLocal: "link-local",
  unspecified: "unspecified",
  multicast: "multicast",
};

function ipv4Kind(a: ipaddr.IPv4): LocalKind | undefined {
  const range = a.range();
  return range in IPV4_KINDS ? IPV4_KINDS[range] : "special";
}

/** The IPv4 address inside an IPv6 address of a form that carries one, else undefined. */
function embeddedIpv4(a: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = a.range();
  const p = a.parts;
  const fromWords = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated), 64:ff9b::a.b.c.d (NAT64): the last 32 bits.
  if (range === "ipv4Mapped" || range === "rfc6145" || range === "rfc6052") return fromWords(p[6], p[7]);
  // 2002:AABB:CCDD::/48 (6to4): bits 16 to 48.
  if (range === "6to4") return fromWords(p[1], p[2]);
  // ::a.b.c.d (IPv4-compatible, deprecated): still reaches the IPv4 address on some stacks.
  if (p.slice(0, 6).every((w) => w === 0) && (p[6] !== 0 || p[7] > 1)) return fromWords(p[6], p[7]);
  return undefined;
}

/**
 * What `address` is when it is not a public internet address; undefined for a public one. Anything that does not
 * parse as an IP address counts as "special" (never public by mistake).
 */
export function localKindOf(address: string): LocalKind | undefined {
  const bare = address.replace(/^\[|\]$/g, "");
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bare);
  } catch {
    return "special";
  }
  if (parsed.kind() === "ipv4") return ipv4Kind(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const inner = embeddedIpv4(v6);
  if (inner) return ipv4Kind(inner);
  const range = v6.range();
  return range in IPV6_KINDS ? IPV6_KINDS[range] : "special";
}
