import type { SignStatusResponse } from "../../../shared/api/auth";
import type { CreateSwapResponse, CreateTrustlineResponse, QuoteShape, SwapView, TrustlineStatusResponse, XappPaymentResponse } from "../../../shared/api/swap";
import type { BalanceResponse } from "../../../shared/api/system";
import { errorMessage, getJson, HttpError, sendJson } from "../../lib/api";

/** The spec's timing: a swap or trustline request's status is polled every 2 s while its dialog is open. */
export const STATUS_POLL_MS = 2000;
/** Typing pauses this long before a quote is asked for. */
export const QUOTE_DEBOUNCE_MS = 300;
/** The live rate and the shown quote are asked for again this often (the server reads the pool once per ledger close). */
export const RATE_REFRESH_MS = 5_000;

// The server's schemas are the types (src/shared/api/swap.ts, auth.ts).
export type Quote = typeof QuoteShape.static;
export type Balance = typeof BalanceResponse.static;
export type TrustlineStatus = typeof TrustlineStatusResponse.static;
type AnyCreated = typeof CreateSwapResponse.static | typeof CreateTrustlineResponse.static | typeof XappPaymentResponse.static;
/** What a create call answers: the sign request every kind has, and the swap's or trust line's own fields where it has them. */
export type Created = Pick<AnyCreated, "success" | "uuid" | "xummUrl" | "next"> & Partial<typeof CreateSwapResponse.static & typeof CreateTrustlineResponse.static>;
export type SwapOutcome = typeof SwapView.static;

/** A positive XRP amount with at most 6 decimals, or the reason it is not. */
export function checkXrpAmount(text: string): { ok: true; value: string } | { ok: false; reason: string | null } {
  const value = text.trim();
  if (!value) return { ok: false, reason: null };
  if (!/^\d*\.?\d*$/.test(value) || value === ".") return { ok: false, reason: "Enter an amount such as 10 or 2.5" };
  if ((value.split(".")[1] ?? "").length > 6) return { ok: false, reason: "XRP has at most 6 decimals (0.000001)" };
  if (!(Number(value) > 0)) return { ok: false, reason: "Enter an amount above 0" };
  return { ok: true, value: value.startsWith(".") ? `0${value}` : value };
}

export const quoteKey = (xrp: string) => `/api/vvx/swap-rate/${encodeURIComponent(xrp)}`;
export const trustlineKey = (wallet: string) => `/api/vvx/trustline-status/${encodeURIComponent(wallet)}`;
export const balanceKey = (wallet: string) => `/api/wallet/balance?address=${encodeURIComponent(wallet)}`;

export async function fetchQuote(xrp: string, signal?: AbortSignal): Promise<Quote> {
  const res = await fetch(quoteKey(xrp), { credentials: "include", headers: { accept: "application/json" }, signal });
  if (!res.ok) throw new HttpError(res.status, await res.text().catch(() => ""), res.statusText);
  return (await res.json()) as Quote;
}

/** Creates a sign request; a failure becomes the spec's title with the server's reason. */
async function create(path: string, body: unknown, failure: string): Promise<Created> {
  let res: Created;
  try {
    res = await sendJson<Created>("POST", path, body);
  } catch (err) {
    throw new CreateError(failure, errorMessage(err, failure));
  }
  if (!res.success || !res.uuid) throw new CreateError(failure, res.error ?? failure);
  return res;
}

/** A create call that failed: the spec's title and what the server said. */
export class CreateError extends Error {
  constructor(
    readonly title: string,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const createSwap = (walletAddress: string, xrpAmount: string) => create("/api/vvx/create-swap", { walletAddress, xrpAmount }, "Failed to create swap transaction");
export const createTrustline = (walletAddress: string) => create("/api/vvx/create-trustline", { walletAddress }, "Failed to create trustline transaction");
export const createXappPayment = (body: { type: "swap" | "trustline"; walletAddress: string; xrpAmount?: string }) =>
  create("/api/xumm/payment/xapp", body, "Failed to create xApp payment");

export const signStatus = (uuid: string) => getJson<SignStatusResponse>(`/api/xumm/status/${encodeURIComponent(uuid)}`);
export const swapOutcome = (uuid: string) => getJson<SwapOutcome>(`/api/vvx/swaps/${encodeURIComponent(uuid)}`);

/** Grouped decimal text without floats ("11789.576937" -> "11,789.576937"); `decimals` cuts (never rounds up). */
export function groupDecimal(text: string, decimals?: number): string {
  const [whole = "0", frac = ""] = text.split(".");
  const cut = decimals === undefined ? frac : frac.slice(0, decimals).replace(/0+$/, "");
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (cut ? `.${cut}` : "");
}

/** Drops (integer text) as XRP text. */
export function xrpFromDrops(drops: string): string {
  const digits = drops.replace(/^0+/, "").padStart(7, "0");
  const frac = digits.slice(-6).replace(/0+$/, "");
  return digits.slice(0, -6) + (frac ? `.${frac}` : "");
}
