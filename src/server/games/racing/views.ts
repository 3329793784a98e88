import { UNICORNS, positionsAtTick, dropsToXrpNumber, type RaceOutcome } from "../../../engine";
import type { PlayerView, RaceRecord, RaceStateView } from "../../../shared/api/racing";
import { RACING_FINISHED_MS } from "./model";
import type { RaceRow } from "./repository";

/** The spec's raceState at `now` (server clock), with the seeds as far as they are public. */
export function raceStateView(race: RaceRow, outcome: RaceOutcome | undefined, now: number): RaceStateView {
  // A voided race shows as over, without a winner, until the next countdown (its next tick).
  const status = race.status === "closed" ? "waiting" : race.status === "voided" ? "finished" : (race.status as RaceStateView["status"]);
  const startedAt = race.startedAt?.getTime() ?? null;
  const finished = race.status === "finished";
  let positions = UNICORNS.map(() => 0);
  let speeds = UNICORNS.map(() => 0);
  if (outcome && startedAt !== null) {
    const tick = finished ? outcome.durationTicks : ((now - startedAt) * outcome.tickRate) / 1000;
    positions = positionsAtTick(outcome, tick);
    const before = positionsAtTick(outcome, tick - 1);
    speeds = positions.map((p, i) => (finished ? 0 : (p - before[i]!) * outcome.tickRate));
  }
  const nextRaceTime =
    race.status === "waiting" || race.status === "closed"
      ? race.startsAt.getTime()
      : finished
        ? race.finishedAt!.getTime() + RACING_FINISHED_MS
        : race.status === "voided"
          ? race.finishedAt!.getTime()
          : race.endsAt!.getTime() + RACING_FINISHED_MS;
  const winner = finished && race.winnerIndex !== null ? UNICORNS[race.winnerIndex]!.name : null;
  return {
    status,
    roundNumber: race.round,
    startTime: startedAt,
    endTime: race.endsAt?.getTime() ?? null,
    nextRaceTime,
    betsCloseTime: race.betsCloseAt.getTime(),
    betsCloseBeforeMs: race.startsAt.getTime() - race.betsCloseAt.getTime(),
    bettingOpen: race.status === "waiting" && now < race.betsCloseAt.getTime(),
    countdownSeconds: status === "waiting" ? Math.max(0, Math.ceil((race.startsAt.getTime() - now) / 1000)) : 0,
    unicorns: UNICORNS.map((u, i) => ({ name: u.name, position: round2(positions[i]!), speed: round2(speeds[i]!), isWinner: finished && race.winnerIndex === i })),
    winningUnicorn: winner,
    serverSeedHash: race.serverSeedHash,
    committedAt: race.countdownAt.getTime(),
    commitLedger: race.commitLedger,
    serverSeed: race.status === "racing" || finished ? race.serverSeed : null,
    clientSeed: race.clientSeed,
    clientSeedLedger: race.clientSeed ? race.seedLedger : null,
    nonce: race.round,
    payoutMultiple: race.multipleHundredths / 100,
    serverTime: now,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A confirmed bet in the Active Players table; a won bet with its payout. */
export function playerView(bet: { wallet: string; round: number; unicorn: number; amountDrops: bigint; wonDrops: bigint | null }): PlayerView {
  return { walletAddress: bet.wallet, round: bet.round, unicornName: UNICORNS[bet.unicorn]!.name, betAmount: dropsToXrpNumber(bet.amountDrops), payout: bet.wonDrops === null ? null : dropsToXrpNumber(bet.wonDrops) };
}

/** A finished race with its revealed seeds. */
export function raceRecord(race: RaceRow): RaceRecord {
  return {
    round: race.round,
    roundNumber: race.round,
    serverSeedHash: race.serverSeedHash,
    committedAt: race.countdownAt.toISOString(),
    commitLedger: race.commitLedger,
    serverSeed: race.serverSeed,
    clientSeed: race.clientSeed!,
    clientSeedLedger: race.seedLedger!,
    nonce: race.round,
    winningUnicorn: UNICORNS[race.winnerIndex!]!.name,
    winnerIndex: race.winnerIndex!,
    payoutMultiple: race.multipleHundredths / 100,
    startedAt: race.startedAt!.toISOString(),
    timestamp: race.finishedAt!.getTime(),
  };
}
