import { Elysia, t } from "elysia";
import { xrpFromDrops } from "../ledger/amounts";
import { parseAddress } from "../ledger/address";
import { walletBalance, type LedgerReader } from "./service";

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
      query: t.Object({ address: t.Optional(t.String()) }),
      response: t.Object({
        success: t.Literal(true),
        address: t.String(),
        funded: t.Boolean({ description: "False when the account does not exist on the ledger yet" }),
        balance: t.String({ description: "XRP balance in drops (divide by 1,000,000 for XRP)" }),
        xrpBalance: t.String(),
        vvxBalance: t.String({ description: "VVX trust line balance as decimal text" }),
        microVvx: t.String({ description: "VVX balance in micro-units (10^-6)" }),
        hasVvxTrustline: t.Boolean(),
      }),
      detail: { summary: "XRP and VVX balance of an address", tags: ["wallet"] },
    },
  );
}
