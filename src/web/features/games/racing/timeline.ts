import { UNICORNS, raceFromSeeds, verifyServerSeed, type RaceOutcome } from "../../../../engine";
import type { RaceRecord, RaceStateView } from "../../../../shared/api/racing";

/** A race as the page draws it: the engine's timeline from the revealed seeds, computed in the browser. */
export interface LocalRace {
  round: number;
  outcome: RaceOutcome;
  /** Server-clock ms the race started. */
  startTime: number;
  /** The revealed seed hashes to the commitment shown at countdown start. */
  commitmentOk: boolean;
}

let cached: { key: string; race: RaceOutcome } | undefined;

/** The race of a state whose seeds are revealed (memoised: one timeline per race). */
export function localRace(state: RaceStateView | null): LocalRace | null {
  if (!state || !state.serverSeed || !state.clientSeed || state.startTime === null) return null;
  const key = `${state.serverSeed}:${state.clientSeed}:${state.nonce}`;
  if (cached?.key !== key) cached = { key, race: raceFromSeeds({ serverSeed: state.serverSeed, clientSeed: state.clientSeed, nonce: state.nonce }) };
  return { round: state.roundNumber, outcome: cached.race, startTime: state.startTime, commitmentOk: verifyServerSeed(state.serverSeed, state.serverSeedHash) };
}

/** Positions (percent) at a fractional tick, linear between the engine's ticks, so the lanes move smoothly. */
export function positionsAt(race: RaceOutcome, tick: number): number[] {
  if (tick <= 0) return race.positions[0]!;
  if (tick >= race.durationTicks) return race.positions[race.durationTicks]!;
  const lo = Math.floor(tick);
  const a = race.positions[lo]!;
  const b = race.positions[lo + 1]!;
  const f = tick - lo;
  return a.map((p, i) => p + (b[i]! - p) * f);
}

/** Each unicorn's finishing place (1 = winner) once it crossed the line by `tick`, else null. */
export function placesAt(race: RaceOutcome, tick: number): (number | null)[] {
  return race.finishTicks.map((finish, u) => (tick >= finish ? race.order.indexOf(u) + 1 : null));
}

/** What the lanes show at server time `now`: positions, whether they move, the winner once over. */
export interface LaneFrame {
  positions: number[];
  running: boolean;
  /** Index of the winner once the race is over (the banner), else null. */
  winner: number | null;
  /** Each unicorn's place once it crossed the line (when the seeds are known). */
  places?: (number | null)[];
}

/** The frame of a race `tick` ticks after its start (the engine's timeline, smoothed between ticks). */
export function frameAtTick(race: RaceOutcome, tick: number): LaneFrame {
  const over = tick >= race.durationTicks;
  return { positions: positionsAt(race, tick), running: !over && tick > 0, winner: over ? race.winnerIndex : null, places: placesAt(race, tick) };
}

const START: LaneFrame = { positions: UNICORNS.map(() => 0), running: false, winner: null };

/** The lanes' frame for a state at server time `now` (the engine's timeline when the seeds are known). */
export function laneFrame(state: RaceStateView | null, race: LocalRace | null, now: number): LaneFrame {
  if (!state) return START;
  if (race && race.round === state.roundNumber) {
    // The server's word that the race is over wins over this browser's clock.
    const tick = state.status === "finished" ? race.outcome.durationTicks : ((now - race.startTime) * race.outcome.tickRate) / 1000;
    return frameAtTick(race.outcome, tick);
  }
  // No seeds (a client that cannot run the engine, or a finished race seen late): the server's positions.
  const winner = state.unicorns.findIndex((u) => u.isWinner);
  return { positions: state.unicorns.map((u) => u.position), running: state.status === "racing", winner: winner >= 0 ? winner : null };
}

/** The /fair link that re-computes a finished race from its revealed seeds and checks the commitment. */
export function fairLink(r: Pick<RaceRecord, "serverSeed" | "clientSeed" | "nonce" | "serverSeedHash">): string {
  const q = new URLSearchParams({ game: "race", serverSeed: r.serverSeed, clientSeed: r.clientSeed, nonce: String(r.nonce), hash: r.serverSeedHash });
  return `/fair?${q}`;
}

/** m:ss of a duration in ms (never negative). */
export function mmss(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The spec's short wallet: first 6 and last 4 characters. */
export const shortWallet = (w: string) => (w.length > 10 ? `${w.slice(0, 6)}...${w.slice(-4)}` : w);
