import { maxProfitCapHundredths, multiplyFloor, dropsToXrpNumber } from "../../../engine";
import type { CrashCashOut, CrashPlayer, CrashServerMessage } from "../../../shared/api/crash";
import type { WriteBacklog } from "../../platform/db/backlog";
import type { Logger } from "../../platform/log";
import type { Scheduler } from "../../platform/scheduler";
import type { Bet, GameBets, GameChannel } from "../kit";
import type { RoundSeed } from "./chain";
import type { CrashParams } from "./model";
import { playerOf } from "./views";

/** What the cash-outs read and change of the flying round (CrashRounds' live round). */
export interface FlyingRound {
  round: number;
  seed: RoundSeed;
  maxProfitDrops: bigint;
  /** Profit already cashed out in this round (the cap counts it: bustabit's rule). */
  cashedOutProfitDrops: bigint;
  /** Confirmed bets still riding, by wallet. */
  playing: Map<string, Bet<CrashParams>>;
  players: Map<string, CrashPlayer>;
}

export interface CrashCashOutDeps {
  /** The round's writes, committed in order (CrashRounds'). */
  writes: WriteBacklog;
  bets: GameBets<CrashParams>;
  channel: GameChannel;
  scheduler: Scheduler;
  log: Logger;
}

/** A win decided and not yet committed. */
interface Won {
  betId: string;
  hundredths: number;
}

/**
 * The riders' wins of a flying round: each decided at its exact multiplier and told to its player at once, committed
 * with the round's writes, told to the watchers together at the next tick (tell). What a tick reaches is settled in the
 * turn after it (afterTick), so the tick's publish is written first.
 */
export class CrashCashOuts {
  /** Cash-outs not yet told to the watchers. */
  private untold: CrashCashOut[] = [];
  /** The settlement a tick left for the next turn: up to which multiplier, and its cancel. */
  private settleAt = 0;
  private cancelLater: (() => void) | undefined;

  constructor(private readonly deps: CrashCashOutDeps) {}

  /** Whether cash-outs wait to be told. */
  get waiting(): boolean {
    return this.untold.length > 0;
  }

  /** A rider cashing out by hand at `hundredths` (after settleUpTo: what came before it is paid first). */
  win(live: FlyingRound, bet: Bet<CrashParams>, hundredths: number): void {
    this.commit([this.winAt(live, bet, hundredths)]);
  }

  /**
   * Pays, in multiplier order, every auto cash-out and the max-profit cap reached by `h` (never past the
   * crash point): each at its exact multiplier. The cap is recomputed as riders leave, counting what they took.
   * The wins are committed together, in one transaction.
   */
  settleUpTo(live: FlyingRound, h: number): void {
    const limit = Math.min(h, live.seed.crashHundredths);
    const wins: Won[] = [];
    for (;;) {
      let next: Bet<CrashParams> | undefined;
      for (const bet of live.playing.values()) {
        const target = bet.params.autoCashOut;
        if (target !== null && target <= limit && (!next || target < next.params.autoCashOut!)) next = bet;
      }
      const cap = this.capHundredths(live);
      if (cap !== undefined && cap <= limit && (!next || cap <= next.params.autoCashOut!)) {
        this.deps.log.info("crash max profit reached", { round: live.round, cap, riders: live.playing.size });
        for (const bet of [...live.playing.values()]) wins.push(this.winAt(live, bet, cap));
        break;
      }
      if (!next) break;
      wins.push(this.winAt(live, next, next.params.autoCashOut!));
    }
    this.commit(wins);
  }

  /**
   * After a tick at `h`: the automatic cash-outs (and the cap) it reached are settled in the next turn, once the tick is
   * written. Bun writes a publish when its turn ends, and their commits (70 at one tick held it back 26-61 ms with 2,000
   * and 10,000 watching) would run before. Each still wins at its own multiplier, is committed before its cashOutConfirmed
   * goes out, and is told to the watchers at the next tick; a cash-out or the crash in between settles first (settleUpTo).
   * A kill between the tick and the settlement leaves the wins untold and uncommitted: the round is voided and its bets
   * refunded at the next start, as any round a stop leaves running.
   * `run` runs the step (CrashRounds' guard) while `flying()`.
   */
  afterTick(live: FlyingRound, h: number, flying: () => boolean, run: (step: () => void) => void): void {
    if (!this.reached(live, h)) return;
    this.settleAt = Math.max(this.settleAt, h);
    this.cancelLater ??= this.deps.scheduler.after(0, () => run(() => this.settleReached(live, flying)));
  }

