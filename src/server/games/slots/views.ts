import { SLOT_PACKAGES, SLOT_SYMBOLS, slotSessionType, type SlotSpin } from "../../../engine";
import type { SeedFacts } from "../../fair";
import type { PayoutRow, SessionRow, SpinRow } from "./repository";

/** Micro-VVX as a number of VVX for JSON (every slots amount is a whole number of 10 VVX or more). */
export const vvxNumber = (micro: bigint): number => Number(micro / 1_000_000n) + Number(micro % 1_000_000n) / 1e6;

/** Symbol names of a stored "a,b,c" reel string. */
export function reelNames(reels: string): string[] {
  return reels.split(",").map((i) => SLOT_SYMBOLS[Number(i)]?.name ?? "Skull");
}

/** Standard, High Limit (10,000 VVX spins) or Bonus (a session of daily-wheel spins only). */
export function sessionType(row: Pick<SessionRow, "kind" | "spinCostMicro">): string {
  if (row.kind === "bonus") return "Bonus";
  return slotSessionType(vvxNumber(row.spinCostMicro));
}

export interface SessionExtras {
  queued: number;
  refundTxid: string | null;
}

/** A session as the API shows it (the spec's snake_case and camelCase names both). */
export function sessionView(row: SessionRow, extras: SessionExtras) {
  const cost = vvxNumber(row.spinCostMicro);
  return {
    session_id: row.id,
    sessionId: row.id,
    remaining_spins: row.remainingSpins,
    remainingSpins: row.remainingSpins,
    total_spins: row.totalSpins,
    totalSpins: row.totalSpins,
    spin_cost: cost,
    spinCost: cost,
    sessionType: sessionType(row),
    kind: row.kind,
    packageName: row.packageIndex === null ? null : (SLOT_PACKAGES[row.packageIndex]?.name ?? null),
    bonusSpins: row.bonusSpins,
    totalWinnings: vvxNumber(row.totalPayoutMicro),
    totalWinningsPaid: vvxNumber(row.paidMicro),
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    queuedSessions: extras.queued,
    refund: row.refundMicro ? { amount: vvxNumber(row.refundMicro), txid: extras.refundTxid } : null,
  };
}

/** The spin answer's `spin` object. */
export function spinView(id: number, spin: SlotSpin, seeds: { serverSeedHash: string; committedAt: Date; clientSeed: string; nonce: number }) {
  return {
    spinId: id,
    reels: [...spin.symbols],
    isWin: spin.isWin,
    winAmount: vvxNumber(spin.winAmountMicro),
    partialPayout: vvxNumber(spin.partialPayoutMicro),
    totalPayout: vvxNumber(spin.totalPayoutMicro),
    winType: spin.winType,
    multiplier: spin.multipleHundredths / 100,
    mysteryMultiple: spin.mysteryMultiple,
    payoutTxid: null,
    serverSeedHash: seeds.serverSeedHash,
    committedAt: seeds.committedAt.toISOString(),
    clientSeed: seeds.clientSeed,
    nonce: seeds.nonce,
  };
}

/** One row of GET /api/slots/spins. */
export function spinListItem(row: SpinRow, payout: { status: string | null; txid: string | null }, seed: SeedFacts | undefined) {
  const payoutStatus = row.payoutId === 0 ? "none" : row.payoutId === null ? "queued" : (payout.status ?? "pending");
  return {
    spinId: row.id,
    sessionId: row.sessionId,
    walletAddress: row.wallet,
    serverSeedHash: row.serverSeedHash,
    committedAt: seed?.committedAt?.toISOString() ?? null,
    serverSeed: seed?.serverSeed ?? null,
    clientSeed: row.clientSeed,
    nonce: row.nonce,
    reels: reelNames(row.reels),
    winType: row.winType,
    mysteryMultiple: row.mysteryMultiple,
    multiplier: row.multipleHundredths / 100,
    spinCost: vvxNumber(row.spinCostMicro),
    totalPayout: vvxNumber(row.totalPayoutMicro),
    payoutTxid: payoutStatus === "validated" ? payout.txid : null,
    payoutStatus,
    createdAt: row.createdAt.toISOString(),
  };
}

/** A payout as the wallet channel and the history show it. */
export function payoutView(row: PayoutRow, spinIds: number[]) {
  return { payoutId: row.id, amount: vvxNumber(row.amountMicro), spinIds, status: row.status, txid: row.txid, attempt: row.attempt };
}
