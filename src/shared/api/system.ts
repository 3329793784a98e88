import { t } from "elysia";

// The platform's public facts (site settings, health, landing-page figures, a wallet's balances) and
// the admin's drain: request and response schemas, written once.

export const SiteConfigResponse = t.Object({
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
});

export const HealthResponse = t.Object({
  status: t.Union([t.Literal("ok"), t.Literal("degraded")], { description: "degraded (503) while the database cannot take writes" }),
  network: t.String(),
  version: t.String(),
  db: t.String({ description: "ok when the database answers a query and takes writes; locked or unavailable otherwise" }),
  reason: t.Optional(t.String({ description: "Why the status is degraded" })),
  ledger: t.Union([t.Literal("idle"), t.Literal("connecting"), t.Literal("connected"), t.Literal("reconnecting"), t.Literal("stopped")], {
    description: "The XRP Ledger connection. Payments, bets, claims and swaps wait while it is not connected; the server itself is fine, so the status stays ok",
  }),
  role: t.Union([t.Literal("leader"), t.Literal("follower")], {
    description: "Whether this instance runs the single-runner work (payments watcher, outbox, game loops, sweeps). A single instance on SQLite is always the leader",
  }),
  instanceId: t.String({ description: "This instance's id (INSTANCE_ID)" }),
  leaderId: t.Union([t.String(), t.Null()], { description: "The leading instance's id; null while no instance leads" }),
});

/** `vvx sandbox`'s /api/health: the shared sandbox process answers (Docker's HEALTHCHECK, `vvx healthcheck`). */
export const SandboxHealthResponse = t.Object({
  status: t.Literal("ok"),
  sandbox: t.Literal(true),
  ledgerIndex: t.Number({ description: "The sandbox ledger's last validated ledger" }),
});

export const StatsResponse = t.Object({
  totalRewardsPoolVvx: t.Number({ description: "Rewards all live tiers pay over their terms when sold out" }),
  totalRewardsPaidVvx: t.Number({ description: "VVX rewards paid to holders so far" }),
  nftSupply: t.Number(),
  nftsMinted: t.Number(),
  holders: t.Number({ description: "Distinct wallets holding platform NFTs" }),
  vvxBurned: t.Number({ description: "VVX bought back with 1% of the crash bets and burned" }),
});

export const BalanceQuery = t.Object({ address: t.Optional(t.String()) });
export const BalanceResponse = t.Object({
  success: t.Literal(true),
  address: t.String(),
  funded: t.Boolean({ description: "False when the account does not exist on the ledger yet" }),
  balance: t.String({ description: "XRP balance in drops (divide by 1,000,000 for XRP)" }),
  xrpBalance: t.String(),
  vvxBalance: t.String({ description: "VVX trust line balance as decimal text" }),
  microVvx: t.String({ description: "VVX balance in micro-units (10^-6)" }),
  hasVvxTrustline: t.Boolean(),
});

export const DrainState = t.Object({
  success: t.Literal(true),
  draining: t.Boolean(),
  open: t.Array(t.String(), { description: "What the server still waits for before it stops" }),
});
