import { Elysia } from "elysia";
import { requireAdmin, walletSession } from "../auth/guard";
import type { AuthService } from "../auth/service";
import type { Outbox } from "../ledger/outbox";
import type { Db } from "../platform/db";
import { DepositsQuery, DepositsResponse } from "../../shared/api/deposits";
import { untaggedPayments } from "./service";

/** What the deposits routes read. */
export interface DepositRouteDeps {
  db: Db;
  outbox: Pick<Outbox, "get">;
  auth: AuthService;
  adminWallets: readonly string[];
  /** Senders whose untagged payments are kept. */
  funders: readonly string[];
}

/** `GET /api/admin/deposits`: untagged payments to the treasury, kept and refunded, for admins. */
export function depositRoutes(deps: DepositRouteDeps) {
  return new Elysia({ name: "deposits" }).use(walletSession(deps.auth)).get(
    "/api/admin/deposits",
    async ({ session, query }) => {
      requireAdmin(session, deps.adminWallets);
      return { success: true as const, deposits: await untaggedPayments(deps.db, deps.outbox, query.limit ?? 100), funders: [...deps.funders] };
    },
    { query: DepositsQuery, response: DepositsResponse, detail: { summary: "Admins: untagged payments to the treasury, kept (funding accounts, returned refunds) and refunded", tags: ["admin"] } },
  );
}
