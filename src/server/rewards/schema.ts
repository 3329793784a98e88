import { bigintAmount } from "../platform/db/columns";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * One claim of an NFT's rewards, paid as a real VVX Payment from the treasury. The row and the
 * payment's outbox entry (key `outboxKey`) are written in one SQLite transaction, so a claim is
 * never recorded without its payment nor paid twice. Rewards belong to the NFT: the accrued amount
 * still open is computed per token from these rows, whoever held it when they were made.
 */
export const rewardClaims = sqliteTable(
  "reward_claims",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: text("token_id").notNull(),
    /** The NFT's claims numbered 1, 2, ...: (token, seq) is unique, so two claims can never share a number. */
    seq: integer("seq").notNull(),
    /** The on-ledger owner who claimed (or held the NFT at the distribution) and is paid. */
    wallet: text("wallet").notNull(),
    tierId: integer("tier_id").notNull(),
    /** early | full (claims the owner made) | monthly (the month's distribution, made by the platform) */
    claimType: text("claim_type").notNull(),
    /** The month a monthly distribution paid ("YYYY-MM"); null for claims. One per NFT and month (unique index). */
    period: text("period"),
    /** The accrued amount this claim settled (paid plus forfeited), in micro-VVX. */
    baseMicroVvx: bigintAmount("base_micro_vvx").notNull(),
    /** Paid to the owner, in micro-VVX. */
    amountMicroVvx: bigintAmount("amount_micro_vvx").notNull(),
    /** Given up by an early claim, in micro-VVX. */
    forfeitedMicroVvx: bigintAmount("forfeited_micro_vvx").notNull(),
    /** pending (payment in the outbox) | paid (validated, tesSUCCESS) | failed (never paid: settles nothing) */
    status: text("status").notNull(),
    outboxKey: text("outbox_key").notNull(),
    txid: text("txid"),
    error: text("error"),
    /** The product clock's time of the claim or distribution (the 24 h rule counts from claims only). */
    claimedAt: integer("claimed_at", { mode: "timestamp_ms" }).notNull(),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    uniqueIndex("reward_claims_token_seq").on(t.tokenId, t.seq),
    uniqueIndex("reward_claims_outbox_key").on(t.outboxKey),
    uniqueIndex("reward_claims_token_period").on(t.tokenId, t.period),
    index("reward_claims_wallet").on(t.wallet, t.claimedAt),
    index("reward_claims_status").on(t.status),
  ],
);

/**
 * The monthly distributions: one row per month whose end has passed, `running` while its NFTs are being
 * paid (a restart carries on: each NFT's payment is a reward_claims row unique per NFT and month), `done`
 * once every NFT was paid what it had open at the month's end or had nothing to pay.
 */
export const rewardDistributions = sqliteTable("reward_distributions", {
  /** "YYYY-MM" */
  month: text("month").primaryKey(),
  /** The month's end (00:00 UTC on the next month's 1st): accrual is counted up to here. */
  endsAt: integer("ends_at", { mode: "timestamp_ms" }).notNull(),
  /** running | done */
  status: text("status").notNull(),
  /** NFTs paid and micro-VVX recorded for them (set when done). */
  nftsPaid: integer("nfts_paid").notNull(),
  paidMicroVvx: bigintAmount("paid_micro_vvx").notNull(),
  /** NFTs with rewards open that could not be paid this month (no holder found, held by the treasury): they stay claimable. */
  nftsSkipped: integer("nfts_skipped").notNull(),
  startedAt: integer("started_at", { mode: "timestamp_ms" }).notNull(),
  finishedAt: integer("finished_at", { mode: "timestamp_ms" }),
});

/**
 * Transfers an owner started here (a sell offer for 0 to the recipient, signed in Xaman). The ledger
 * is the truth about the offer; these rows tell a recipient which NFTs may have an offer waiting
 * for them (the ledger does not index offers by destination), and both wallets' history which NFTs
 * they sent and received (the acceptance's txid, found on the ledger).
 */
export const nftTransfers = sqliteTable(
  "nft_transfers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenId: text("token_id").notNull(),
    fromWallet: text("from_wallet").notNull(),
    toWallet: text("to_wallet").notNull(),
    /** The owner's Xaman NFTokenCreateOffer sign request. */
    signUuid: text("sign_uuid").notNull(),
    /** open (offer asked for or live) | accepted (the recipient took it: txid) | closed (cancelled, rejected or expired) */
    status: text("status").notNull(),
    /** The recipient's NFTokenAcceptOffer, once the ledger validated it. */
    txid: text("txid"),
    /** When that ledger closed. */
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    uniqueIndex("nft_transfers_sign_uuid").on(t.signUuid),
    index("nft_transfers_to").on(t.toWallet, t.status),
    index("nft_transfers_from").on(t.fromWallet, t.createdAt),
    index("nft_transfers_token").on(t.tokenId),
  ],
);
