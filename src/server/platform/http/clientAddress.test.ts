import { describe, expect, test } from "bun:test";
import { clientAddress, NO_PROXY, parseTrustProxy } from "./clientAddress";

describe("TRUST_PROXY", () => {
  test("reads a hop count or a list of addresses and CIDRs; anything else names what is wrong", () => {
    expect(parseTrustProxy(undefined)).toBe(NO_PROXY);
    expect(parseTrustProxy("0")).toBe(NO_PROXY);
    expect(parseTrustProxy("false")).toBe(NO_PROXY);
    expect(parseTrustProxy("2")).toEqual({ kind: "hops", hops: 2 });
    expect(parseTrustProxy("127.0.0.1, 10.0.0.0/8, fd00::/8").kind).toBe("cidrs");
    for (const bad of ["11", "10.0.0.0/33", "proxy.local", "10.0.0.1/8/1", "fd00::/129", "true"]) expect(() => parseTrustProxy(bad)).toThrow();
  });

  test("the client is the socket's peer unless the peer is a trusted proxy; a client's own X-Forwarded-For entries are not believed", () => {
    // No proxy trusted: whatever the header says.
    expect(clientAddress("203.0.113.9", "1.2.3.4", NO_PROXY)).toBe("203.0.113.9");
    // One hop: the address the proxy appended (the rightmost), not what the client put before it.
    const one = parseTrustProxy("1");
    expect(clientAddress("10.0.0.2", "6.6.6.6, 198.51.100.7", one)).toBe("198.51.100.7");
    expect(clientAddress("10.0.0.2", null, one)).toBe("10.0.0.2");
    // Two hops (a CDN, then a local proxy).
    expect(clientAddress("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.0.0.5", parseTrustProxy("2"))).toBe("198.51.100.7");
    // Addresses: walk back past trusted proxies to the first address that is not one.
    const cidrs = parseTrustProxy("127.0.0.1,10.0.0.0/8");
    expect(clientAddress("127.0.0.1", "6.6.6.6, 198.51.100.7, 10.1.2.3", cidrs)).toBe("198.51.100.7");
    expect(clientAddress("::ffff:127.0.0.1", "198.51.100.7", cidrs)).toBe("198.51.100.7");
    // A peer that is not a trusted proxy is the client, whatever it claims.
    expect(clientAddress("203.0.113.9", "1.2.3.4", cidrs)).toBe("203.0.113.9");
    // Garbage in the header is never taken for an address.
    expect(clientAddress("127.0.0.1", "not-an-ip", cidrs)).toBe("127.0.0.1");
    expect(clientAddress("10.0.0.2", "<script>", one)).toBe("10.0.0.2");
  });
});
