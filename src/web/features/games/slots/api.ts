import type { RotateView, SeedPairView } from "../../../../shared/api/fair";
import type {
  ActiveSessionResponse,
  CheckPaymentResponse,
  CreateSessionResponse,
  PaymentView,
  SessionView,
  SpinDetail as SpinDetailSchema,
  SpinListItem,
  SpinResponse as SpinResponseSchema,
  SpinsResponse,
  SpinView,
} from "../../../../shared/api/slots";
import { getJson, sendJson } from "../../../lib/api";

// The server's schemas are the types (src/shared/api/slots.ts, fair.ts).
export type SlotSession = typeof SessionView.static;
export type SlotPayment = typeof PaymentView.static;
export type PaymentCheck = typeof CheckPaymentResponse.static;
export type Spin = typeof SpinView.static;
export type SpinResponse = typeof SpinResponseSchema.static;
export type SpinRecord = typeof SpinListItem.static;
export type ActiveSession = typeof ActiveSessionResponse.static;
export type Spins = typeof SpinsResponse.static;
/** GET /api/slots/spins/:id: a spin and the payment that carried its winnings. */
export type SpinDetail = typeof SpinDetailSchema.static;

export const spinDetailUrl = (id: number | string) => `/api/slots/spins/${encodeURIComponent(String(id))}`;

export type SeedPair = typeof SeedPairView.static;
export type Rotated = typeof RotateView.static;

export const activeSessionUrl = (wallet: string) => `/api/slots/active-session/${encodeURIComponent(wallet)}`;
export const spinsUrl = (wallet: string, limit = 20) => `/api/slots/spins?wallet=${encodeURIComponent(wallet)}&limit=${limit}`;
export const seedsUrl = (wallet: string) => `/api/fair/seeds/${encodeURIComponent(wallet)}`;

/**
 * The connected wallet's seed pair, made by this POST before its first play (a GET never makes one), so
 * its commitment is on screen before the first spin. `url` is the swr key, seedsUrl(wallet).
 */
export function loadSeeds(url: string): Promise<SeedPair> {
  const walletAddress = decodeURIComponent(url.slice(url.lastIndexOf("/") + 1));
  return sendJson<SeedPair>("POST", "/api/fair/seeds", { walletAddress });
}

export const createSession = (walletAddress: string, tierIndex: number) =>
  sendJson<typeof CreateSessionResponse.static>("POST", "/api/slots/create-session", { walletAddress, tierIndex });

/** check-payment with the spec's 5 s request time-out. */
export async function checkPayment(uuid: string, timeoutMs: number): Promise<PaymentCheck> {
  const res = await fetch(`/api/slots/check-payment/${encodeURIComponent(uuid)}`, { credentials: "include", signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`${res.status}: ${await res.text().catch(() => res.statusText)}`);
  return (await res.json()) as PaymentCheck;
}

export const spin = (sessionId: string, walletAddress: string) => sendJson<SpinResponse>("POST", "/api/slots/spin", { sessionId, walletAddress });
export const fetchActiveSession = (wallet: string) => getJson<typeof ActiveSessionResponse.static>(activeSessionUrl(wallet));
export const setClientSeed = (walletAddress: string, clientSeed: string) => sendJson<SeedPair>("POST", "/api/fair/client-seed", { walletAddress, clientSeed });
export const rotateSeed = (walletAddress: string) => sendJson<Rotated>("POST", "/api/fair/rotate", { walletAddress });

/** A /fair link that fills in and checks one spin (the seed once revealed, else its hash only). */
export function fairLink(game: "slots" | "wheel", s: { serverSeed: string | null; serverSeedHash: string; clientSeed: string; nonce: number; spinCost?: number }): string {
  const q = new URLSearchParams({ game, clientSeed: s.clientSeed, nonce: String(s.nonce), hash: s.serverSeedHash });
  if (s.serverSeed) q.set("serverSeed", s.serverSeed);
  if (s.spinCost !== undefined) q.set("spinCost", String(s.spinCost));
  return `/fair?${q.toString()}#verify`;
}
