import type { Clock } from "../clock";
import { systemClock } from "../clock";
import { RateLimitError } from "../errors";
import { clientAddress, type TrustProxy } from "./clientAddress";

/**
 * Fixed-window request counter per key (in memory: limits protect this process and its
 * quotas; a restart forgets them, which is harmless).
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Counts one request for `key`; throws RateLimitError (429 with retry-after) past the limit. */
  hit(key: string, now = this.clock.now()): void {
    if (this.hits.size > 10_000) this.prune(now);
    let entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + this.windowMs };
      this.hits.set(key, entry);
    }
    entry.count++;
    if (entry.count > this.limit) throw new RateLimitError(Math.max(1, Math.ceil((entry.resetAt - now) / 1000)));
  }

  private prune(now: number): void {
    for (const [key, entry] of this.hits) if (entry.resetAt <= now) this.hits.delete(key);
  }
}

/**
 * The client's IP: the socket's peer ("local" for in-process requests), or with TRUST_PROXY the address
 * the operator's proxies name in X-Forwarded-For (clientAddress.ts).
 */
export function clientIp(server: { requestIP(req: Request): { address: string } | null } | null | undefined, request: Request, trust: TrustProxy): string {
  return clientAddress(server?.requestIP(request)?.address ?? "local", request.headers.get("x-forwarded-for"), trust);
}
