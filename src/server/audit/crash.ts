import { crashHundredthsFromHash, formatHundredths } from "../../engine";
import type { CrashChainView, CrashFairness, CrashRoundDetail, CrashRoundView } from "../../shared/api/crash";
import { dropsFromXrp } from "../ledger/amounts";
import { NATIVE_HASHES } from "../platform/nativeHashes";
import type { LedgerLookup } from "./ledger";
import { checkBetPayments } from "./payments";
import type { Published } from "./published";
import type { AuditReport } from "./report";

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** A game hash hashed `steps` times (as bytes). */
function walk(hash: string, steps: number): string {
  let h: Uint8Array = Buffer.from(hash, "hex");
  for (let i = 0; i < steps; i++) h = NATIVE_HASHES.sha256(h);
  return hexOf(h);
}

/** A chain's commitment on the ledger: the treasury's AccountSet with the terminating hash, and the salt from the ledger 10 later. */
async function checkChain(chain: CrashChainView, f: CrashFairness, ledger: LedgerLookup, report: AuditReport): Promise<void> {
  const subject = `crash chain #${chain.id}`;
  if (chain.status === "uncommitted") return report.unverifiable("chains", subject, "made before on-ledger commitments: its salt was the server's");
  if (!chain.commitment || chain.salt === null || chain.saltLedgerIndex === null) return report.unverifiable("chains", subject, `not committed and salted yet (${chain.status})`);
  const problems: string[] = [];
  const { txHash, ledgerIndex } = chain.commitment;
  const tx = await ledger.tx(txHash);
  if (!tx) problems.push(`its commitment ${txHash} is in no validated ledger`);
  else {
    if (tx.type !== "AccountSet" || tx.result !== "tesSUCCESS" || tx.account !== f.treasury) problems.push(`${txHash} is not a successful AccountSet of the treasury ${f.treasury}`);
    if (tx.ledgerIndex !== ledgerIndex) problems.push(`the commitment is in ledger ${tx.ledgerIndex}, not ${ledgerIndex}`);
    let memo: Record<string, unknown> = {};
    try {
      memo = JSON.parse(tx.memos.get(f.memoType) ?? "{}");
    } catch {
      problems.push(`its ${f.memoType} memo is not JSON`);
    }
    const expected = { terminatingHash: chain.terminatingHash, firstRound: chain.firstRound, length: chain.length, saltLedgerOffset: f.saltLedgerOffset };
    for (const [key, value] of Object.entries(expected)) if (memo[key] !== value) problems.push(`its memo's ${key} is ${JSON.stringify(memo[key])}, published ${JSON.stringify(value)}`);
  }
  if (chain.saltLedgerIndex !== ledgerIndex + f.saltLedgerOffset) problems.push(`the salt's ledger ${chain.saltLedgerIndex} is not ${f.saltLedgerOffset} after the commitment's ${ledgerIndex}`);
  const saltLedger = await ledger.ledgerHash(chain.saltLedgerIndex);
  if (saltLedger !== chain.salt) problems.push(`the salt ${chain.salt} is not the hash of validated ledger ${chain.saltLedgerIndex} (${saltLedger ?? "not validated"})`);
  report.notes.push(`${subject}: terminating hash ${chain.terminatingHash} committed in ledger ${ledgerIndex} by ${txHash}; salt = hash of ledger ${chain.saltLedgerIndex}`);
  report.round("chains", subject, problems, [], "committed on the ledger");
}

/**
 * Every published crash round: its hash chains to the next one listed below it in its chain (and the
 * lowest to the terminating hash), its game number is its round's place in the chain, its crash point
 * follows from the hash and the salt, and every bet was paid by the rules and on the ledger.
 */
export async function auditCrash(src: Published, ledger: LedgerLookup, report: AuditReport, limit?: number): Promise<void> {
  const fairness = await src.json<CrashFairness>("/api/crash/fairness");
  const chains = new Map(fairness.chains.map((c) => [c.id, c]));
  for (const chain of fairness.chains) await checkChain(chain, fairness, ledger, report);
  const rounds = await src.all<CrashRoundView>((before) => `/api/crash/rounds?limit=200${before ? `&before=${before}` : ""}`, "rounds", (r) => r.round, limit);
  // Within a chain, newest game first: each hash hashed the gap to the next one listed is that one's hash.
  const below = new Map<number, { gameNumber: number; hash: string; round: number | null }>();
  const byChain = new Map<number, CrashRoundView[]>();
  for (const r of rounds) byChain.set(r.chainId, [...(byChain.get(r.chainId) ?? []), r]);
  for (const [chainId, list] of byChain) {
    list.sort((a, b) => b.gameNumber - a.gameNumber);
    list.forEach((r, i) => below.set(r.round, list[i + 1] ? { gameNumber: list[i + 1]!.gameNumber, hash: list[i + 1]!.hash!, round: list[i + 1]!.round } : { gameNumber: 0, hash: chains.get(chainId)?.terminatingHash ?? "", round: null }));
  }
  for (const listed of rounds) {
    const detail = await src.json<CrashRoundDetail>(`/api/crash/rounds/${listed.round}`);
    const r = detail.round;
    const subject = `crash round #${r.round}`;
    const chain = chains.get(r.chainId);
    if (!chain?.salt || !r.hash || r.crashPoint === null) {
      report.unverifiable("crash", subject, chain?.salt ? "its hash is not published" : `its chain #${r.chainId} has no published salt`);
      continue;
    }
    const problems: string[] = [];
    const next = below.get(r.round)!;
    if (walk(r.hash, r.gameNumber - next.gameNumber) !== next.hash.toLowerCase()) problems.push(next.round === null ? `its hash does not hash ${r.gameNumber} times to the terminating hash` : `its hash does not lead to round #${next.round}'s`);
    if (r.round - r.gameNumber + 1 !== chain.firstRound) problems.push(`game #${r.gameNumber} of a chain from round #${chain.firstRound} is not round #${r.round}`);
    const crash = crashHundredthsFromHash(r.hash, chain.salt, NATIVE_HASHES);
    if (crash !== Math.round(r.crashPoint * 100)) problems.push(`published ${formatHundredths(Math.round(r.crashPoint * 100))}x, the hash and salt give ${formatHundredths(crash)}x`);
    const pending: string[] = [];
    for (const bet of detail.bets) {
      const m = bet.multiplier === null ? null : Math.round(bet.multiplier * 100);
      if (bet.status === "won" && m !== null) {
        if (m > crash) problems.push(`bet ${bet.betId.slice(0, 8)} cashed out at ${bet.multiplier}x, above the ${formatHundredths(crash)}x crash`);
        if ((dropsFromXrp(bet.amount) * BigInt(m)) / 100n !== dropsFromXrp(bet.payout)) problems.push(`bet ${bet.betId.slice(0, 8)}: paid ${bet.payout} XRP, floor(${bet.amount} x ${bet.multiplier}) differs`);
      }
      if (bet.status === "refunded" && bet.payout !== bet.amount) problems.push(`bet ${bet.betId.slice(0, 8)}: refunded ${bet.payout} of its ${bet.amount} XRP`);
      if (bet.status === "lost" && bet.payout !== "0") problems.push(`bet ${bet.betId.slice(0, 8)}: a loss that paid ${bet.payout} XRP`);
      const paid = await checkBetPayments(ledger, bet, fairness.treasury);
      problems.push(...paid.problems);
      pending.push(...paid.pending);
    }
    report.round("crash", subject, problems, pending, `${formatHundredths(crash)}x`);
  }
}
