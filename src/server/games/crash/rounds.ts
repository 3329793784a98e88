import { hundredthsAtMs, msToReachHundredths, dropsToXrpNumber } from "../../../engine";
import type { CrashPlayer, CrashServerMessage } from "../../../shared/api/crash";
import { ConflictError } from "../../platform/errors";
import type { Clock } from "../../platform/clock";
import { probeWrite, reportIfCorrupt, sqliteOf, type Db, type DbOrTx } from "../../platform/db";
import { BACKLOG_RETRY_MS, WriteBacklog } from "../../platform/db/backlog";
import { RetryGate, retryUntilDone } from "../../platform/retry";
import type { Logger } from "../../platform/log";
import type { NotePlayed } from "../../platform/playedMarks";
import type { Scheduler } from "../../platform/scheduler";
import type { Bankroll, Bet, GameBets, GameChannel } from "../kit";
import type { CrashBurns } from "./burns";
import { BrokenChainError, type CrashChains } from "./chain";
import { CRASH_TICK_MS, PLAYERS_PUSH_MS, type CrashParams, type CrashRoundDetail } from "./model";
import { CrashCashOuts, type FlyingRound } from "./cashOuts";
import { playerOf } from "./views";

export interface CrashRoundDeps {
  db: Db;
  clock: Clock;
  /** The round's timers and elapsed time (tests move it instead of sleeping). */
  scheduler: Scheduler;
  log: Logger;
  bets: GameBets<CrashParams>;
  channel: GameChannel;
  chains: CrashChains;
  bankroll: Bankroll;
  burns: CrashBurns;
  waitMs: number;
  pauseMs: number;
  maxProfitRatio: number;
  /** Told a round runs (its outcome starts to show), after the commit and before the first push. */
  notePlayed: NotePlayed;
  fence?: (tx: Db) => Promise<void>; // in a cluster: a deposed leader's round writes are refused (Leadership.fence)
}

/** The round being played (or counted down, or just crashed); its riders and cap are the cash-outs' (FlyingRound). */
interface Live extends FlyingRound {
  /** Scheduler time when the countdown ends / the round started (in-process durations, not the product clock). */
  countdownEnds: number;
  startedPerf: number;
  /** Product clock at the start, for the record and clients. */
  startedAt: number | null;
  endedMs: number;
  /** Players not yet told to the watchers (tellJoined): the list itself goes out only in a socket's first gameState. */
  joined: CrashPlayer[];
}

/**
 * The crash rounds, decided on the server only: waiting (a countdown of CRASH_WAIT_MS) -> running
 * (multiplier e^(0.00006 t) from the engine, ticks 10 a second, the crash timed to the millisecond) ->
 * crashed at the round's chain crash point -> a pause of CRASH_PAUSE_MS -> the next round. Cash-outs are
 * decided at the multiplier of the moment they arrive; auto cash-outs and the max-profit cap at their exact
 * multiplier. Each payout is one outbox entry (kit), the losses and the 1% burn commit with the round's end.
 */
export class CrashRounds {
  private live: Live | undefined;
  /** Cancels of the round's timers (its next step and its ticker). */
  private timers: (() => void)[] = [];
  /** The flight's ticker (ticks and automatic cash-outs), running only while someone watches or rides (startTicker). */
  private ticker: (() => void) | undefined;
  private lastBankrollDrops: bigint | undefined;
  private playersPush: (() => void) | undefined;
  private stopped = true;
  /** Counts start() calls: a chain load of an earlier start never opens a round. */
  private runs = 0;
  /**
   * The round's writes (wins, the crash): a decision is made at its moment (the crash told then, a win once committed:
   * CrashCashOuts), then committed in order; while another process holds the database they wait and are retried, and
   * the round goes on.
   */
  private readonly writes: WriteBacklog;
  /** The riders' wins (decided at their moment, committed with the round's writes, then told); the capacity bench's turn probe wraps them. */
  readonly cashOuts: CrashCashOuts;
  /** Set by drain(): resolves once no round is left to play out. */
  private drained: (() => void) | undefined;

  constructor(private readonly deps: CrashRoundDeps) {
    this.writes = new WriteBacklog(deps.db, "crash rounds", deps.log, deps.fence);
    this.cashOuts = new CrashCashOuts({ writes: this.writes, bets: deps.bets, channel: deps.channel, scheduler: deps.scheduler, log: deps.log });
  }

