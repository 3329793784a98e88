import { UNICORNS, dropsToXrpNumber, readXrp } from "../../../engine";
import type { BetInitiateResponse } from "../../../shared/api/racing";
import { MAX_BET_DROPS, MIN_BET_DROPS, type Bankroll, type Bet, type BetPlacement, type GameBets } from "../kit";
import type { IncomingPayment } from "../../payments/model";
import type { DbOrTx } from "../../platform/db";
import { ConflictError, ValidationError } from "../../platform/errors";
import type { Logger } from "../../platform/log";
import type { RaceRow, RacingRepository } from "./repository";

/** What a racing bet carries besides its amount: the unicorn (engine index) and the race it was made for. */
export interface RaceBetParams {
  unicorn: number;
  round: number;
}

/** Why a racing bet's payment is refused (refunded in full); the kit adds above_max, below_min, second_bet, short, expired. */
export const RACING_REFUSAL = {
  /** Validated after betting on its race closed (or for a race that is over). */
  bettingClosed: "betting_closed",
  /** The treasury could no longer cover the race's worst case when the payment came. */
  raceFull: "race_full",
} as const;

export const TEXT = {
  alreadyBet: "You have already placed a bet for this race.",
  duringRace: "Cannot place bets during a race. Please wait for the next race.",
  amount: "Please enter a bet amount between 1 and 100 XRP.",
  full: "This race is full, please bet on the next one.",
} as const;

/** Drops of a bet amount given in XRP (a number or numeric text, at most 6 decimals); 400 naming betAmount otherwise. */
export function parseBetDrops(value: unknown): bigint {
  const xrp = readXrp(value);
  const drops = xrp && !xrp.negative && xrp.decimals <= 6 ? xrp.drops : -1n;
  // The spec's rule is "above 0 and at most 100"; the ledger side takes whole drops from 1 XRP.
  if (drops <= 0n || drops > MAX_BET_DROPS) throw new ValidationError("betAmount", TEXT.amount);
  if (drops < MIN_BET_DROPS) throw new ValidationError("betAmount", "Minimum bet amount is 1 XRP.");
  return drops;
}

/**
 * The largest total payout over the five unicorns (each unicorn's bets x the multiple), with an
 * extra bet of `extra` drops on `unicorn` when given: what the treasury must cover for the race.
 */
export function worstCaseDrops(bets: readonly { amountDrops: bigint; unicorn: number }[], multipleHundredths: number, extra?: { amountDrops: bigint; unicorn: number }): bigint {
  const totals = UNICORNS.map(() => 0n);
  for (const b of extra ? [...bets, extra] : bets) totals[b.unicorn]! += b.amountDrops;
  return totals.reduce((worst, t) => {
    const payout = (t * BigInt(multipleHundredths)) / 100n;
    return payout > worst ? payout : worst;
  }, 0n);
}

/**
 * Racing's rules on top of the games kit: which payments are bets of which race (`place`, inside
 * the watcher's credit transaction), the liability guard (before the payment request and again
 * when the payment comes), and the settlement of a finished race (5x to the winners, exactly once,
 * recorded with the race's result).
 */
/** Ledger closes between reads of the treasury when no transaction of the platform's moved it (its reserves may: a fee vote). */
export const BANKROLL_REREAD_CLOSES = 60;

export class RacingBetRules {
  /** The treasury's spendable XRP at the last ledger close, less what the outbox has to send since. */
  private cachedBalance: { spendable: bigint; inFlight: bigint } | undefined;
  private refreshing = false;

  constructor(
    private readonly deps: { bankroll: Bankroll; log: Logger },
    private readonly repo: RacingRepository,
  ) {}

  /** Asked again while a read was in flight: read once more after it (the ledger may have moved under it). */
  private refreshAgain = false;
  /** Ledger closes since the treasury was last read. */
  private closesSinceRead = 0;

