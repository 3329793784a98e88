import { Elysia } from "elysia";
import { xrpFromDrops } from "../ledger/amounts";
import { parseAddress } from "../ledger/address";
import { walletBalance, type LedgerReader } from "./service";
import { BalanceQuery, BalanceResponse } from "../../shared/api/system";

export { walletBalance, type LedgerReader } from "./service";

/** GET /api/wallet/balance?address=: public ledger facts, no session needed. */
export function walletRoutes(ledger: LedgerReader) {
  return new Elysia({ name: "wallet" }).get(
    "/api/wallet/balance",
    async ({ query }) => {
      const address = parseAddress(query.address, "address");
      const b = await walletBalance(ledger, address);
      return {
        success: true as const,
        address,
        funded: b.funded,
        balance: b.drops.toString(),
        xrpBalance: xrpFromDrops(b.drops),
        vvxBalance: b.vvxValue,
        microVvx: b.microVvx.toString(),
        hasVvxTrustline: b.hasVvxTrustline,
      };
    },
    {
      query: BalanceQuery,
      response: BalanceResponse,
      detail: { summary: "XRP and VVX balance of an address", tags: ["wallet"] },
    },
  );
}
