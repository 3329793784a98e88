import { afterAll, beforeAll, expect, test } from "bun:test";
import { advanceClock, raceReaches, raceState, raceTakingBets } from "../../testing/racingKit";
import { startTestServer, type TestServer } from "../../testing/testServer";

// An idle server's round loop wakes at its race's steps, not 4 times a second: the two things that run it
// between steps are its ledger closes (stopped here) and a slow safety beat.
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RACING_COUNTDOWN_MS: "30000", RACING_BET_CLOSE_MS: "4000" });
});
afterAll(() => server?.stop());

test("a countdown with nothing due runs no pass of the loop; its betting still closes when its time comes", async () => {
  const round = await raceTakingBets(server, 15_000);
  server.ctx.sandbox!.ledger!.stopAutoClose();
  const rounds = server.ctx.racing.rounds;
  let passes = 0;
  const tick = rounds.tick.bind(rounds);
  rounds.tick = () => {
    passes++;
    tick();
  };
  // 10 s of the games' scheduler (the loop's timers) within the countdown: at most its 5 s safety beat, twice.
  server.ctx.scheduler.advance(10_000);
  expect(passes).toBeLessThanOrEqual(2);
  expect((await raceState(server)).raceState.bettingOpen).toBe(true);
  // The sandbox clock moves the scheduler with it: the wake armed for the close time takes the step.
  const { raceState: s } = await raceState(server);
  await advanceClock(server, s.betsCloseTime - s.serverTime + 5);
  await raceReaches(server, round, "closed", 5_000);
  expect(passes).toBeGreaterThan(0);
});
