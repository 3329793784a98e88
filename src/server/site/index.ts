import { Elysia } from "elysia";
import type { Token } from "../ledger/amounts";
import type { Config } from "../platform/config";
import { SiteConfigResponse } from "../../shared/api/system";

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
    response: SiteConfigResponse,
    detail: { summary: "Public site settings (links, notices)", tags: ["system"] },
  });
}
