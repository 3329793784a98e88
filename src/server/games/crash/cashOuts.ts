import { maxProfitCapHundredths, multiplyFloor, dropsToXrpNumber } from "../../../engine";
import type { CrashCashOut, CrashPlayer, CrashServerMessage, CrashStatus } from "../../../shared/api/crash";
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
  /** Past "running", no tick follows: a win committed then is told to the watchers at once. */
  status: CrashStatus;
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

/**
 * How long a win's commit may take before its player is answered with a `pending` cashOutConfirmed: on PostgreSQL a
 * slow transaction (a lock held elsewhere, a slow connection) keeps its pass open, so the backlog's `held` never fires.
 */
export const CASH_OUT_PENDING_MS = 250;

/** A win decided and not yet committed: its bet, multiplier and payout (XRP). */
interface Won {
  bet: Bet<CrashParams>;
  hundredths: number;
  payout: number;
}

/**
 * The riders' wins of a flying round: each decided at its exact multiplier (the rider leaves, the round's profit counts
 * it), committed with the round's writes, and told once committed: to its player at once (cashOutConfirmed), to the
 * watchers at the next tick (tell). A player is never told of a win a kill could still void. While the commit waits
 * for the database (another process holds it, or it refused the write), or is still running after CASH_OUT_PENDING_MS,
 * the player is answered once with a `pending` cashOutConfirmed, and the committed one follows. What a tick reaches is
 * settled in the turn after it (afterTick), so the tick's publish is written first.
 */
export class CrashCashOuts {
  /** Committed cash-outs not yet told to the watchers. */
  private untold: CrashCashOut[] = [];
  /** The settlement a tick left for the next turn: up to which multiplier, and its cancel. */
  private settleAt = 0;
  private cancelLater: (() => void) | undefined;
  /** The cancels of the commits' pending deadlines (stop clears them; each commit its own). */
  private readonly deadlines = new Set<() => void>();

  constructor(private readonly deps: CrashCashOutDeps) {}

  /** Whether committed cash-outs wait to be told. */
  get waiting(): boolean {
    return this.untold.length > 0;
  }

  /**
   * A rider cashing out by hand at `hundredths`: what the flight reached before (automatic cash-outs, the cap) is won
   * first, then this one, all in one commit. False when `wallet` has no bet riding (what came before is still won).
   */
  cashOut(live: FlyingRound, wallet: string, hundredths: number): boolean {
    const wins = this.decideUpTo(live, hundredths);
    const bet = live.playing.get(wallet);
    if (bet) wins.push(this.winAt(live, bet, hundredths));
    this.commit(live, wins);
    return bet !== undefined;
  }

  /** Wins what the flight reached by `h` (see decideUpTo), in one commit. */
  settleUpTo(live: FlyingRound, h: number): void {
    this.commit(live, this.decideUpTo(live, h));
  }

  /**
   * After a tick at `h`: the automatic cash-outs (and the cap) it reached are settled in the next turn, once the tick is
   * written. Bun writes a publish when its turn ends, and their commits (70 at one tick held it back 26-61 ms with 2,000
   * and 10,000 watching) would run before. Each still wins at its own multiplier, is committed before its cashOutConfirmed
   * goes out, and is told to the watchers at the next tick; a cash-out or the crash in between settles first (settleUpTo).
   * A kill between the tick and the settlement leaves the wins untold and uncommitted: the round is voided and its bets
   * refunded at the next start, as any round a stop leaves running. `run` runs the step (CrashRounds' guard: a failure
   * is logged); the crash and a stop cancel it (cancel), so it runs only while the round flies.
   */
  afterTick(live: FlyingRound, h: number, run: (step: () => void) => void): void {
    if (!this.reached(live, h)) return;
    this.settleAt = Math.max(this.settleAt, h);
    this.cancelLater ??= this.deps.scheduler.after(0, () => run(() => this.settleReached(live)));
  }

  /** Cancels what a tick left for the next turn (the round's timers are cleared). */
  cancel(): void {
    this.cancelLater?.();
    this.cancelLater = undefined;
    this.settleAt = 0;
  }

  /** The round loop stops: no pending answer goes out after it (what waits is lost with the process, as a kill loses it). */
  stop(): void {
    for (const cancel of this.deadlines) cancel();
    this.deadlines.clear();
  }

  /**
   * Tells every watcher the cash-outs committed since the last tick, at the tick (or the crash): one `playerCashedOut`,
   * or one `playersCashedOut` for several. A crowd cashing out together is then one message per watching
   * socket, not one per cash-out (500 cash-outs at once to 10,000 spectators were 5 million messages).
   */
  tell(round: number): void {
    const players = this.untold.splice(0);
    if (players.length === 1) this.deps.channel.publish({ type: "playerCashedOut", round, ...players[0]! } satisfies CrashServerMessage);
    else if (players.length > 1) this.deps.channel.publish({ type: "playersCashedOut", round, players } satisfies CrashServerMessage);
  }

  /** The turn after a tick: settles what it reached (a cash-out may have done it since). */
  private settleReached(live: FlyingRound): void {
    const h = this.settleAt;
    this.cancelLater = undefined;
    this.settleAt = 0;
    this.settleUpTo(live, h);
  }