  /**
   * Re-reads the treasury: when the platform's stream shows a validated transaction of its accounts (the
   * only way its balance or owner count moves), on (re)connecting, and every BANKROLL_REREAD_CLOSES ledger
   * closes for the reserves (which move only by a fee vote). An idle server reads nothing (it read both
   * account_info and server_state each second). Failures keep the last figure.
   */
  refreshBankroll(): void {
    if (this.refreshing) return void (this.refreshAgain = true);
    this.refreshing = true;
    this.closesSinceRead = 0;
    this.deps.bankroll
      .facts()
      .then((f) => void (this.cachedBalance = { spendable: f.spendableDrops, inFlight: f.inFlightDrops }))
      .catch((err) => this.deps.log.warn("racing bankroll not read", { error: err instanceof Error ? err.message : String(err) }))
      .finally(() => {
        this.refreshing = false;
        if (this.refreshAgain) (this.refreshAgain = false), this.refreshBankroll();
      });
  }

  /** A ledger closed: the treasury is read again only when none of the triggers above read it for a while (or never). */
  ledgerClosed(): void {
    if (!this.cachedBalance || ++this.closesSinceRead >= BANKROLL_REREAD_CLOSES) this.refreshBankroll();
  }

  /** Spendable XRP now: the last ledger's figure, less payouts recorded since it was read. */
  private async spendableNow(): Promise<bigint | undefined> {
    if (!this.cachedBalance) return undefined;
    const grown = (await this.deps.bankroll.inFlightDrops()) - this.cachedBalance.inFlight;
    return this.cachedBalance.spendable - (grown > 0n ? grown : 0n);
  }

  /** The race's confirmed bets as (amount, unicorn). */
  async stakes(bets: GameBets<RaceBetParams>, round: number, db?: DbOrTx) {
    return (await bets.inRound(round, db)).map((b) => ({ amountDrops: b.amountDrops, unicorn: b.params.unicorn }));
  }

  /** Before a payment request: 409 when this bet would take the race's worst case beyond the treasury. */
  async guard(bets: GameBets<RaceBetParams>, race: RaceRow, bet: { amountDrops: bigint; unicorn: number }): Promise<void> {
    const facts = await this.deps.bankroll.facts();
    this.cachedBalance = { spendable: facts.spendableDrops, inFlight: facts.inFlightDrops };
    if (worstCaseDrops(await this.stakes(bets, race.round), race.multipleHundredths, bet) > facts.spendableDrops) throw new ConflictError("RACE_FULL", TEXT.full);
  }

  /** The kit asks which race a paid bet joins (inside the credit's transaction). */
  async place(ctx: { db: DbOrTx; bet: Bet<RaceBetParams>; payment: IncomingPayment }, bets: GameBets<RaceBetParams>): Promise<BetPlacement> {
    const race = await this.repo.current(ctx.db);
    const { round, unicorn } = ctx.bet.params;
    if (!race || race.round !== round) return { refuse: RACING_REFUSAL.bettingClosed };
    const open = race.status === "waiting" || (race.status === "closed" && ctx.payment.ledgerIndex <= race.closeLedger!);
    if (!open) return { refuse: RACING_REFUSAL.bettingClosed };
    const spendable = await this.spendableNow();
    if (spendable !== undefined && worstCaseDrops(await this.stakes(bets, round, ctx.db), race.multipleHundredths, { amountDrops: ctx.bet.amountDrops, unicorn }) > spendable) {
      return { refuse: RACING_REFUSAL.raceFull };
    }
    return { round };
  }

  /** Winners get bet x the race's multiple, the rest lose; in the race's finishing transaction. */
  async settle(db: DbOrTx, bets: GameBets<RaceBetParams>, race: RaceRow): Promise<void> {
    for (const bet of await bets.inRound(race.round, db)) {
      if (bet.status !== "confirmed") continue;
      if (bet.params.unicorn === race.winnerIndex) await bets.win(db, bet.id, race.multipleHundredths);
      else await bets.lose(db, bet.id);
    }
  }
}

/** The initiate response: the spec's fields and their aliases. */
export function initiateView(bet: Bet<RaceBetParams>, sign: { uuid: string; qrUrl: string; xummUrl: string }): BetInitiateResponse {
  return {
    success: true,
    error: null,
    betId: bet.id,
    uuid: sign.uuid,
    qrUrl: sign.qrUrl,
    xummQrUrl: sign.qrUrl,
    paymentUrl: sign.xummUrl,
    xummUrl: sign.xummUrl,
    unicornName: UNICORNS[bet.params.unicorn]!.name,
    betAmount: dropsToXrpNumber(bet.amountDrops),
    round: bet.params.round,
    destinationTag: bet.destinationTag,
  };
}
