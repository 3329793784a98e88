import { BlockList, isIP } from "node:net";

/**
 * TRUST_PROXY: which proxies in front of the server may say who the client is. Unset, nobody: the
 * client is the socket's peer. A hop count N: the N nearest hops are proxies of the operator (the client
 * is the Nth address counted from the right of X-Forwarded-For). A list of addresses and CIDRs: hops from
 * those addresses are proxies; the client is the nearest address that is not one of them.
 */
export type TrustProxy = { kind: "none" } | { kind: "hops"; hops: number } | { kind: "cidrs"; list: BlockList };

export const NO_PROXY: TrustProxy = { kind: "none" };

/** The most hops a request can plausibly pass through (a CDN, a load balancer, a local proxy ...). */
const MAX_HOPS = 10;

/** Reads TRUST_PROXY; throws an Error saying what is wrong. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const text = raw?.trim() ?? "";
  if (!text || text === "0" || text.toLowerCase() === "false") return NO_PROXY;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > MAX_HOPS) throw new Error(`a hop count must be at most ${MAX_HOPS}, got ${hops}`);
    return { kind: "hops", hops };
  }
  const list = new BlockList();
  for (const item of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [address, prefix, extra] = item.split("/");
    const family = isIP(address ?? "");
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!family || extra !== undefined || !(bits >= 0 && bits <= (family === 4 ? 32 : 128))) {
      throw new Error(`must be a hop count or a comma-separated list of IP addresses and CIDRs (e.g. 10.0.0.0/8,::1), got "${item}"`);
    }
    list.addSubnet(address!, bits, family === 4 ? "ipv4" : "ipv6");
  }
  return { kind: "cidrs", list };
}

/** The address a request came from by TRUST_PROXY ("local" for in-process requests with no socket). */
export function clientAddress(peer: string, forwardedFor: string | null, trust: TrustProxy): string {
  if (trust.kind === "none" || !forwardedFor) return peer;
  // The path back from this server: its socket's peer, then X-Forwarded-For from right (nearest) to left.
  const chain = [peer, ...forwardedFor.split(",").map((s) => s.trim()).reverse()];
  let i = 0;
  if (trust.kind === "hops") {
    while (i < trust.hops && i + 1 < chain.length && isIP(chain[i + 1]!)) i++;
  } else {
    while (i + 1 < chain.length && trusted(trust.list, chain[i]!) && isIP(chain[i + 1]!)) i++;
  }
  return chain[i]!;
}

function trusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? "ipv4" : "ipv6");
}
