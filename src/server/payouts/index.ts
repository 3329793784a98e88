import { Elysia } from "elysia";
import { FailedPayoutsResponse, PayoutActionResponse, RetryPayoutBody, SettlePayoutBody } from "../../shared/api/payouts";
import { requireAdmin, walletSession } from "../auth/guard";
import type { AuthService } from "../auth/service";
import { actionView, type FailedPayouts } from "./service";

export { FailedPayouts } from "./service";
export { givenUpCount } from "./repository";

/** `/api/admin/failed-payouts`: the payments the outbox gave up on, and the admin's retry or settle. */
export function payoutRoutes(deps: { payouts: FailedPayouts; auth: AuthService; adminWallets: readonly string[] }) {
  const { payouts } = deps;
  return new Elysia({ name: "payouts" })
    .use(walletSession(deps.auth))
    .get(
      "/api/admin/failed-payouts",
      async ({ session }) => {
        requireAdmin(session, deps.adminWallets);
        return { success: true as const, ...(await payouts.list()) };
      },
      { response: FailedPayoutsResponse, detail: { summary: "Admins: payments the outbox gave up on after their last resend, and the latest admin actions", tags: ["admin"] } },
    )
    .post(
      "/api/admin/failed-payouts/retry",
      async ({ session, body }) => ({ success: true as const, action: actionView(await payouts.retry(body.key, requireAdmin(session, deps.adminWallets), body.note)) }),
      { body: RetryPayoutBody, response: PayoutActionResponse, detail: { summary: "Admins: send a given-up payment again under its next key (audit record kept)", tags: ["admin"] } },
    )
    .post(
      "/api/admin/failed-payouts/settle",
      async ({ session, body }) => ({ success: true as const, action: actionView(await payouts.settle(body.key, requireAdmin(session, deps.adminWallets), body.note)) }),
      { body: SettlePayoutBody, response: PayoutActionResponse, detail: { summary: "Admins: mark a given-up payment settled another way, with why (audit record kept; nothing is sent)", tags: ["admin"] } },
    );
}
