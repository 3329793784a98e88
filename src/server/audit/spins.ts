import { SLOT_FLOATS_PER_SPIN, SLOT_SYMBOLS, floatsFromSeeds, serverSeedCommitment, slotSpinFromFloats, spinDailyWheel } from "../../engine";
import { sameCurrency, type Token } from "../ledger/amounts";
import { NATIVE_HASHES } from "../platform/nativeHashes";
import type { LedgerLookup } from "./ledger";
import type { Published } from "./published";
import type { AuditReport } from "./report";

/** A slots spin as GET /api/slots/spins lists it (the fields an audit reads). */
interface SpinItem {
  spinId: number;
  walletAddress: string;
  serverSeedHash: string;
  serverSeed: string | null;
  clientSeed: string;
  nonce: number;
  reels: string[];
  mysteryMultiple: number;
  spinCost: number;
  totalPayout: number;
  payoutTxid: string | null;
  payoutStatus: string;
}

interface SpinDetail {
  spin: SpinItem;
  payout: { payoutId: number; amount: number; spinIds: number[]; status: string; txid: string | null } | null;
}

interface WheelItem {
  id: number;
  walletAddress: string;
  position: number;
  prizeLabel: string;
  serverSeedHash: string;
  serverSeed: string | null;
  clientSeed: string;
  nonce: number;
}

const micro = (vvx: number) => BigInt(Math.round(vvx * 1e6));
const page = (path: string, limit: number) => (before: number | undefined) => `${path}?limit=${limit}${before ? `&before=${before}` : ""}`;

/** A spin re-computed from its revealed seeds: the reels, the mystery multiple and the payout. */
function spinProblems(s: SpinItem): string[] {
  const problems: string[] = [];
  if (serverSeedCommitment(s.serverSeed!) !== s.serverSeedHash) problems.push("its server seed does not hash to the hash shown");
  const spin = slotSpinFromFloats(floatsFromSeeds({ serverSeed: s.serverSeed!, clientSeed: s.clientSeed, nonce: s.nonce }, SLOT_FLOATS_PER_SPIN, NATIVE_HASHES), s.spinCost);
  const names = spin.reels.map((r) => SLOT_SYMBOLS[r]!.name);
  if (names.join(",") !== s.reels.join(",")) problems.push(`published ${s.reels.join(" ")}, the seeds give ${names.join(" ")}`);
  if (spin.mysteryMultiple !== s.mysteryMultiple) problems.push(`published a mystery of ${s.mysteryMultiple}x, the seeds give ${spin.mysteryMultiple}x`);
  if (spin.totalPayoutMicro !== micro(s.totalPayout)) problems.push(`published a payout of ${s.totalPayout} VVX, the seeds give ${Number(spin.totalPayoutMicro) / 1e6}`);
  return problems;
}

/**
 * Every published slots spin (the ones whose server seed is revealed: the others wait for their
 * rotation), and every payout payment: it carries exactly the winnings of its spins, in VVX, from the
 * treasury to their wallet, validated on the ledger.
 */
export async function auditSlots(src: Published, ledger: LedgerLookup, report: AuditReport, treasury: string, vvx: Token, limit?: number): Promise<void> {
  const spins = await src.all<SpinItem>(page("/api/slots/spins", 500), "spins", (s) => s.spinId, limit);
  const byId = new Map(spins.map((s) => [s.spinId, s]));
  const payoutProblems = new Map<string, string[]>();
  for (const txid of new Set(spins.map((s) => s.payoutTxid).filter((t): t is string => t !== null))) {
    const first = spins.find((s) => s.payoutTxid === txid)!;
    const { payout } = await src.json<SpinDetail>(`/api/slots/spins/${first.spinId}`);
    const problems: string[] = [];
    const carried = await Promise.all((payout?.spinIds ?? []).map(async (id) => byId.get(id) ?? (await src.json<SpinDetail>(`/api/slots/spins/${id}`)).spin));
    const sum = carried.reduce((n, s) => n + micro(s.totalPayout), 0n);
    if (!payout || sum !== micro(payout.amount)) problems.push(`payout ${txid} of ${payout?.amount ?? "?"} VVX does not carry its spins' winnings (${Number(sum) / 1e6} VVX)`);
    const tx = await ledger.tx(txid);
    if (!tx || tx.type !== "Payment" || tx.result !== "tesSUCCESS" || tx.account !== treasury || tx.destination !== first.walletAddress) problems.push(`payout ${txid} is not a validated payment from the treasury to ${first.walletAddress}`);
    else if (!tx.delivered || !("micro" in tx.delivered) || !sameCurrency(tx.delivered.currency, vvx.currency) || tx.delivered.issuer !== vvx.issuer || tx.delivered.micro !== micro(payout?.amount ?? 0)) {
      problems.push(`payout ${txid}: the ledger delivered ${tx.delivered && "micro" in tx.delivered ? `${Number(tx.delivered.micro) / 1e6} ${tx.delivered.currency}` : "something else"}, the record says ${payout?.amount} VVX`);
    }
    for (const s of carried) payoutProblems.set(String(s.spinId), problems);
  }
  for (const s of spins) {
    const subject = `slots spin #${s.spinId}`;
    if (!s.serverSeed) {
      report.unverifiable("slots", subject, "its server seed is not revealed yet (the wallet's next rotation reveals it)");
      continue;
    }
    const pending = s.totalPayout > 0 && !s.payoutTxid ? [`its ${s.totalPayout} VVX payout is ${s.payoutStatus}`] : [];
    report.round("slots", subject, [...spinProblems(s), ...(payoutProblems.get(String(s.spinId)) ?? [])], pending, `${s.reels.join(" ")}: ${s.totalPayout} VVX`);
  }
}

/** Every published daily-wheel spin whose server seed is revealed: its segment follows from the seeds. */
export async function auditWheel(src: Published, report: AuditReport, limit?: number): Promise<void> {
  const spins = await src.all<WheelItem>(page("/api/daily-spin/spins", 500), "spins", (s) => s.id, limit);
  for (const w of spins) {
    const subject = `wheel spin #${w.id}`;
    if (!w.serverSeed) {
      report.unverifiable("wheel", subject, "its server seed is not revealed yet (the wallet's next rotation reveals it)");
      continue;
    }
    const problems: string[] = [];
    if (serverSeedCommitment(w.serverSeed) !== w.serverSeedHash) problems.push("its server seed does not hash to the hash shown");
    const got = spinDailyWheel({ serverSeed: w.serverSeed, clientSeed: w.clientSeed, nonce: w.nonce });
    if (got.position !== w.position || got.prizeLabel !== w.prizeLabel) problems.push(`published segment ${w.position + 1} (${w.prizeLabel}), the seeds give ${got.position + 1} (${got.prizeLabel})`);
    report.round("wheel", subject, problems, [], got.prizeLabel);
  }
}