  /** Cancels what a tick left for the next turn (the round's timers are cleared). */
  cancel(): void {
    this.cancelLater?.();
    this.cancelLater = undefined;
    this.settleAt = 0;
  }

  /**
   * Tells every watcher the cash-outs since the last tick, at the tick (or the crash): one `playerCashedOut`,
   * or one `playersCashedOut` for several. A crowd cashing out together is then one message per watching
   * socket, not one per cash-out (500 cash-outs at once to 10,000 spectators were 5 million messages).
   * The player's own `cashOutConfirmed` is not delayed.
   */
  tell(round: number): void {
    const players = this.untold.splice(0);
    if (players.length === 1) this.deps.channel.publish({ type: "playerCashedOut", round, ...players[0]! } satisfies CrashServerMessage);
    else if (players.length > 1) this.deps.channel.publish({ type: "playersCashedOut", round, players } satisfies CrashServerMessage);
  }

  /** The turn after a tick: settles what it reached (a cash-out or the crash may have done it since). */
  private settleReached(live: FlyingRound, flying: () => boolean): void {
    const h = this.settleAt;
    this.cancelLater = undefined;
    this.settleAt = 0;
    if (flying()) this.settleUpTo(live, h);
  }

  /** Whether an automatic cash-out or the cap is reached at `h`. */
  private reached(live: FlyingRound, h: number): boolean {
    const cap = this.capHundredths(live);
    if (cap !== undefined && cap <= h) return true;
    for (const bet of live.playing.values()) if (bet.params.autoCashOut !== null && bet.params.autoCashOut <= h) return true;
    return false;
  }

  /** The multiplier at which the round's whole profit would pass the cap (engine: bustabit's rule), or undefined with none riding. */
  private capHundredths(live: FlyingRound): number | undefined {
    let riding = 0n;
    for (const bet of live.playing.values()) riding += bet.amountDrops;
    return maxProfitCapHundredths(riding, live.cashedOutProfitDrops, live.maxProfitDrops);
  }

  /** A rider leaves at `hundredths`: decided and told now; the caller commits the win (commit). */
  private winAt(live: FlyingRound, bet: Bet<CrashParams>, hundredths: number): Won {
    live.playing.delete(bet.wallet);
    const payoutDrops = multiplyFloor(bet.amountDrops, hundredths);
    live.cashedOutProfitDrops += payoutDrops - bet.amountDrops;
    const payout = dropsToXrpNumber(payoutDrops);
    live.players.set(bet.wallet, { ...playerOf(bet), hasCashedOut: true, cashOutMultiplier: hundredths / 100, payout });
    this.deps.channel.toPlayer(bet.wallet, { type: "cashOutConfirmed", betId: bet.id, round: live.round, multiplier: hundredths / 100, payout, txid: null } satisfies CrashServerMessage);
    this.untold.push({ walletAddress: bet.wallet, multiplier: hundredths / 100, payout });
    return { betId: bet.id, hundredths };
  }

  /**
   * Commits wins in one transaction of the round's writes, then starts their payouts: the automatic cash-outs of one
   * multiplier (70 in the capacity bench's round) are one commit, not one each. Told in this turn; on SQLite committed
   * before it ends (Bun writes the cashOutConfirmed then), unless another process holds the database (WriteBacklog). On
   * PostgreSQL the commit is a round trip, so the message can leave first.
   */
  private commit(wins: Won[]): void {
    if (!wins.length) return;
    this.deps.writes.add(
      async (tx) => {
        for (const w of wins) await this.deps.bets.win(tx, w.betId, w.hundredths);
      },
      () => this.deps.bets.kick(),
    );
  }
}
