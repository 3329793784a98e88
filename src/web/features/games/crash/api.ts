import type { SignStatusResponse } from "../../../../shared/api/auth";
import type { CrashBetCancelResponse, CrashBetInitiateResponse, CrashBetsResponse, CrashBetView, CrashBurnsResponse, CrashHistoryRound, CrashPlayer, CrashRoundView, CrashStatus } from "../../../../shared/api/crash";
import type { BalanceResponse } from "../../../../shared/api/system";
import { getJson, sendJson } from "../../../lib/api";

export type { CrashBetView, CrashHistoryRound, CrashPlayer, CrashRoundView, CrashStatus };
export type BetPayment = CrashBetInitiateResponse;
export type CrashBets = typeof CrashBetsResponse.static;
export type Balance = typeof BalanceResponse.static;

/** The spec's limits and defaults (§5, §9). */
export const CRASH_RULES = {
  minBet: 1,
  maxBet: 100,
  defaultBet: 5,
  minAutoCashOut: 1.1,
  autoStep: 0.1,
  defaultAutoCashOut: 2,
  recentPills: 7,
  bannerMs: 8_000,
  betTimeoutMs: 30_000,
  statusPollMs: 2_000,
};

/** localStorage key of the auto cash-out (spec: saved locally). */
export const AUTO_CASH_OUT_KEY = "crashAutoCashOut";

export const initiateBet = (betAmount: number, autoCashOut: number | null) =>
  sendJson<BetPayment>("POST", "/api/crash-bet/initiate", { betAmount, autoCashOut });

export const cancelBet = (betId: string) => sendJson<typeof CrashBetCancelResponse.static>("POST", "/api/crash-bet/cancel", { betId });

/** GET /api/xumm/status/{uuid}?betId=: whether the wallet signed, and whether the bet counts. */
export const betStatus = (uuid: string, betId: string) =>
  getJson<SignStatusResponse>(`/api/xumm/status/${uuid}?betId=${encodeURIComponent(betId)}`);

/** The wallet's bets that were paid (payment requests closed unpaid are no bets). */
export const betsUrl = (wallet: string) => `/api/crash/bets?wallet=${wallet}&limit=20&paid=1`;
export const balanceUrl = (wallet: string) => `/api/wallet/balance?address=${wallet}`;
export const BURNS_URL = "/api/crash/burns";
export type Burns = CrashBurnsResponse;

/** The spec's pill colours: green at 2.00x or more, blue at exactly 1.00x, amber otherwise. */
export function pillClass(crash: number | null): string {
  if (crash === null) return "pill-void";
  if (crash >= 2) return "pill-green";
  if (crash === 1) return "pill-blue";
  return "pill-amber";
}

/** The previous-crashes list's colours: under 1.2 red, under 2 amber, 10 or more purple (else green). */
export function crashClass(crash: number | null): string {
  if (crash === null) return "crash-void";
  if (crash < 1.2) return "crash-red";
  if (crash < 2) return "crash-amber";
  if (crash >= 10) return "crash-purple";
  return "crash-green";
}

/** r1234...abcd */
export const shortWallet = (w: string) => (w.length > 12 ? `${w.slice(0, 6)}…${w.slice(-4)}` : w);

/** The /fair link that re-computes a round from its published hash and the chain's salt. */
export function fairLink(round: Pick<CrashRoundView, "hash" | "round">, salt: string | undefined, terminating: string | undefined): string | null {
  if (!round.hash || !salt) return null;
  const q = new URLSearchParams({ game: "crash", hash: round.hash, salt, count: "1", round: String(round.round), ...(terminating ? { terminating } : {}) });
  return `/fair?${q}#crash-verify`;
}