  /** The round a bet confirmed now joins: the counting-down one while its row is open (read in the credit's transaction: see run), else the next (spec §4). */
  async placeRound(db: DbOrTx): Promise<number> {
    const live = this.live;
    if (!live) return (await this.deps.bets.repo.lastRoundNumber(db)) + 1;
    const open = live.status === "waiting" && (await this.deps.bets.repo.round(live.round, db))?.status === "open";
    return open ? live.round : live.round + 1;
  }

  /**
   * Voids what a previous leader or run left unfinished, loads (or makes) the chain, then opens the first round.
   * The chain's walk runs in slices after the server listens; no round opens before it ends, so every round's hash
   * is checked against the published terminating hash. A failed start is tried again (a RetryGate on the scheduler) until
   * stop(), but for a chain failing that check. Resolves once the first voiding ended (at once if the database refused it).
   */
  start(): Promise<void> {
    this.stopped = false;
    const run = ++this.runs;
    const cancelled = () => this.stopped || run !== this.runs;
    let first: Promise<unknown> | undefined;
    this.cancelRetry?.();
    const gate = new RetryGate("crash rounds start", this.deps.log, sqliteOf(this.deps.db), { now: () => this.deps.scheduler.now() });
    this.cancelRetry = retryUntilDone(gate, this.deps.scheduler, async () => {
      const began = performance.now();
      const voided = this.deps.bets.voidInterrupted();
      first ??= voided.catch(() => undefined);
      // Begun in this tick (the round number is read once the voiding committed): chains.ready() waits for it.
      const loading = this.deps.chains.load(voided.then(() => this.deps.bets.repo.lastRoundNumber()).then((n) => n + 1), cancelled);
      // A chain failing its check is the one failure trying again cannot mend: said once, and the start ends there.
      const loaded = await loading.catch((err: unknown) => {
        if (!(err instanceof BrokenChainError)) throw err;
        this.deps.log.error("crash rounds not started: trying again cannot mend it", { error: err.message });
      });
      if (!loaded || cancelled()) return;
      this.deps.log.info("crash chain ready", { ms: Math.round(performance.now() - began) });
      await this.openNext();
    });
    return first ? first.then(() => undefined) : Promise.resolve();
  }

  /** Ends a failed start's tries (stop, or a new start). */
  private cancelRetry: (() => void) | undefined;

  /**
   * Before a restart: no new round opens. The round under way plays out (a counting-down one only when it
   * has players); resolves once none is left, so a restart voids nothing that could finish.
   */
  drain(): Promise<void> {
    return new Promise((resolve) => {
      this.drained = resolve;
      this.checkDrained();
    });
  }

  private checkDrained(): void {
    const live = this.live;
    if (!this.drained || this.writes.waiting > 0 || (live && live.status !== "crashed" && !(live.status === "waiting" && live.players.size === 0))) return;
    if (live?.status === "waiting") this.clearTimers();
    this.drained();
  }

  /** Stops the loop; a round left open or running is voided (and its bets refunded) at the next start. */
  stop(): void {
    this.stopped = true;
    this.cancelRetry?.();
    this.deps.chains.stop();
    this.writes.stop();
    this.clearTimers();
    this.cashOuts.stop();
    this.playersPush?.();
    this.playersPush = undefined;
  }

  /**
   * The current state message with the whole players list (a new socket gets it first). `withPlayers`
   * false: the one every watcher gets, the list left out (it follows as playersJoined and cash-outs).
   */
  state(withPlayers = true): Extract<CrashServerMessage, { type: "gameState" }> {
    const live = this.live;
    const now = this.deps.scheduler.now();
    if (!live) {
      return { type: "gameState", status: "waiting", round: 0, countdown: 0, startedAt: null, elapsedMs: 0, currentMultiplier: 1, players: withPlayers ? [] : undefined, playerCount: 0, crashPoint: null, hash: null, maxProfit: 0, serverTime: Date.now() };
    }
    const crashed = live.status === "crashed";
    const elapsedMs = live.status === "running" ? Math.max(0, now - live.startedPerf) : crashed ? live.endedMs : 0;
    return {
      type: "gameState",
      status: live.status,
      round: live.round,
      countdown: live.status === "waiting" ? Math.max(0, Math.ceil((live.countdownEnds - now) / 1000)) : 0,
      startedAt: live.startedAt,
      elapsedMs: Math.round(elapsedMs),
      currentMultiplier: crashed ? live.seed.crashHundredths / 100 : Math.min(hundredthsAtMs(elapsedMs), live.seed.crashHundredths - 1) / 100,
      players: withPlayers ? [...live.players.values()] : undefined,
      playerCount: live.players.size,
      crashPoint: crashed ? live.seed.crashHundredths / 100 : null,
      hash: crashed ? live.seed.hash : null,
      maxProfit: dropsToXrpNumber(live.maxProfitDrops),
      serverTime: Date.now(),
    };
  }

