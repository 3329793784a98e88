import type { DbOrTx } from "../../ledger/outbox";

/**
 * How a wheel prize becomes slot spins, given by the composition root (games never import each
 * other): credits `spins` spins at 1,000 VVX to the wallet inside the caller's transaction.
 */
export type SpinCredit = (db: DbOrTx, wallet: string, spins: number) => Promise<{ sessionId: string; addedTo: "existing" | "new_bonus" }>;

/** Error codes of the daily wheel. */
export const DAILY_SPIN_ERRORS = { alreadySpun: "ALREADY_SPUN_TODAY", holdersOnly: "WHEEL_HOLDERS_ONLY" } as const;

/** Days of play that keep a wallet eligible under DAILY_SPIN_ELIGIBILITY=holders. */
export const HOLDERS_PLAYED_DAYS = 30;

/** Shown to a wallet the holders rule leaves out. */
export const HOLDERS_ONLY = `The daily wheel is for VVX NFT holders and players: hold a VVX NFT, or place a bet or buy slots spins (in the last ${HOLDERS_PLAYED_DAYS} days), to spin it.`;

/** Shown when the wallet has spun today. */
export const COME_BACK_TOMORROW = "You have already spun the wheel today. Come back tomorrow!";
