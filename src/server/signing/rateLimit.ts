import { RateLimitError } from "../platform/errors";

/**
 * Fixed-window request counter per key (in memory: limits protect this
 * process's Xaman quota; a restart forgets them, which is harmless).
 */
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();

  constructor(readonly limit: number, readonly windowMs: number) {}

  /** Counts one request for `key`; throws RateLimitError (429 with retry-after) past the limit. */
  hit(key: string, now = Date.now()): void {
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

/** Sign requests per browser (IP + binding cookie) per minute. */
export const SIGN_REQUESTS_PER_CLIENT = 10;
/** Sign requests per minute per IP, whatever cookies the browsers show. */
export const SIGN_REQUESTS_PER_IP = 60;