  /** Whether an automatic cash-out or the cap is reached at `h`. */
  private reached(live: FlyingRound, h: number): boolean {
    const { next, cap } = this.scan(live);
    return (cap !== undefined && cap <= h) || (next !== undefined && next.params.autoCashOut! <= h);
  }

  /**
   * Decides, in multiplier order, every auto cash-out and the max-profit cap reached by `h` (never past the crash
   * point): each at its exact multiplier. The cap is recomputed as riders leave, counting what they took.
   */
  private decideUpTo(live: FlyingRound, h: number): Won[] {
    const limit = Math.min(h, live.seed.crashHundredths);
    const wins: Won[] = [];
    for (;;) {
      const { next, cap } = this.scan(live);
      const target = next ? next.params.autoCashOut! : Infinity;
      if (cap !== undefined && cap <= limit && cap <= target) {
        this.deps.log.info("crash max profit reached", { round: live.round, cap, riders: live.playing.size });
        for (const bet of [...live.playing.values()]) wins.push(this.winAt(live, bet, cap));
        return wins;
      }
      if (!next || target > limit) return wins;
      wins.push(this.winAt(live, next, target));
    }
  }

  /**
   * One pass over the riders: the one with the lowest automatic cash-out, and the multiplier at which the round's whole
   * profit would pass the cap (engine: bustabit's rule; undefined with none riding).
   */
  private scan(live: FlyingRound): { next: Bet<CrashParams> | undefined; cap: number | undefined } {
    let riding = 0n;
    let next: Bet<CrashParams> | undefined;
    for (const bet of live.playing.values()) {
      riding += bet.amountDrops;
      const target = bet.params.autoCashOut;
      if (target !== null && (!next || target < next.params.autoCashOut!)) next = bet;
    }
    return { next, cap: maxProfitCapHundredths(riding, live.cashedOutProfitDrops, live.maxProfitDrops) };
  }

  /** A rider leaves at `hundredths`: decided now (the round's state changes); the caller commits it (commit), which tells it. */
  private winAt(live: FlyingRound, bet: Bet<CrashParams>, hundredths: number): Won {
    live.playing.delete(bet.wallet);
    const payoutDrops = multiplyFloor(bet.amountDrops, hundredths);
    live.cashedOutProfitDrops += payoutDrops - bet.amountDrops;
    const payout = dropsToXrpNumber(payoutDrops);
    live.players.set(bet.wallet, { ...playerOf(bet), hasCashedOut: true, cashOutMultiplier: hundredths / 100, payout });
    return { bet, hundredths, payout };
  }

  /**
   * Commits wins in one transaction of the round's writes (the automatic cash-outs of one multiplier, 70 in the capacity
   * bench's round, are one commit, not one each), then tells each recorded one and starts their payouts. On SQLite the
   * commit runs in this turn, so the player hears of it as soon as before; on PostgreSQL one transaction later. A commit
   * not done within CASH_OUT_PENDING_MS, or a write the database holds back (WriteBacklog's `held`), answers its players
   * once with `pending`, whichever comes first. A win the commit did not record (the bet was settled elsewhere: a new
   * leader voided the round and refunds it, betRefunded) is not told again.
   */
  private commit(live: FlyingRound, wins: Won[]): void {
    if (!wins.length) return;
    let recorded: Won[] = [];
    let answered = false;
    const answerPending = () => {
      cancelDeadline();
      if (answered) return;
      answered = true;
      for (const w of wins) this.confirm(live, w, true);
    };
    const cancelDeadline = this.deadline(answerPending);
    this.deps.writes.add(
      async (tx) => {
        recorded = [];
        for (const w of wins) if (await this.deps.bets.win(tx, w.bet.id, w.hundredths)) recorded.push(w);
      },
      () => {
        cancelDeadline();
        for (const w of recorded) {
          this.confirm(live, w, false);
          this.untold.push({ walletAddress: w.bet.wallet, multiplier: w.hundredths / 100, payout: w.payout });
        }
        // The crash told the watchers already: what it settled is told now (the next round opens after this commit).
        if (live.status !== "running") this.tell(live.round);
        this.deps.bets.kick();
      },
      answerPending,
    );
  }

  /** Runs `fn` after CASH_OUT_PENDING_MS on the round's scheduler unless cancelled first (or stopped); returns the cancel. */
  private deadline(fn: () => void): () => void {
    const cancel = this.deps.scheduler.after(CASH_OUT_PENDING_MS, () => {
      this.deadlines.delete(cancel);
      try {
        fn();
      } catch (err) {
        this.deps.log.error("crash pending cash-out answer failed", { error: err instanceof Error ? err.message : String(err) });
      }
    });
    this.deadlines.add(cancel);
    return () => {
      cancel();
      this.deadlines.delete(cancel);
    };
  }

  private confirm(live: FlyingRound, w: Won, pending: boolean): void {
    const message: CrashServerMessage = { type: "cashOutConfirmed", betId: w.bet.id, round: live.round, multiplier: w.hundredths / 100, payout: w.payout, txid: null };
    this.deps.channel.toPlayer(w.bet.wallet, pending ? { ...message, pending } : message);
  }
}
