import type { Clock } from "../platform/clock";
import { RateLimiter } from "../platform/http/rateLimit";

/** Sign requests per browser (IP + binding cookie) per minute. */
export const SIGN_REQUESTS_PER_CLIENT = 10;
/** Sign requests per minute per IP, whatever cookies the browsers show. */
export const SIGN_REQUESTS_PER_IP = 60;

/**
 * Rate limits for creating sign requests (each one is a Xaman payload against the app's
 * quota): per IP, always, and per browser (IP + server-issued binding cookie) within it.
 */
export class SignRequestLimits {
  private readonly perClient: RateLimiter;
  private readonly perIp: RateLimiter;

  constructor(clock?: Clock) {
    this.perClient = new RateLimiter(SIGN_REQUESTS_PER_CLIENT, 60_000, clock);
    this.perIp = new RateLimiter(SIGN_REQUESTS_PER_IP, 60_000, clock);
  }

  /** Counts one sign request; throws RateLimitError (429 + retry-after) past a limit. */
  hit(ip: string, clientToken: string): void {
    this.perIp.hit(ip);
    this.perClient.hit(`${ip}|${clientToken}`);
  }
}
