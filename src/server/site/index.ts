import { Elysia, t } from "elysia";
import type { Token } from "../ledger/amounts";
import type { Config } from "../platform/config";

/** Public settings the SPA needs: network, explorer, the VVX token, footer links, maintenance notice. */
export function siteRoutes(ctx: { config: Config; version: string; ledger: { vvx: Token } }) {
  const { config } = ctx;
  // Public explorers (xrpl.org) use /accounts and /transactions; the sandbox explorer /account and /tx.
  const [accountPath, txPath] = config.network === "sandbox" ? ["account", "tx"] : ["accounts", "transactions"];
  const body = {
    network: config.network,
    version: ctx.version,
    explorerUrl: config.explorerUrl,
    explorerAccountUrl: `${config.explorerUrl}/${accountPath}/{address}`,
    explorerTxUrl: `${config.explorerUrl}/${txPath}/{hash}`,
    vvx: { currency: ctx.ledger.vvx.currency, issuer: ctx.ledger.vvx.issuer },
    supportEmail: config.supportEmail ?? null,
    maintenanceNotice: config.maintenanceNotice,
    links: config.links as Record<string, string>,
    racingPayoutMultiple: config.racing.payoutMultiple,
  };
  return new Elysia({ name: "site" }).get("/api/site-config", () => body, {
    response: t.Object({
      network: t.String(),
      version: t.String(),
      explorerUrl: t.String(),
      explorerAccountUrl: t.String({ description: "Account page; {address} is replaced" }),
      explorerTxUrl: t.String({ description: "Transaction page; {hash} is replaced" }),
      vvx: t.Object({ currency: t.String(), issuer: t.String() }, { description: "The VVX token (slots payouts and rewards are paid in it)" }),
      supportEmail: t.Nullable(t.String()),
      maintenanceNotice: t.Boolean(),
      links: t.Record(t.String(), t.String()),
      racingPayoutMultiple: t.Number({ description: "Unicorn Racing pays a winning bet this many times over (RACING_PAYOUT_MULTIPLE); its return to player is this / 5" }),
    }),
    detail: { summary: "Public site settings (links, notices)", tags: ["system"] },
  });
}
