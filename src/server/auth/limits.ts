import type { Clock } from "../platform/clock";
import { RateLimiter } from "../platform/http/rateLimit";

/** Sign requests per browser (IP + binding cookie) per minute. */
export const SIGN_REQUESTS_PER_CLIENT = 10;
/** Sign requests per minute per IP from browsers without a binding cookie yet. */
export const SIGN_REQUESTS_PER_IP = 60;

/**
 * Rate limits for creating sign requests: per browser (IP + binding cookie),
 * and per IP for browsers arriving without a binding cookie (so minting fresh
 * cookies does not escape the limit, while many known browsers behind one
 * proxy do not share one budget).
 */
export class SignRequestLimits {
  private readonly perClient: RateLimiter;
  private readonly newClientsPerIp: RateLimiter;

  constructor(clock?: Clock) {
    this.perClient = new RateLimiter(SIGN_REQUESTS_PER_CLIENT, 60_000, clock);
    this.newClientsPerIp = new RateLimiter(SIGN_REQUESTS_PER_IP, 60_000, clock);
  }

  /** Counts one sign request; throws RateLimitError (429 + retry-after) past a limit. */
  hit(ip: string, clientToken: string, newClient: boolean): void {
    if (newClient) this.newClientsPerIp.hit(ip);
    this.perClient.hit(`${ip}|${clientToken}`);
  }
}