  /** Milliseconds left of the countdown (0 unless waiting). */
  countdownLeftMs(): number {
    return this.live?.status === "waiting" ? Math.max(0, this.live.countdownEnds - this.deps.scheduler.now()) : 0;
  }

  /** Milliseconds the running round has flown (0 unless running). */
  flightMs(): number {
    return this.live?.status === "running" ? this.deps.scheduler.now() - this.live.startedPerf : 0;
  }

  /**
   * A confirmed bet of the counting-down round joins its players list; the new players go out at most every
   * PLAYERS_PUSH_MS as one playersJoined (a ledger crediting 200 bets at once is one message of 200 players).
   */
  onConfirmed(bet: Bet<CrashParams>): void {
    const live = this.live;
    if (!live || live.status !== "waiting" || bet.round !== live.round) return;
    this.join(live, playerOf(bet));
    if (this.playersPush) return;
    this.playersPush = this.deps.scheduler.after(PLAYERS_PUSH_MS, () => {
      this.playersPush = undefined;
      if (this.live === live) this.tellJoined(live);
    });
  }

  private join(live: Live, player: CrashPlayer): void {
    live.players.set(player.walletAddress, player);
    live.joined.push(player);
  }

  /** Tells every watcher the players joined since the last time, in one playersJoined. */
  private tellJoined(live: Live): void {
    const players = live.joined.splice(0);
    if (players.length > 0) this.deps.channel.publish({ type: "playersJoined", round: live.round, players } satisfies CrashServerMessage);
  }

  /**
   * The state every watcher gets: without the players list, so 10,000 sockets are not sent 1,000 players
   * each second; the players not yet told go out just before it (a watcher's count matches its list).
   */
  private publishState(live: Live): void {
    this.tellJoined(live);
    this.deps.channel.publish(this.state(false));
  }

  /**
   * A manual cash-out at the multiplier of this moment; before the crash only. Throws a ConflictError with
   * the spec's texts when the wallet has no bet riding (never bet, already cashed out, or too late).
   */
  cashOut(wallet: string): void {
    const live = this.live;
    if (!live || live.status !== "running") throw new ConflictError("NO_ACTIVE_BET", "You don't have an active bet in this round.");
    const h = hundredthsAtMs(this.deps.scheduler.now() - live.startedPerf);
    if (h >= live.seed.crashHundredths) {
      // The crash's moment has passed even if its timer has not run yet: it crashes now, the cash-out is too late.
      this.crash();
      throw new ConflictError("ROUND_CRASHED", `Too late: the round crashed at ${(live.seed.crashHundredths / 100).toFixed(2)}x.`);
    }
    if (this.cashOuts.cashOut(live, wallet, h)) return;
    if (live.players.get(wallet)?.hasCashedOut) throw new ConflictError("ALREADY_CASHED_OUT", "You've already cashed out in this round.");
    throw new ConflictError("NO_ACTIVE_BET", "You don't have an active bet in this round.");
  }

  // --- The loop ---------------------------------------------------------------------

  /**
   * Opens the next round once every write of the round before has committed (the pass writing them ends: the
   * pause timer finds them awaiting their reads) and the database takes its row; else tries every BACKLOG_RETRY_MS.
   */
  private async openNext(): Promise<void> {
    if (this.stopped || this.drained) return;
    this.clearTimers();
    if (this.writes.waiting > 0) await this.writes.written();
    if (this.stopped || this.drained) return;
    const sqlite = sqliteOf(this.deps.db);
    const blocked = this.writes.waiting > 0 ? "the last round's writes wait" : sqlite && probeWrite(sqlite);
    if (!blocked) {
      try {
        return await this.openRound();
      } catch (err) {
        reportIfCorrupt(err);
        this.deps.log.warn("crash round not opened; trying again", { error: err instanceof Error ? err.message : String(err) });
      }
    }
    const retry = setTimeout(() => void this.openNext(), BACKLOG_RETRY_MS);
    this.timers.push(() => clearTimeout(retry));
  }

