/**
 * Which addresses web_fetch treats as local: every special range of IPv4 and IPv6, IPv6 forms that carry an IPv4
 * address judged by it, and a host that is local when any one of its addresses is.
 */
import assert from "node:assert/strict";
import type { LookupAddress } from "node:dns";
import { describe, it } from "node:test";
import { describeLocal, localKindOf } from "../../../src/core/tools/web/address-kind.js";
import { inspectTarget, parseFetchUrl } from "../../../src/core/tools/web/fetch-target.js";

describe("address kinds", () => {
  it("classifies IPv4 ranges", () => {
    const cases: [string, string | undefined][] = [
      ["127.0.0.1", "loopback"],
      ["127.255.0.9", "loopback"],
      ["10.1.2.3", "private"],
      ["172.16.0.1", "private"],
      ["172.31.255.255", "private"],
      ["192.168.1.1", "private"],
      ["169.254.169.254", "link-local"],
      ["100.64.0.1", "shared"],
      ["100.127.255.254", "shared"],
      ["0.0.0.0", "unspecified"],
      ["0.1.2.3", "unspecified"],
      ["224.0.0.1", "multicast"],
      ["255.255.255.255", "multicast"],
      ["192.0.2.1", "special"],
      ["198.18.0.1", "special"],
      ["240.0.0.1", "special"],
      ["172.32.0.1", undefined],
      ["100.128.0.1", undefined],
      ["93.184.215.14", undefined],
      ["8.8.8.8", undefined],
    ];
    for (const [a, kind] of cases) assert.equal(localKindOf(a), kind, a);
  });

  it("classifies IPv6 ranges, and IPv6 forms carrying an IPv4 address by that address", () => {
    const cases: [string, string | undefined][] = [
      ["::1", "loopback"],
      ["[::1]", "loopback"],
      ["::", "unspecified"],
      ["fe80::1", "link-local"],
      ["fe80::1%eth0", "link-local"],
      ["fc00::1", "private"],
      ["fd12:3456::1", "private"],
      ["ff02::1", "multicast"],
      ["::ffff:127.0.0.1", "loopback"],
      ["::ffff:7f00:1", "loopback"],
      ["::ffff:10.0.0.1", "private"],
      ["::ffff:169.254.169.254", "link-local"],
      ["::ffff:93.184.215.14", undefined],
      ["64:ff9b::10.0.0.1", "private"],
      ["64:ff9b::8.8.8.8", undefined],
      ["2002:c0a8:0101::1", "private"], // 6to4 of 192.168.1.1
      ["2002:0808:0808::1", undefined], // 6to4 of 8.8.8.8
      ["::127.0.0.1", "loopback"], // IPv4-compatible
      ["2001:db8::1", "special"],
      ["2606:4700:4700::1111", undefined],
      ["not an address", "special"],
    ];
    for (const [a, kind] of cases) assert.equal(localKindOf(a), kind, a);
  });

  it("says what a local address is, with the host name when it differs", () => {
    assert.equal(describeLocal("127.0.0.1", "loopback"), "127.0.0.1 is a loopback address (this computer)");
    assert.equal(
      describeLocal("10.0.0.5", "private", "db.test"),
      "db.test resolves to 10.0.0.5, a private network address",
    );
  });
});

describe("fetch targets", () => {
  const lookupOf =
    (answers: Record<string, string[]>) =>
    async (host: string): Promise<LookupAddress[]> => {
      const list = answers[host];
      if (!list) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
      return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    };

  it("is local when any one address is (every address is checked, IPv6 too)", async () => {
    const lookup = lookupOf({
      "mixed.test": ["93.184.215.14", "fe80::5"],
      "public.test": ["93.184.215.14", "2606:4700:4700::1111"],
      "mapped.test": ["::ffff:192.168.0.7"],
    });
    const mixed = await inspectTarget(parseFetchUrl("https://mixed.test/a"), lookup);
    assert.deepEqual(mixed.local, { address: "fe80::5", kind: "link-local" });
    assert.deepEqual(mixed.addresses, ["93.184.215.14", "fe80::5"]);
    assert.equal((await inspectTarget(parseFetchUrl("https://public.test/"), lookup)).local, undefined);
    assert.deepEqual((await inspectTarget(parseFetchUrl("http://mapped.test/"), lookup)).local, {
      address: "::ffff:192.168.0.7",
      kind: "private",
    });
  });

  it("knows localhost by name, IP literals without a lookup, and names that do not resolve here", async () => {
    const lookup = lookupOf({});
    assert.equal((await inspectTarget(parseFetchUrl("http://localhost:3000/"), lookup)).local?.kind, "loopback");
    assert.equal((await inspectTarget(parseFetchUrl("http://api.localhost/"), lookup)).local?.kind, "loopback");
    assert.equal((await inspectTarget(parseFetchUrl("http://[::1]:8080/"), lookup)).local?.kind, "loopback");
    // WHATWG URL parsing normalizes the odd IPv4 spellings before they are judged.
    assert.equal((await inspectTarget(parseFetchUrl("http://0x7f.1/"), lookup)).host, "127.0.0.1");
    assert.equal((await inspectTarget(parseFetchUrl("http://2130706433/"), lookup)).local?.kind, "loopback");
    assert.equal((await inspectTarget(parseFetchUrl("http://0/"), lookup)).local?.kind, "unspecified");
    const unresolved = await inspectTarget(parseFetchUrl("https://only-the-proxy-knows.test/"), lookup);
    assert.equal(unresolved.unresolved, true);
    assert.equal(unresolved.local, undefined);
  });
});
