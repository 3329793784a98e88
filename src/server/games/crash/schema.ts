import { bigintAmount } from "../../platform/db/columns";
import { integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A bustabit-v2 hash chain: its secret seed stays here, sealed; the terminating hash and salt are published before its first round. */
export const crashChains = sqliteTable("crash_chains", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /**
   * The secret end of the chain (hash index 0), sealed with DATA_DIR/seal.key ("retired" once erased); game n
   * of the chain is the seed hashed (length - n) times.
   */
  seedHash: text("seed_hash").notNull(),
  length: integer("length").notNull(),
  /** The seed hashed `length` times: published; every game hash chains to it. */
  terminatingHash: text("terminating_hash").notNull(),
  /**
   * The HMAC key of every game of the chain: published. A committed chain's salt is the hash of the
   * ledger SALT_LEDGER_OFFSET ledgers after its commitment's (null until that ledger is validated).
   */
  salt: text("salt"),
  /** The crash round played as game 1 of this chain. */
  firstRound: integer("first_round").notNull(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

/** 1% of a round's confirmed bets buys VVX from the AMM and delivers it to the issuer (destroyed): one per round. */
export const crashBurns = sqliteTable(
  "crash_burns",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    round: integer("round").notNull(),
    /** The round's confirmed bets, in drops. */
    betsDrops: bigintAmount("bets_drops").notNull(),
    /** floor(1% of betsDrops): the SendMax of the burn payment. */
    xrpDrops: bigintAmount("xrp_drops").notNull(),
    outboxKey: text("outbox_key").notNull(),
    /** queued | validated | failed */
    status: text("status").notNull(),
    txid: text("txid"),
    /** What the AMM delivered to the issuer (delivered_amount), in micro-VVX. */
    vvxBurnedMicro: bigintAmount("vvx_burned_micro"),
    /** The XRP actually spent, in drops (at most xrpDrops). */
    xrpSpentDrops: bigintAmount("xrp_spent_drops"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    settledAt: integer("settled_at", { mode: "timestamp_ms" }),
  },
  (t) => [uniqueIndex("crash_burns_round").on(t.round), uniqueIndex("crash_burns_outbox").on(t.outboxKey)],
);

/**
 * A chain's commitment on the ledger (commitment.ts): an AccountSet of the treasury whose memo carries
 * the terminating hash, sent through the outbox in the transaction that records the chain.
 */
export const crashChainCommitments = sqliteTable(
  "crash_chain_commitments",
  {
    chainId: integer("chain_id").primaryKey(),
    /** The outbox key of the AccountSet (moves to `<key>#n` when the outbox sends it again). */
    outboxKey: text("outbox_key").notNull(),
    /** Set once the AccountSet is validated. */
    txHash: text("tx_hash"),
    ledgerIndex: integer("ledger_index"),
    /** ledgerIndex + SALT_LEDGER_OFFSET: the ledger whose hash is the chain's salt. */
    saltLedgerIndex: integer("salt_ledger_index"),
    /** The close time of the commitment's ledger. */
    committedAt: integer("committed_at", { mode: "timestamp_ms" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [uniqueIndex("crash_chain_commitments_outbox").on(t.outboxKey)],
);
