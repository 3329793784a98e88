import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { eventually } from "../../testing/ledgerKit";
import { holdDatabase } from "../../testing/holdDatabase";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { CRASH_TEST_ENV, waitingRound } from "../../testing/crashKit";
import { memoryLogger } from "../../platform/log";
import { RETRY_BASE_MS } from "../../platform/retry";
import { sqliteOf } from "../../platform/db";

// The crash loop's start (what a new leader runs) while the database refuses it for a moment: another process
// holds the SQLite file, so the start's first write (voiding what the last run left) fails. It must come back.
const log = memoryLogger();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ ...CRASH_TEST_ENV, DB_BUSY_TIMEOUT_MS: "50" }, undefined, log);
});
afterAll(() => server?.stop(true));

/** The warnings of failed starts in the server's log so far. */
function failedStarts(): string[] {
  return log.lines.filter((l) => l.includes("crash rounds start paused"));
}

describe("crash rounds' start", () => {
  test("a start the database refuses is tried again after RETRY_BASE_MS (the scheduler's time): the interrupted round is voided and the next one opens; a stopped loop tries no more", async () => {
    const { crash, scheduler } = server.ctx;
    const { round } = await waitingRound(server);
    crash.stop();

    // Stopped while its retry waits: moving time past it opens nothing.
    let lock = await holdDatabase(join(server.dataDir, "vvx.db"));
    await crash.start();
    await eventually(() => failedStarts().length === 1, "the failed start's warning");
    await lock.release();
    expect(failedStarts()[0]).toContain(`retryInMs=${RETRY_BASE_MS}`);
    const armed = scheduler.pending;
    crash.stop();
    expect(scheduler.pending).toBe(armed - 1);
    scheduler.advance(RETRY_BASE_MS * 4);
    expect(failedStarts()).toHaveLength(1);
    expect((await crash.bets.repo.round(round))!.status).toBe("open");

    // Refused again, then the database frees: the retry voids the cut round and opens the next.
    lock = await holdDatabase(join(server.dataDir, "vvx.db"));
    await crash.start();
    await eventually(() => failedStarts().length === 2, "the second failed start's warning");
    await lock.release();
    expect(await crash.bets.repo.lastRoundNumber()).toBe(round);
    scheduler.advance(RETRY_BASE_MS);
    await eventually(async () => (await crash.bets.repo.round(round))!.status === "voided", "the cut round voided by the retry");
    await eventually(() => crash.rounds.state().round === round + 1 && crash.rounds.state().status === "waiting", "the next round counting down");
    expect((await crash.bets.repo.round(round + 1))!.status).toBe("open");
    await eventually(() => log.lines.some((l) => l.includes("crash rounds start resumed")), "the recovery logged");
  }, 60_000);

  test("a chain that fails its check (its seed no longer walks to its published hash) is said once, and the start is not tried again", async () => {
    const { crash, scheduler, store } = server.ctx;
    await waitingRound(server);
    crash.stop();
    sqliteOf(store.db)!.run("UPDATE crash_chains SET terminating_hash = ? WHERE id = (SELECT max(id) FROM crash_chains)", ["00".repeat(32)]);
    const givenUp = () => log.lines.filter((l) => l.includes("crash rounds not started: trying again cannot mend it"));
    const paused = failedStarts().length;
    await crash.start();
    await eventually(() => givenUp().length === 1, "the broken chain said");
    expect(givenUp()[0]).toContain("does not end in its published terminating hash");
    const round = await crash.bets.repo.lastRoundNumber();
    scheduler.advance(RETRY_BASE_MS * 64);
    await Bun.sleep(0);
    expect(givenUp()).toHaveLength(1);
    expect(failedStarts()).toHaveLength(paused);
    expect(await crash.bets.repo.lastRoundNumber()).toBe(round);
    crash.stop();
  }, 60_000);
});
