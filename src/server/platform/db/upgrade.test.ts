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

describe("upgrading a data directory to migration 0011", () => {
  test("applies once; indexes and the NFT refund keys are in place", () => {
    const before = migrations.findIndex((m) => m.tag.startsWith("0011_"));
    expect(before).toBeGreaterThan(0);
    // The previous release's database: every migration up to 0010, recorded as applyMigrations does.
    const old = new Database(join(dir, "vvx.db"), { create: true, strict: true });
    old.exec("CREATE TABLE _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
    for (const m of migrations.slice(0, before)) {
      for (const statement of m.sql.split("--> statement-breakpoint")) if (statement.trim()) old.exec(statement);
      old.query("INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, 1);
    }
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
      const before = migrations.findIndex((m) => m.tag.startsWith("0012_"));
      const old = new Database(join(at, "vvx.db"), { create: true, strict: true });
      old.exec("CREATE TABLE _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
      for (const m of migrations.slice(0, before)) {
        for (const statement of m.sql.split("--> statement-breakpoint")) if (statement.trim()) old.exec(statement);
        old.query("INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, 1);
      }
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