  private async openRound(): Promise<void> {
    const round = (await this.deps.bets.repo.lastRoundNumber()) + 1;
    // Past a used-up chain, the next one is committed on the ledger and salted first: the round opens once it is.
    if (!this.deps.chains.readyFor(round)) return void this.timers.push(this.deps.scheduler.after(1000, () => void this.openNext()));
    const seed = this.deps.chains.seedFor(round);
    const detail: CrashRoundDetail = { hash: seed.hash, crashHundredths: seed.crashHundredths, chainId: seed.chainId, gameNumber: seed.gameNumber };
    const joined = await this.deps.db.transaction(async (tx) => {
      await this.deps.bets.repo.insertRound(tx, { round, status: "open", detailJson: JSON.stringify(detail), openedAt: this.deps.clock.date() });
      // Bets confirmed while the previous round ran joined this one.
      return this.deps.bets.inRound(round, tx);
    });
    if (this.stopped) return;
    const live: Live = { round, status: "waiting", seed, countdownEnds: this.deps.scheduler.now() + this.deps.waitMs, startedPerf: 0, startedAt: null, endedMs: 0, maxProfitDrops: this.maxProfitNow(), cashedOutProfitDrops: 0n, playing: new Map(), players: new Map(), joined: [] };
    for (const bet of joined) this.join(live, playerOf(bet));
    this.live = live;
    // The card shows this round's max profit while it waits; it is fixed again at the start.
    void this.refreshBankroll().then(() => {
      if (this.live !== live || live.status !== "waiting") return;
      live.maxProfitDrops = this.maxProfitNow();
      this.publishState(live);
    });
    this.publishState(live);
    const start = () => this.guard("start", () => void (this.stepping = this.run().catch((err) => this.stepFailed("start", err))));
    this.timers.push(this.deps.scheduler.every(1000, () => this.publishState(live)), this.deps.scheduler.at(live.countdownEnds, start));
  }

  /** The cap is a share of the bankroll at the start (0 when it was never read: bets then return at 1.00x at most). */
  private maxProfitNow(): bigint {
    const bankroll = this.lastBankrollDrops ?? 0n;
    return (bankroll * BigInt(Math.round(this.deps.maxProfitRatio * 1_000_000))) / 1_000_000n;
  }

  private async refreshBankroll(): Promise<void> {
    try {
      this.lastBankrollDrops = await this.deps.bankroll.spendableDrops();
    } catch (err) {
      this.deps.log.warn("crash bankroll unavailable; using the last one", { error: err instanceof Error ? err.message : String(err) });
    }
  }

  private async run(): Promise<void> {
    const live = this.live;
    if (!live || this.stopped) return;
    this.clearTimers();
    live.maxProfitDrops = this.maxProfitNow();
    live.status = "running";
    live.startedPerf = this.deps.scheduler.now();
    live.startedAt = this.deps.clock.now();
    this.playersPush?.();
    this.playersPush = undefined;
    const detail: CrashRoundDetail = { hash: live.seed.hash, crashHundredths: live.seed.crashHundredths, chainId: live.seed.chainId, gameNumber: live.seed.gameNumber, maxProfitDrops: live.maxProfitDrops.toString() };
    // Marked running where its bets are read: a credit that chose this round (placeRound) committed before, or runs again and
    // sees it running (SQLite's one writer orders the two; on PostgreSQL they conflict and the one committing second runs again).
    const bets = await this.deps.db.transaction(async (tx) => {
      await this.deps.bets.repo.updateRound(tx, live.round, { status: "running", startedAt: new Date(live.startedAt!), detailJson: JSON.stringify(detail) });
      return this.deps.bets.inRound(live.round, tx);
    });
    if (this.live !== live || this.stopped) return;
    for (const bet of bets) {
      if (bet.status !== "confirmed") continue;
      live.playing.set(bet.wallet, bet);
      if (!live.players.has(bet.wallet)) this.join(live, playerOf(bet));
    }
    // Marked played (outside the database) before anyone is told the round flies: a restored backup never replays it.
    this.deps.notePlayed("crash", live.round);
    this.publishState(live);
    this.timers.push(this.deps.scheduler.at(live.startedPerf + msToReachHundredths(live.seed.crashHundredths), () => this.guard("crash", () => this.crash())));
    this.startTicker();
  }

