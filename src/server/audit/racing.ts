import { UNICORNS, raceFromSeeds, serverSeedCommitment } from "../../engine";
import type { RaceDetail, RaceRecord } from "../../shared/api/racing";
import { dropsFromXrp } from "../ledger/amounts";
import { NATIVE_HASHES } from "../platform/nativeHashes";
import type { LedgerLookup } from "./ledger";
import { checkBetPayments } from "./payments";
import type { Published } from "./published";
import type { AuditReport } from "./report";

/** What a bet should have been paid: the multiple on the winner, nothing on the others, the bet itself when refunded. */
function duePayout(bet: RaceDetail["bets"][number], winner: string, multipleHundredths: number): bigint {
  const amount = dropsFromXrp(bet.amount);
  if (bet.status === "refunded") return amount;
  return bet.unicornName === winner ? (amount * BigInt(multipleHundredths)) / 100n : 0n;
}

/**
 * Every published race: its server seed hashes to the hash shown at its countdown, shown before the
 * client seed's ledger; the client seed is the hash of validated ledger closeLedger + 1; the nonce is the
 * race number; the seeds give its winner; every bet was paid in by closeLedger and paid out by the rules.
 */
export async function auditRacing(src: Published, ledger: LedgerLookup, report: AuditReport, treasury: string, limit?: number): Promise<void> {
  const races = await src.all<RaceRecord>((before) => `/api/racing/races?limit=200${before ? `&before=${before}` : ""}`, "races", (r) => r.round, limit);
  for (const listed of races) {
    const { race: r, bets, closeLedger } = await src.json<RaceDetail>(`/api/racing/races/${listed.round}`);
    const subject = `race #${r.round}`;
    const problems: string[] = [];
    if (serverSeedCommitment(r.serverSeed) !== r.serverSeedHash) problems.push("its server seed does not hash to the hash shown at the countdown");
    if (r.nonce !== r.round) problems.push(`its nonce ${r.nonce} is not its number`);
    if (r.clientSeedLedger !== closeLedger + 1) problems.push(`its client seed's ledger ${r.clientSeedLedger} is not the one after betting closed (${closeLedger + 1})`);
    if (r.commitLedger !== null && r.commitLedger >= r.clientSeedLedger) problems.push(`its server seed's hash was first shown at ledger ${r.commitLedger}, not before the client seed's ledger ${r.clientSeedLedger}`);
    const seedLedger = await ledger.ledgerHash(r.clientSeedLedger);
    if (seedLedger !== r.clientSeed.toUpperCase()) problems.push(`its client seed is not the hash of validated ledger ${r.clientSeedLedger} (${seedLedger ?? "not validated"})`);
    const outcome = raceFromSeeds({ serverSeed: r.serverSeed, clientSeed: r.clientSeed, nonce: r.nonce }, NATIVE_HASHES);
    if (outcome.winnerIndex !== r.winnerIndex || outcome.winner !== r.winningUnicorn) problems.push(`published ${r.winningUnicorn} as the winner, the seeds give ${outcome.winner}`);
    const pending: string[] = [];
    const multiple = Math.round(r.payoutMultiple * 100);
    for (const bet of bets) {
      const due = duePayout(bet, UNICORNS[outcome.winnerIndex]!.name, multiple);
      if (dropsFromXrp(bet.payout) !== due) problems.push(`bet ${bet.betId.slice(0, 8)} on ${bet.unicornName}: paid ${bet.payout} XRP, due ${Number(due) / 1e6}`);
      const paid = await checkBetPayments(ledger, bet, treasury, closeLedger);
      problems.push(...paid.problems);
      pending.push(...paid.pending);
    }
    report.round("racing", subject, problems, pending, `${outcome.winner} won`);
  }
}
