import { afterEach, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crashHundredthsFromHash, isGameHashOfChain } from "../../../engine";
import { systemClock } from "../../platform/clock";
import { openStore, type Store } from "../../platform/db";
import { memoryLogger } from "../../platform/log";
import { sealerOf } from "../../platform/secrets";
import { CrashChains } from "./chain";
import { crashChains } from "./schema";

const log = memoryLogger();
const sealer = sealerOf("a test key of at least thirty-two characters");
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
    const chains = new CrashChains(db, systemClock, log, sealer, 2_345); // checkpoints every 1,000 steps: games on both sides of them
    const row = (await chains.load(7))!;
    expect(row).toMatchObject({ firstRound: 7, length: 2_345 });
    expect(chains.published).toEqual({ terminatingHash: row.terminatingHash, salt: row.salt, firstRound: 7, length: 2_345 });
    for (const game of [1, 2, 345, 346, 1_344, 1_345, 1_346, 2_344, 2_345]) {
      const seed = chains.seedFor(6 + game);
      expect(seed.gameNumber).toBe(game);
      expect(isGameHashOfChain(seed.hash, game, row.terminatingHash)).toBe(true);
      expect(seed.crashHundredths).toBe(crashHundredthsFromHash(seed.hash, row.salt));
    }
    // A used-up chain is followed by a new one, published before its first round.
    const next = chains.seedFor(7 + 2_345);
    expect(next.gameNumber).toBe(1);
    expect(chains.all()).toHaveLength(2);
    expect(chains.published.firstRound).toBe(7 + 2_345);
    expect(isGameHashOfChain(next.hash, 1, chains.published.terminatingHash)).toBe(true);
  });

  test("a restart loads the same chain (the same games); a cancelled first load publishes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-chain-"));
    const first = new CrashChains(store(dir).db, systemClock, log, sealer, 50_000);
    expect(await first.load(1, () => true)).toBeUndefined();
    expect(first.all()).toHaveLength(0);
    const row = (await first.load(1))!;
    const again = new CrashChains(store(dir).db, systemClock, log, sealer, 50_000);
    expect(() => again.seedFor(40)).toThrow("crash chain not loaded");
    await expect(again.ready()).rejects.toThrow("crash chain not loaded");
    expect((await again.load(99))!.id).toBe(row.id);
    expect(again.seedFor(40)).toEqual(first.seedFor(40));
  });

  test("a first chain made while the database takes no writes (a lock held elsewhere) is published once it does", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-chain-"));
    const chains = new CrashChains(store(dir).db, systemClock, log, sealer, 3_000);
    const lock = new Database(join(dir, "vvx.db"));
    lock.exec("PRAGMA busy_timeout = 0");
    lock.exec("BEGIN IMMEDIATE");
    let loaded = false;
    const loading = chains.load(1).then((row) => ((loaded = true), row));
    await Bun.sleep(700);
    expect(loaded).toBe(false);
    lock.exec("ROLLBACK");
    lock.close();
    expect((await loading)!.firstRound).toBe(1);
    expect(chains.all()).toHaveLength(1);
  });

  test("a seed that no longer walks to its published terminating hash is refused", async () => {
    const { db } = store();
    await new CrashChains(db, systemClock, log, sealer, 3_000).load(1);
    db.update(crashChains).set({ seedHash: sealer.seal("00".repeat(32)) }).run();
    const chains = new CrashChains(db, systemClock, log, sealer, 3_000);
    await expect(chains.load(1)).rejects.toThrow("does not end in its published terminating hash");
    await expect(chains.ready()).rejects.toThrow("does not end in its published terminating hash");
  });
});
