import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from ".";
import { migrations } from "./migrations";

// A data directory written by the release before migration 0011 (outbox resend and indexes) opens with
// the new server: the migration applies once, its indexes serve the money paths, and failed NFT
// purchases get the key of the refund written with their failure.
const dir = mkdtempSync(join(tmpdir(), "vvx-upgrade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The database of a data directory as the release before migration `tag` left it: every earlier migration, recorded as applyMigrations does. */
function databaseBefore(path: string, tag: string): Database {
  const before = migrations.findIndex((m) => m.tag.startsWith(tag));
  expect(before).toBeGreaterThan(0);
  const old = new Database(path, { create: true, strict: true });
  old.exec("CREATE TABLE _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  for (const m of migrations.slice(0, before)) {
    for (const statement of m.sql.split("--> statement-breakpoint")) if (statement.trim()) old.exec(statement);
    old.query("INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, 1);
  }
  return old;
}

describe("upgrading a data directory to migration 0011", () => {
  test("applies once; indexes and the NFT refund keys are in place", () => {
    const old = databaseBefore(join(dir, "vvx.db"), "0011_");
    const purchase = old.prepare(
      "INSERT INTO nft_purchases (request_id, wallet, tier_id, price_micro_vvx, source, status, payment_request_id, destination_tag, created_at, expires_at, updated_at) VALUES (?, 'rBuyer', 1, 250000000000, 'vvx_payment_qr', ?, ?, ?, 1, 1, 1)",
    );
    purchase.run("failed-one", "failed", 1, 1001);
    purchase.run("completed-one", "completed", 2, 1002);
    old.exec("INSERT INTO ledger_outbox (key, purpose, tx_json, status, attempts, created_at, updated_at) VALUES ('refund:AB', 'refund', '{}', 'failed', 1, 1, 1)");
    old.close();

    const store = openStore(dir);
    try {
      const q = <T>(sql: string) => store.sqlite.query<T, []>(sql).all();
      expect(q<{ tag: string }>("SELECT tag FROM _migrations ORDER BY tag").map((r) => r.tag)).toEqual(migrations.map((m) => m.tag));
      expect(q<{ request_id: string; refund_key: string | null; id: number }>("SELECT id, request_id, refund_key FROM nft_purchases ORDER BY id")).toEqual([
        { id: 1, request_id: "failed-one", refund_key: "nft:1:refund" },
        { id: 2, request_id: "completed-one", refund_key: null },
      ]);
      // Failed entries of the old release are undecided: the resend sweep looks at them once.
      expect(q<{ next_key: string | null }>("SELECT next_key FROM ledger_outbox")).toEqual([{ next_key: null }]);
      const plan = (sql: string) => q<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).map((r) => r.detail).join("; ");
      expect(plan("SELECT * FROM game_bets WHERE outbox_key = 'crash-payout:x'")).toContain("USING INDEX game_bets_outbox");
      expect(plan("SELECT * FROM incoming_payments WHERE refund_key = 'refund:AB'")).toContain("USING INDEX incoming_payments_refund");
      expect(plan("SELECT * FROM crash_burns WHERE outbox_key = 'crash-burn:1'")).toContain("USING INDEX crash_burns_outbox");
      expect(plan("SELECT * FROM slot_sessions WHERE refund_key = 'slots:session:x:refund'")).toContain("USING INDEX slot_sessions_refund");
      expect(plan("SELECT id FROM ledger_outbox WHERE status = 'failed' AND next_key IS NULL ORDER BY id")).toContain("ledger_outbox_resend");
    } finally {
      store.close();
    }
    // Opening again applies nothing.
    const again = openStore(dir);
    expect(again.sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM _migrations").get()!.n).toBe(migrations.length);
    again.close();
  });
});

// A data directory of the release before migration 0012 (provable fairness: on-ledger commitments,
// the times seed hashes were first shown): what it held keeps its meaning, and the times are recovered.
describe("upgrading a data directory to migration 0012", () => {
  test("a chain's server-chosen salt is kept; each seed's commitment time is its pair's making or the rotation before it", () => {
    const at = mkdtempSync(join(tmpdir(), "vvx-upgrade-"));
    try {
      const old = databaseBefore(join(at, "vvx.db"), "0012_");
      old.exec("INSERT INTO crash_chains (seed_hash, length, terminating_hash, salt, first_round, created_at) VALUES ('aa', 10, 'bb', 'server-chosen', 1, 1)");
      // A pair made at 1000 and rotated at 3000 and 4000: the old release stored the pair's making on every revealed seed.
      old.exec("INSERT INTO fair_seeds (wallet, server_seed, server_seed_hash, client_seed, next_nonce, created_at, updated_at) VALUES ('rW', 's3', 'h3', 'c', 0, 1000, 5000)");
      old.exec("INSERT INTO fair_seeds (wallet, server_seed, server_seed_hash, client_seed, next_nonce, created_at, updated_at) VALUES ('rNew', 's', 'h', 'c', 2, 7000, 7000)");
      old.exec("INSERT INTO fair_revealed_seeds (server_seed_hash, server_seed, wallet, nonces_used, created_at, revealed_at) VALUES ('h1', 's1', 'rW', 1, 1000, 3000), ('h2', 's2', 'rW', 1, 1000, 4000)");
      old.close();

      const store = openStore(at);
      try {
        const q = <T>(sql: string) => store.sqlite.query<T, []>(sql).all();
        expect(q("SELECT salt FROM crash_chains")).toEqual([{ salt: "server-chosen" }]);
        expect(q("SELECT count(*) AS n FROM crash_chain_commitments")).toEqual([{ n: 0 }]);
        expect(q("SELECT wallet, committed_at FROM fair_seeds ORDER BY wallet")).toEqual([
          { wallet: "rNew", committed_at: 7000 },
          { wallet: "rW", committed_at: 4000 },
        ]);
        expect(q("SELECT server_seed_hash, created_at FROM fair_revealed_seeds ORDER BY server_seed_hash")).toEqual([
          { server_seed_hash: "h1", created_at: 1000 },
          { server_seed_hash: "h2", created_at: 3000 },
        ]);
        expect(q<{ detail: string }>("EXPLAIN QUERY PLAN SELECT committed_at FROM fair_seeds WHERE server_seed_hash = 'h3'").map((r) => r.detail).join()).toContain("fair_seeds_hash");
        expect(q("SELECT count(*) AS n FROM racing_races WHERE commit_ledger IS NOT NULL")).toEqual([{ n: 0 }]);
      } finally {
        store.close();
      }
    } finally {
      rmSync(at, { recursive: true, force: true });
    }
  });
});

// A data directory of the release before migration 0015 (outbox owners): every entry a payer's row points at
// gets that payer and row as its owner, so open entries keep being followed; settlements the old release
// handed over count as taken, those a payer's start-up replay still looked for are left for the outbox's.
describe("upgrading a data directory to migration 0015", () => {
  test("open and settled entries get their payer as owner; only what a payer still waited for is left untaken", () => {
    const at = mkdtempSync(join(tmpdir(), "vvx-upgrade-"));
    try {
      const old = databaseBefore(join(at, "vvx.db"), "0015_");
      // Rows of each payer alone, without the requests and tiers they reference.
      old.exec("PRAGMA foreign_keys = OFF");
      const entry = old.prepare("INSERT INTO ledger_outbox (key, purpose, tx_json, status, attempts, created_at, updated_at) VALUES (?, ?, '{}', ?, 1, 1, 5)");
      const incoming = old.prepare("INSERT INTO incoming_payments (tx_hash, ledger_index, sender, currency, delivered_value, outcome, refund_key, processed_at) VALUES (?, 1, 'rS', 'XRP', '1', 'refunded', ?, 1)");
      incoming.run("AA", "refund:AA");
      incoming.run("BB", "refund:BB#2");
      entry.run("refund:AA", "refund", "failed");
      entry.run("refund:BB", "refund", "failed");
      entry.run("refund:BB#2", "refund", "queued");
      const bet = old.prepare("INSERT INTO game_bets (id, game, wallet, amount_drops, payment_request_id, destination_tag, status, outbox_key, txid, created_at) VALUES (?, ?, 'rW', 1, ?, ?, ?, ?, ?, 1)");
      bet.run("bet-1", "crash", 1, 1, "won", "crash-payout:bet-1", null);
      bet.run("bet-2", "racing", 2, 2, "refunded", "refund:BB#2", null);
      bet.run("bet-3", "crash", 3, 3, "won", "crash-payout:bet-3", "HASH3");
      entry.run("crash-payout:bet-1", "game-payout", "validated");
      entry.run("crash-payout:bet-3", "game-payout", "validated");
      old.exec("INSERT INTO slot_payouts (wallet, amount_micro, spin_count, attempt, outbox_key, status, created_at) VALUES ('rW', 1, 1, 1, 'slots:payout:1:1', 'pending', 1)");
      entry.run("slots:payout:1:1", "slots_payout", "pending");
      old.exec(
        "INSERT INTO slot_sessions (id, wallet, kind, spin_cost_micro, total_spins, remaining_spins, paid_spins, bonus_spins, total_payout_micro, paid_micro, status, created_at, last_activity_at, expires_at, refund_key) VALUES ('s-1', 'rW', 'package', 1, 1, 1, 1, 0, 0, 0, 'expired', 1, 1, 1, 'slots:session:s-1:refund')",
      );
      entry.run("slots:session:s-1:refund", "refund", "validated");
      const purchase = old.prepare(
        "INSERT INTO nft_purchases (request_id, wallet, tier_id, price_micro_vvx, source, status, payment_request_id, destination_tag, refund_key, created_at, expires_at, updated_at) VALUES (?, 'rBuyer', 1, 1, 'vvx_payment_qr', ?, ?, ?, ?, 1, 1, 1)",
      );
      purchase.run("minting", "processing", 11, 1011, null);
      purchase.run("refunded", "failed", 12, 1012, "nft:2:refund");
      entry.run("nft:1:mint", "nft-mint", "validated");
      entry.run("nft:2:mint", "nft-mint", "failed");
      entry.run("nft:2:refund", "refund", "pending");
      old.exec("INSERT INTO reward_claims (token_id, seq, wallet, tier_id, claim_type, base_micro_vvx, amount_micro_vvx, forfeited_micro_vvx, status, outbox_key, claimed_at) VALUES ('T', 1, 'rW', 1, 'partial', 1, 1, 0, 'pending', 'reward:T:1', 1)");
      entry.run("reward:T:1", "reward", "validated");
      old.exec("INSERT INTO crash_burns (round, bets_drops, xrp_drops, outbox_key, status, created_at) VALUES (7, 100, 1, 'crash-burn:7', 'queued', 1)");
      entry.run("crash-burn:7", "burn", "queued");
      old.exec("INSERT INTO crash_chain_commitments (chain_id, outbox_key, created_at) VALUES (3, 'crash-chain:3:commit', 1)");
      entry.run("crash-chain:3:commit", "crash-chain-commit", "validated");
      entry.run("test:nobody", "payout", "validated");
      old.close();

      const store = openStore(at);
      try {
        const rows = store.sqlite.query<{ key: string; owner: string | null; owner_id: string | null; delivered_at: number | null }, []>("SELECT key, owner, owner_id, delivered_at FROM ledger_outbox ORDER BY id").all();
        const taken = (d: number | null) => (d === null ? "untaken" : "taken");
        expect(rows.map((r) => [r.key, r.owner, r.owner_id, taken(r.delivered_at)])).toEqual([
          // The failed first key of a resend chain: its payer's row points at the next key.
          ["refund:AA", "payment-refund", "1", "taken"],
          ["refund:BB", null, null, "untaken"],
          // Open: its payer keeps following it; the bet that points at the watcher's refund does not take it from the watcher.
          ["refund:BB#2", "payment-refund", "2", "untaken"],
          // A payout the old kit's start-up replay looked for (no txid yet) is left for the outbox's replay.
          ["crash-payout:bet-1", "crash-bet", "bet-1", "untaken"],
          ["crash-payout:bet-3", "crash-bet", "bet-3", "taken"],
          ["slots:payout:1:1", "slots-payout", "1", "untaken"],
          ["slots:session:s-1:refund", "slots-session", "s-1", "taken"],
          // The purchase still minting waits for its mint; the failed one's mint was handed over.
          ["nft:1:mint", "nft-purchase", "1", "untaken"],
          ["nft:2:mint", "nft-purchase", "2", "taken"],
          ["nft:2:refund", "nft-purchase", "2", "untaken"],
          ["reward:T:1", "reward-claim", "1", "untaken"],
          ["crash-burn:7", "crash-burn", "1", "untaken"],
          ["crash-chain:3:commit", "crash-commitment", "3", "taken"],
          ["test:nobody", null, null, "untaken"],
        ]);
        const plan = (sql: string) =>
          store.sqlite
            .query<{ detail: string }, []>(`EXPLAIN QUERY PLAN ${sql}`)
            .all()
            .map((r) => r.detail)
            .join("; ");
        expect(plan("SELECT * FROM ledger_outbox WHERE status IN ('validated', 'failed') AND delivered_at IS NULL AND owner IS NOT NULL ORDER BY id")).toContain("ledger_outbox_undelivered");
      } finally {
        store.close();
      }
    } finally {
      rmSync(at, { recursive: true, force: true });
    }
  });
});
