import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crashHundredthsFromHash, isGameHashOfChain } from "../../../engine";
import { systemClock } from "../../platform/clock";
import { openStore, type Store } from "../../platform/db";
import { memoryLogger } from "../../platform/log";
import { Scheduler } from "../../platform/scheduler";
import { sealerOf } from "../../platform/secrets";
import { eventually } from "../../testing/ledgerKit";
import { CrashChains } from "./chain";
import type { ChainCommitter } from "./commitment";
import { crashChains } from "./schema";

const log = memoryLogger();

const sealer = sealerOf("a test key of at least thirty-two characters");
/**
 * The ledger's part of a commitment stood in for (commitment.test.ts runs the real one on the sandbox
 * ledger): chains it recorded are committed, and each is salted once `salt(id)` is called.
 */
function committer(): ChainCommitter & { recorded: number[]; salt(id: number): void } {
  const recorded: number[] = [];
  const salted = new Map<number, PromiseWithResolvers<string>>();
  const of = (id: number) => salted.get(id) ?? salted.set(id, Promise.withResolvers<string>()).get(id)!;
  return {
    recorded,
    record: (_tx, chain) => void recorded.push(chain.id),
    has: (id) => recorded.includes(id),
    // The poll for `cancelled` ends with the salt too: a worker that keeps its modules runs the next files after this one.
    saltOf: (id, cancelled) => {
      let t: ReturnType<typeof setInterval> | undefined;
      const stop = new Promise<undefined>((r) => (t = setInterval(() => cancelled() && r(undefined), 5)));
      return Promise.race([of(id).promise, stop]).finally(() => clearInterval(t));
    },
    salt: (id) => of(id).resolve(`LEDGER-HASH-OF-CHAIN-${id}`),
  };
}

