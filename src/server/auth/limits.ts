import { Elysia } from "elysia";
import type { Clock } from "../platform/clock";
import type { TrustProxy } from "../platform/http/clientAddress";
import { clientIp, RateLimiter } from "../platform/http/rateLimit";
import { readCookie, SESSION_COOKIE } from "./cookies";
import type { AuthService } from "./service";

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

/** Xaman payloads a signed-in wallet may have made per minute, all routes together (PAYLOADS_PER_WALLET_PER_MINUTE). */
export const PAYLOADS_PER_WALLET = 20;
/** Xaman payloads per minute from one IP, whatever wallets it signs in with (PAYLOADS_PER_IP_PER_MINUTE). */
export const PAYLOADS_PER_IP = 60;

/**
 * The routes that make a Xaman payload for a signed-in wallet (each one counts against the operator's
 * Xaman quota): every one is limited per wallet and per IP. Sign-in's own requests, before there is a
 * wallet, are SignRequestLimits'. The crash socket's `bet` counts too (GameSocketContext.limitPayload).
 */
export const PAYLOAD_ROUTES: ReadonlySet<string> = new Set([
  "/api/auth/oauth-request",
  "/api/payments/vvx-payment-qr",
  "/api/nfts/direct-offer",
  "/api/nfts/accept-offer",
  "/api/nfts/accept-offer-complete",
  "/api/nfts/transfer",
  "/api/nfts/transfer/cancel",
  "/api/nfts/transfer/accept",
  "/api/vvx/create-swap",
  "/api/vvx/create-trustline",
  "/api/xumm/payment/xapp",
  "/api/crash-bet/initiate",
  "/api/unicorn-bet/initiate",
  "/api/slots/create-session",
]);

/** Payload creations per wallet and per IP per minute (replaceable: tests tighten them). */
export class PayloadLimits {
  perWallet: RateLimiter;
  perIp: RateLimiter;

  constructor(limits: { perWallet: number; perIp: number } = { perWallet: PAYLOADS_PER_WALLET, perIp: PAYLOADS_PER_IP }, clock?: Clock) {
    this.perWallet = new RateLimiter(limits.perWallet, 60_000, clock);
    this.perIp = new RateLimiter(limits.perIp, 60_000, clock);
  }

  /** Counts one payload of `wallet` (none: not signed in, the route will refuse it) from `ip`; 429 past a limit. */
  hit(ip: string, wallet: string | undefined): void {
    this.perIp.hit(ip);
    if (wallet) this.perWallet.hit(wallet);
  }
}

/**
 * Counts every request to a PAYLOAD_ROUTES route before its handler (and before its body is checked):
 * 429 RATE_LIMITED with Retry-After past the wallet's or the IP's limit, nothing made.
 */
export function payloadLimit(auth: AuthService, limits: PayloadLimits, trustProxy: TrustProxy) {
  return new Elysia({ name: "payload-limit" }).onTransform({ as: "scoped" }, async ({ request, path, server }) => {
    if (request.method !== "POST" || !PAYLOAD_ROUTES.has(path)) return;
    const wallet = (await auth.session(readCookie(request, SESSION_COOKIE)))?.wallet;
    limits.hit(clientIp(server, request, trustProxy), wallet);
  });
}
