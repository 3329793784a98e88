import { ValidationError } from "../../platform/errors";
import { DROPS_PER_XRP, readXrp } from "../../../engine/money";

/** The crash game's name (kit purpose crash-bet, topics game:crash and player:crash:<wallet>). */
export const CRASH_GAME = "crash";
/** Server ticks while a round runs: 10 a second. */
export const CRASH_TICK_MS = 100;
/** While counting down, new players are pushed (in one gameState) at most this often. */
export const PLAYERS_PUSH_MS = 200;
/** Lowest auto cash-out (spec §5): 1.1x, in hundredths. */
export const MIN_AUTO_CASH_OUT = 110;
/** Highest auto cash-out the server accepts (a 1,000,000x target is never reached anyway). */
export const MAX_AUTO_CASH_OUT = 100_000_000;
/** Finished rounds sent in gameHistory. */
export const HISTORY_ROUNDS = 20;

/** A crash bet's own choice: its auto cash-out target in hundredths (null: manual only). */
export interface CrashParams {
  autoCashOut: number | null;
}

/** What crash keeps about a round in the kit's round row. */
export interface CrashRoundDetail {
  hash: string;
  crashHundredths: number;
  chainId: number;
  gameNumber: number;
  /** The cap on the round's combined profit, in drops (set when it starts running). */
  maxProfitDrops?: string;
}

/** Hundredths as the multiplier number (238 -> 2.38). */
export const multiplierOf = (hundredths: number | null | undefined) => (hundredths == null ? null : hundredths / 100);

/** A bet amount in XRP (number or decimal text, up to 6 decimals) as drops; 400 naming `betAmount` with the spec's texts. */
export function parseBetAmount(value: unknown): bigint {
  const xrp = readXrp(value);
  if (!xrp) throw new ValidationError("betAmount", "Field 'betAmount' must be an amount of XRP between 1 and 100");
  const { drops } = xrp;
  if (xrp.negative) throw new ValidationError("betAmount", "Minimum bet amount is 1 XRP.");
  if (drops >= 1000n * DROPS_PER_XRP) throw new ValidationError("betAmount", "Maximum bet amount is 100 XRP.");
  if (xrp.decimals > 6) throw new ValidationError("betAmount", "Field 'betAmount' must be an amount of XRP between 1 and 100");
  if (drops < DROPS_PER_XRP) throw new ValidationError("betAmount", "Minimum bet amount is 1 XRP.");
  if (drops > 100n * DROPS_PER_XRP) throw new ValidationError("betAmount", "Maximum bet amount is 100 XRP.");
  return drops;
}

/** An auto cash-out (absent/null: none) as hundredths, at least 1.1; 400 naming `autoCashOut`. */
export function parseAutoCashOut(value: unknown): number | null {
  if (value === undefined || value === null || value === "") return null;
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isFinite(n)) throw new ValidationError("autoCashOut", "Field 'autoCashOut' must be a multiplier of at least 1.1");
  const hundredths = Math.round(n * 100);
  if (hundredths < MIN_AUTO_CASH_OUT) throw new ValidationError("autoCashOut", "Field 'autoCashOut' must be at least 1.1");
  if (hundredths > MAX_AUTO_CASH_OUT) throw new ValidationError("autoCashOut", "Field 'autoCashOut' must be at most 1000000");
  return hundredths;
}