/** A committer that salts every chain as soon as it is recorded. */
function salting(): ChainCommitter {
  const c = committer();
  return { ...c, record: (tx, chain) => (c.record(tx, chain), c.salt(chain.id)) };
}
const dirs: string[] = [];
const stores: Store[] = [];
function store(dir = mkdtempSync(join(tmpdir(), "vvx-chain-"))): Store {
  dirs.push(dir);
  const s = openStore(dir);
  stores.push(s);
  return s;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("crash chains", () => {
  test("every game's hash chains to the published terminating hash and its crash point is the pure-JS engine's", async () => {
    const { db } = store();
    const commit = committer();
    const chains = new CrashChains(db, systemClock, log, sealer, commit, 2_345, new Scheduler()); // checkpoints every 1,000 steps: games on both sides of them
    const loading = chains.load(7);
    // No game is played before the chain is committed and salted: its row is public, its salt not yet.
    await chains.recorded();
    expect(await chains.all()).toEqual([expect.objectContaining({ firstRound: 7, length: 2_345, salt: null })]);
    expect(() => chains.seedFor(7)).toThrow("crash chain not loaded");
    commit.salt(commit.recorded[0]!);
    const row = (await loading)!;
    expect(row).toMatchObject({ firstRound: 7, length: 2_345, salt: `LEDGER-HASH-OF-CHAIN-${row.id}` });
    expect(chains.published).toEqual({ id: row.id, terminatingHash: row.terminatingHash, salt: row.salt!, firstRound: 7, length: 2_345 });
    for (const game of [1, 2, 345, 346, 1_344, 1_345, 1_346, 2_344, 2_345]) {
      const seed = chains.seedFor(6 + game);
      expect(seed.gameNumber).toBe(game);
      expect(isGameHashOfChain(seed.hash, game, row.terminatingHash)).toBe(true);
      expect(seed.crashHundredths).toBe(crashHundredthsFromHash(seed.hash, row.salt!));
    }
    // A used-up chain is followed by a new one, committed and salted before its first round.
    expect(chains.readyFor(7 + 2_344)).toBe(true);
    expect(chains.readyFor(7 + 2_345)).toBe(false);
    expect(() => chains.seedFor(7 + 2_345)).toThrow("not in the crash chain in use");
    await eventually(() => commit.recorded.length === 2, "the next chain recorded");
    expect(chains.readyFor(7 + 2_345)).toBe(false);
    commit.salt(commit.recorded[1]!);
    await eventually(() => chains.readyFor(7 + 2_345), "the next chain salted and in use");
    const next = chains.seedFor(7 + 2_345);
    expect(next.gameNumber).toBe(1);
    expect(await chains.all()).toHaveLength(2);
    expect(chains.published.firstRound).toBe(7 + 2_345);
    expect(isGameHashOfChain(next.hash, 1, chains.published.terminatingHash)).toBe(true);
  });

  test("a restart loads the same chain (the same games); a cancelled first load publishes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-chain-"));
    const commit = salting();
    const first = new CrashChains(store(dir).db, systemClock, log, sealer, commit, 50_000, new Scheduler());
    expect(await first.load(1, () => true)).toBeUndefined();
    expect(await first.all()).toHaveLength(0);
    const row = (await first.load(1))!;
    const again = new CrashChains(store(dir).db, systemClock, log, sealer, commit, 50_000, new Scheduler());
    expect(() => again.seedFor(40)).toThrow("crash chain not loaded");
    await expect(again.ready()).rejects.toThrow("crash chain not loaded");
    expect((await again.load(99))!.id).toBe(row.id);
    expect(again.seedFor(40)).toEqual(first.seedFor(40));
  });

  /**
   * A first chain's load while another connection holds the write lock: resolves once its refused write's retry is
   * armed on the game's scheduler (every 250 ms of it), which the test moves. `release` ends the lock.
   */
  async function refusedLoad() {
    const dir = mkdtempSync(join(tmpdir(), "vvx-chain-"));
    const scheduler = new Scheduler();
    const chains = new CrashChains(store(dir).db, systemClock, log, sealer, salting(), 3_000, scheduler);
    const lock = new Database(join(dir, "vvx.db"));
    lock.exec("PRAGMA busy_timeout = 0");
    lock.exec("BEGIN IMMEDIATE");
    let loaded = false;
    const loading = chains.load(1).then((row) => ((loaded = true), row));
    const refusals = () => log.lines.filter((l) => l.includes("crash chain paused") && l.includes("database not writable")).length;
    const before = refusals();
    await eventually(() => refusals() === before + 1 && scheduler.pending === 1, "the refused write's retry armed on the scheduler");
    const release = () => (lock.exec("ROLLBACK"), lock.close());
    return { chains, scheduler, loading, loaded: () => loaded, retries: () => refusals() - before, release };
  }

  test("a first chain made while the database takes no writes (a lock held elsewhere) is published once it does", async () => {
    const { chains, scheduler, loading, loaded, retries, release } = await refusedLoad();
    scheduler.advance(250);
    await eventually(() => retries() === 2 && scheduler.pending === 1, "the retry refused too, and the next one armed");
    expect(loaded()).toBe(false);
    release();
    scheduler.advance(250);
    expect((await loading)!.firstRound).toBe(1);
    expect(await chains.all()).toHaveLength(1);
  });

  test("a stop while a refused write waits ends it: its retry is disarmed and nothing is tried or written after", async () => {
    const { chains, scheduler, loading, retries, release } = await refusedLoad();
    chains.stop();
    expect(scheduler.pending).toBe(0);
    expect(await loading).toBeUndefined();
    // The database takes writes again and time passes: no retry comes.
    release();
    scheduler.advance(1_000);
    await Bun.sleep(0);
    expect(retries()).toBe(1);
    expect(await chains.all()).toHaveLength(0);
  });

  test("a seed that no longer walks to its published terminating hash is refused", async () => {
    const { db } = store();
    const commit = salting();
    await new CrashChains(db, systemClock, log, sealer, commit, 3_000, new Scheduler()).load(1);
    await db.transaction(async (tx) => void (await tx.update(crashChains).set({ seedHash: sealer.seal("00".repeat(32)) })));
    const chains = new CrashChains(db, systemClock, log, sealer, commit, 3_000, new Scheduler());
    await expect(chains.load(1)).rejects.toThrow("does not end in its published terminating hash");
    await expect(chains.ready()).rejects.toThrow("does not end in its published terminating hash");
  });

  test("a chain made before on-ledger commitments is followed by a committed one at the next start", async () => {
    const { db } = store();
    await db.transaction(async (tx) => void (await tx.insert(crashChains).values({ seedHash: "11".repeat(32), length: 3_000, terminatingHash: "22".repeat(32), salt: "server-chosen", firstRound: 1, createdAt: new Date() })));
    const commit = committer();
    const chains = new CrashChains(db, systemClock, log, sealer, commit, 3_000, new Scheduler());
    const loading = chains.load(41);
    await eventually(() => commit.recorded.length === 1, "the committed chain recorded");
    commit.salt(commit.recorded[0]!);
    const row = (await loading)!;
    expect(row).toMatchObject({ firstRound: 41, salt: `LEDGER-HASH-OF-CHAIN-${row.id}` });
    expect((await chains.all()).map((c) => c.salt)).toEqual(["server-chosen", row.salt]);
  });
});
