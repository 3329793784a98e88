import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryLogger } from "../platform/log";
import { CRASH_TEST_ENV, startFlight, waitingRound } from "../testing/crashKit";
import { eventually } from "../testing/ledgerKit";
import { buyer, sessionBrowser } from "../testing/nftKit";
import { runVvx, spawnServer } from "../testing/processKit";
import { advanceClock, raceReaches, raceState } from "../testing/racingKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import type { TestBrowser } from "../testing/testBrowser";

const DAY_MS = 86_400_000;

/** A wheel spin of the browser's wallet: the seed pair and nonce it was decided by (what the player saw). */
async function wheelSpin(browser: TestBrowser): Promise<string> {
  const res = await browser.json("/api/daily-spin/spin", { method: "POST", json: {} });
  if (res.status !== 200) throw new Error(`spin answered ${res.status}: ${JSON.stringify(res.body)}`);
  return `${res.body.result.serverSeedHash}#${res.body.result.nonce}`;
}

/** Waits until crash round `round` runs: its multiplier is on every screen, its chain position used. */
const crashRuns = (server: TestServer, round: number) =>
  eventually(() => {
    const s = server.ctx.crash.rounds.state();
    return s.round > round || (s.round === round && s.status !== "waiting");
  }, `crash round ${round} to run`, 30_000);