  /** A socket began watching the game: a flight nobody watched (and nobody rides) ticks again. */
  watched(): void {
    this.startTicker();
  }

  /**
   * Ticks every CRASH_TICK_MS while the round flies. With nobody watching and nobody riding there is nothing
   * to tell or pay, so the ticker stops (tick) until a socket opens (watched): an idle server does not wake
   * ten times a second (the crash itself has its own timer). In a cluster, every instance's sockets count (ClusterWatchers).
   */
  private startTicker(): void {
    if (this.ticker || this.stopped || this.live?.status !== "running") return;
    this.ticker = this.deps.scheduler.every(CRASH_TICK_MS, () => this.guard("tick", () => this.tick()));
  }

  private stopTicker(): void {
    this.ticker?.();
    this.ticker = undefined;
  }

  private tick(): void {
    const live = this.live;
    if (!live || live.status !== "running") return;
    if (live.playing.size === 0 && !this.cashOuts.waiting && !this.deps.channel.watchedAnywhere) return this.stopTicker();
    const elapsedMs = this.deps.scheduler.now() - live.startedPerf;
    const h = hundredthsAtMs(elapsedMs);
    if (h >= live.seed.crashHundredths) return this.crash();
    this.cashOuts.tell(live.round);
    this.deps.channel.publish({ type: "tick", round: live.round, elapsedMs: Math.round(elapsedMs), currentMultiplier: h / 100, serverTime: Date.now() } satisfies CrashServerMessage);
    this.cashOuts.afterTick(live, h, (step) => this.guard("settle", step));
  }

  /** The crash: what is still riding loses; the round, the losses and the burn commit together; then the pause. */
  private crash(): void {
    const live = this.live;
    if (!live || live.status !== "running") return;
    this.clearTimers();
    this.cashOuts.settleUpTo(live, live.seed.crashHundredths);
    this.cashOuts.tell(live.round);
    live.status = "crashed";
    live.endedMs = Math.round(this.deps.scheduler.now() - live.startedPerf);
    const riders = [...live.playing.values()];
    live.playing.clear();
    const endedAt = this.deps.clock.date();
    let burn: unknown;
    this.writes.add(
      async (tx) => {
        for (const bet of riders) await this.deps.bets.lose(tx, bet.id);
        await this.deps.bets.repo.updateRound(tx, live.round, { status: "finished", endedAt });
        const total = (await this.deps.bets.inRound(live.round, tx)).reduce((n, b) => n + b.amountDrops, 0n);
        burn = await this.deps.burns.record(tx, live.round, total);
      },
      () => {
        if (burn) this.deps.bets.kick();
        // The round is in the books: its history goes out (the game publishes it), and a drain may end.
        this.onCrashed?.(live.round);
        this.checkDrained();
      },
    );
    this.deps.log.info("crash round crashed", { round: live.round, crash: live.seed.crashHundredths, players: live.players.size, lost: riders.length });
    this.publishState(live);
    this.checkDrained();
    this.timers.push(this.deps.scheduler.after(this.deps.pauseMs, () => void (this.stepping = this.openNext())));
  }

  /** Resolves once the step a timer began (a start reading its bets, the next round opening) and the writes it queued have ended; never rejects (tests moving the scheduler wait for it). */
  async settled(): Promise<void> {
    await this.stepping;
    await this.writes.written();
  }

  /** A timer's step that fails (a bug, a read refused) is logged; the loop goes on with its next timer. */
  private guard(step: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.stepFailed(step, err);
    }
  }

  private stepFailed(step: string, err: unknown): void {
    reportIfCorrupt(err);
    this.deps.log.error("crash round step failed", { step, round: this.live?.round, error: err instanceof Error ? err.message : String(err) });
  }

  /** The step a timer began last (see settled). */
  private stepping: Promise<void> = Promise.resolve();

  /** Called after each crash (the game publishes gameHistory). */
  onCrashed: ((round: number) => void) | undefined;

  private clearTimers(): void {
    for (const cancel of this.timers.splice(0)) cancel();
    this.stopTicker();
    this.cashOuts.cancel();
  }
}
