import { getJson, sendJson } from "../../../lib/api";

/** A slots session as GET /api/slots/active-session answers it. */
export interface SlotSession {
  sessionId: string;
  remainingSpins: number;
  totalSpins: number;
  spinCost: number;
  sessionType: "Standard" | "High Limit" | "Bonus" | string;
  kind: "package" | "bonus" | string;
  packageName: string | null;
  bonusSpins: number;
  totalWinnings: number;
  totalWinningsPaid: number;
  status: "active" | "completed" | "expired" | string;
  createdAt: string;
  expiresAt: string;
  queuedSessions: number;
}

export interface SlotPayment {
  uuid: string;
  qrUrl: string;
  xummUrl: string;
  refs: { qr_png: string };
  next: { always: string };
  purchaseId: string;
  packageName: string;
  amount: number;
  destination: string;
  destinationTag: number;
  expiresAt: string;
}

export interface PaymentCheck {
  success: boolean;
  confirmed: boolean;
  status: "awaiting_payment" | "paid" | "refunded" | "expired" | string;
  reason: string | null;
  paymentTxHash: string | null;
  session: SlotSession | null;
}

export interface Spin {
  spinId: number;
  reels: string[];
  isWin: boolean;
  winAmount: number;
  partialPayout: number;
  totalPayout: number;
  winType: "three_of_a_kind" | "mystery" | "partial" | "none" | string;
  multiplier: number;
  mysteryMultiple: number;
  payoutTxid: string | null;
  serverSeedHash: string;
  clientSeed: string;
  nonce: number;
}

export interface SpinResponse {
  success: boolean;
  spin: Spin;
  remainingSpins: number;
  sessionStatus: "active" | "completed";
  totalWinnings: number;
}

export interface SpinRecord {
  spinId: number;
  sessionId: string;
  walletAddress: string;
  serverSeedHash: string;
  /** When the server seed's hash was first shown. */
  committedAt: string | null;
  serverSeed: string | null;
  clientSeed: string;
  nonce: number;
  reels: string[];
  winType: string;
  mysteryMultiple: number;
  multiplier: number;
  spinCost: number;
  totalPayout: number;
  payoutTxid: string | null;
  payoutStatus: "none" | "queued" | "pending" | "validated" | "failed" | string;
  createdAt: string;
}

/** GET /api/slots/spins/:id: a spin and the payment that carried its winnings. */
export interface SpinDetail {
  success: boolean;
  spin: SpinRecord;
  payout: { payoutId: number; amount: number; spinIds: number[]; status: string; txid: string | null } | null;
}

export const spinDetailUrl = (id: number | string) => `/api/slots/spins/${encodeURIComponent(String(id))}`;

export interface SeedPair {
  walletAddress: string;
  serverSeedHash: string;
  clientSeed: string;
  nextNonce: number;
}

export interface Rotated extends SeedPair {
  previousServerSeed: string;
  previousServerSeedHash: string;
  previousNoncesUsed: number;
}

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
  sendJson<{ success: boolean; payment: SlotPayment }>("POST", "/api/slots/create-session", { walletAddress, tierIndex });

/** check-payment with the spec's 5 s request time-out. */
export async function checkPayment(uuid: string, timeoutMs: number): Promise<PaymentCheck> {
  const res = await fetch(`/api/slots/check-payment/${encodeURIComponent(uuid)}`, { credentials: "include", signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`${res.status}: ${await res.text().catch(() => res.statusText)}`);
  return (await res.json()) as PaymentCheck;
}

export const spin = (sessionId: string, walletAddress: string) => sendJson<SpinResponse>("POST", "/api/slots/spin", { sessionId, walletAddress });
export const fetchActiveSession = (wallet: string) => getJson<{ success: boolean; session: SlotSession | null }>(activeSessionUrl(wallet));
export const setClientSeed = (walletAddress: string, clientSeed: string) => sendJson<SeedPair & { success: boolean }>("POST", "/api/fair/client-seed", { walletAddress, clientSeed });
export const rotateSeed = (walletAddress: string) => sendJson<Rotated & { success: boolean }>("POST", "/api/fair/rotate", { walletAddress });

/** A /fair link that fills in and checks one spin (the seed once revealed, else its hash only). */
export function fairLink(game: "slots" | "wheel", s: { serverSeed: string | null; serverSeedHash: string; clientSeed: string; nonce: number; spinCost?: number }): string {
  const q = new URLSearchParams({ game, clientSeed: s.clientSeed, nonce: String(s.nonce), hash: s.serverSeedHash });
  if (s.serverSeed) q.set("serverSeed", s.serverSeed);
  if (s.spinCost !== undefined) q.set("spinCost", String(s.spinCost));
  return `/fair?${q.toString()}#verify`;
}
