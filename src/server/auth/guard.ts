import { Elysia } from "elysia";
import { isClassicAddress } from "../ledger/address";
import { ForbiddenError, UnauthorizedError, ValidationError } from "../platform/errors";
import { requestCookies, SESSION_COOKIE } from "./cookies";
import type { AuthService, WalletSession } from "./service";

/** The session's wallet; 401 when there is no session. */
export function requireWallet(session: WalletSession | null | undefined): string {
  if (!session) throw new UnauthorizedError("Connect your wallet first");
  return session.wallet;
}

/**
 * The wallet a request may act for: the session's. A `walletAddress` in the
 * request that names another wallet gets 403 (DESIGN.md); a malformed one 400
 * naming `field`; no session 401.
 */
export function actingWallet(session: WalletSession | null | undefined, walletAddress?: unknown, field = "walletAddress"): string {
  const wallet = requireWallet(session);
  if (walletAddress === undefined || walletAddress === null || walletAddress === "") return wallet;
  if (typeof walletAddress !== "string" || !isClassicAddress(walletAddress.trim())) {
    throw new ValidationError(field, `Field '${field}' is not an XRPL address`);
  }
  if (walletAddress.trim() !== wallet) throw new ForbiddenError("You may only act for your own connected wallet");
  return wallet;
}

/** Admins only: the session's wallet when it is in ADMIN_WALLETS; 401 without a session, 403 for another wallet. */
export function requireAdmin(session: WalletSession | null | undefined, adminWallets: readonly string[]): string {
  if (!session) throw new UnauthorizedError("Connect an admin wallet first");
  if (!adminWallets.includes(session.wallet)) throw new ForbiddenError("This page is for administrators only", "ADMIN_ONLY");
  return session.wallet;
}

/**
 * Adds `session` (the signed-in wallet or null) and `cookies` (the request's, see RequestCookies)
 * to every route of the instance that uses it. Features then call `actingWallet(session, body.walletAddress)`.
 */
export function walletSession(auth: AuthService) {
  return new Elysia().resolve({ as: "scoped" }, async ({ request, set }) => {
    const cookies = requestCookies({ request, set });
    return { cookies, session: await auth.session(cookies.get(SESSION_COOKIE)) };
  });
}