describe("a database that went back never replays what players saw", () => {
  test("a restored backup: no crash chain position, crash round number, race number or seed, or wheel/slots nonce shown before is played again", async () => {
    const env = { ...CRASH_TEST_ENV, RACING_COUNTDOWN_MS: "30000", RACING_BET_CLOSE_MS: "2000" };
    const out = mkdtempSync(join(tmpdir(), "vvx-replay-"));
    const backup = join(out, "before.db");
    const first = await startTestServer(env);
    const dir = first.dataDir;
    let second: TestServer | undefined;
    try {
      await first.ctx.ledger.waitConnected(15_000);
      const wallet = await buyer(first, 0);
      const shownPairs = new Set([await wheelSpin(await sessionBrowser(first, wallet.classicAddress))]);

      // The backup is taken while a crash round and a race count down.
      const { round: crashRound } = await waitingRound(first);
      const race = (await raceState(first)).raceState;
      expect(race.status).toBe("waiting");
      expect((await runVvx(["backup", backup], { DATA_DIR: dir })).code).toBe(0);

      // What players see after it: the crash round runs, the race starts (its seed revealed), another wheel spin.
      await startFlight(first);
      await crashRuns(first, crashRound);
      const shownCrash = new Set(Array.from({ length: crashRound }, (_, i) => first.ctx.crash.chains.seedFor(i + 1).hash));
      const raced = await raceReaches(first, race.roundNumber, "racing");
      expect(raced.serverSeed).toBeString();
      await advanceClock(first, DAY_MS);
      shownPairs.add(await wheelSpin(await sessionBrowser(first, wallet.classicAddress)));
      const oldChain = first.ctx.crash.chains.published.terminatingHash;
      await first.stop();

      const restored = await runVvx(["restore", backup], { DATA_DIR: dir });
      expect(restored.code).toBe(0);
      const log = memoryLogger();
      second = await startTestServer(env, dir, log);
      const warning = log.lines.find((l) => l.includes("WARN the data went back: every game moves past what was already shown"));
      expect(warning).toContain("a copy of a backup taken");
      expect(warning).toContain(`crash ${crashRound - 1} < ${crashRound}`);
      expect(warning).toContain(`racing ${race.roundNumber - 1} < ${race.roundNumber}`);
      expect(warning).toContain("wheel 1 < 2");

      // Crash: a new chain, published before its first round; the next round comes after the one shown.
      await second.ctx.crash.chains.ready();
      expect(second.ctx.crash.chains.published.terminatingHash).not.toBe(oldChain);
      const { store, crash } = second.ctx;
      const next = await store.db.transaction((tx) => crash.rounds.placeRound(tx));
      expect(next).toBeGreaterThan(crashRound);
      expect(second.ctx.crash.chains.published.firstRound).toBe(next);
      for (let r = next; (await r) < next + 50; r++) expect(shownCrash.has(second.ctx.crash.chains.seedFor(await r).hash)).toBe(false);
      const cut = await (await fetch(`${second.url}/api/crash/rounds?limit=5`)).json();
      // The round cut by the restore is voided; its hash is published like any voided round's (its chain is retired).
      expect(cut.rounds.find((r: { round: number }) => r.round === crashRound)).toMatchObject({ voided: true, hash: first.ctx.crash.chains.seedFor(crashRound).hash });

      // Racing: the race whose seed was revealed is voided; the next race has a new number and seed.
      const now = await eventually(async () => {
        const s = (await raceState(second!)).raceState;
        return s.roundNumber > race.roundNumber ? s : undefined;
      }, "the next race");
      expect(now.roundNumber).toBe(race.roundNumber + 1);
      expect(now.serverSeedHash).not.toBe(race.serverSeedHash);
      expect((await second.ctx.racing.repo.race(race.roundNumber))?.status).toBe("voided");

      // Wheel and slots: the seed pair was rotated (the old seed revealed); no (seed, nonce) is used twice.
      const [oldHash] = [...shownPairs][0]!.split("#");
      expect(await second.ctx.fair.revealed(oldHash!)).toMatchObject({ walletAddress: wallet.classicAddress, noncesUsed: 1 });
      await advanceClock(second, DAY_MS);
      const after = await wheelSpin(await sessionBrowser(second, wallet.classicAddress));
      expect(shownPairs.has(after)).toBe(false);
      expect(after.split("#")[0]).not.toBe(oldHash);
    } finally {
      await first.stop();
      await second?.stop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  test("a database file copied back by hand (no stamp) is caught by the marks beside it; a plain restart is not mistaken for one", async () => {
    const env = { CRASH_WAIT_MS: "100", CRASH_PAUSE_MS: "0", LOG_LEVEL: "warn" };
    const dir = mkdtempSync(join(tmpdir(), "vvx-replay-"));
    const saved = join(dir, "saved");
    /** The status of a crash round in the server's database (read beside it, as an operator's sqlite3 would). */
    const roundStatus = (round: number) => {
      const db = new Database(join(dir, "vvx.db"), { readonly: true });
      try {
        return db.query<{ status: string }, [number]>("SELECT status FROM game_rounds WHERE game = 'crash' AND round = ?").get(round)?.status;
      } finally {
        db.close();
      }
    };
    const runs = (round: number) => eventually(() => ["running", "finished"].includes(roundStatus(round) ?? ""), `crash round ${round} to run`, 30_000);
    // A stopped server's database, by hand: the file and its WAL (SQLite rebuilds its shared-memory file).
    const copyDb = (from: string, to: string) => {
      for (const end of ["", "-wal"]) if (existsSync(`${from}${end}`)) copyFileSync(`${from}${end}`, `${to}${end}`);
      rmSync(`${to}-shm`, { force: true });
    };
    try {
      const first = await spawnServer(dir, env);
      expect(await first.healthy()).toBe(true);
      await runs(1);
      expect(await first.stop()).toBe(0);
      copyDb(join(dir, "vvx.db"), saved);

      const again = await spawnServer(dir, env);
      expect(await again.healthy()).toBe(true);
      await runs(2);
      expect(await again.stop()).toBe(0);
      expect(again.output).not.toContain("the data went back");

      copyDb(saved, join(dir, "vvx.db"));
      const third = await spawnServer(dir, env);
      expect(await third.healthy()).toBe(true);
      await eventually(() => third.output.includes("the data went back"), "the warning", 10_000);
      expect(third.output).toContain("crash 1 < 2");
      await eventually(() => roundStatus(3), "the next round");
      expect(await third.stop()).toBe(0);
      const db = new Database(join(dir, "vvx.db"), { readonly: true });
      const chains = db.query<{ seed_hash: string; first_round: number }, []>("SELECT seed_hash, first_round FROM crash_chains ORDER BY id").all();
      db.close();
      // The chain rounds 1 and 2 were played on is erased; the new one starts after round 2.
      expect(chains.map((c) => [c.seed_hash.slice(0, 7), c.first_round])).toEqual([["retired", 1], ["sealed:", 3]]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
