import { UNICORNS, unicornIndex } from "../../../engine";
import { ValidationError } from "../../platform/errors";

/** The winner banner's time before the next countdown starts (spec: banner for 8 s). */
export const RACING_FINISHED_MS = 8_000;
/** Most races GET /api/racing/races returns at once; the default is 20. */
export const RACES_MAX_LIMIT = 200;
/** Races in the raceHistory message a socket gets when it connects. */
export const HISTORY_ON_CONNECT = 20;
/** gameState pushes per second while a race runs (positions for clients that do not run the engine). */
export const RACING_PUSH_MS = 500;
/**
 * Beat of the round loop, a safety net: each step is woken at its due time (a timer on the games'
 * scheduler) and the loop also runs at each ledger close; a beat 4 times a second woke an idle server.
 */
export const RACING_TICK_MS = 5_000;

/**
 * Race status in the database: the spec's three plus closed (bets closed, not started yet) and voided
 * (never run: its seed may have been shown before the data went back; its bets refunded).
 */
export type RaceStatus = "waiting" | "closed" | "racing" | "finished" | "voided";

/** The unicorn a name stands for; 400 naming unicornName for anything else. */
export function parseUnicorn(value: unknown): number {
  const index = typeof value === "string" ? unicornIndex(value) : -1;
  if (index < 0) throw new ValidationError("unicornName", `Field 'unicornName' must be one of ${UNICORNS.map((u) => u.name).join(", ")}`);
  return index;
}
