import { UNICORNS, dropsToXrpNumber } from "../../../engine";
import type { BetInitiateResponse, RaceDetail, RacingServerMessage } from "../../../shared/api/racing";
import type { Config } from "../../platform/config";
import type { DbOrTx } from "../../platform/db";
import { readModelsFor } from "../../platform/db/readModels";
import { ConflictError, NotFoundError } from "../../platform/errors";
import type { Hub, HubSocket } from "../../platform/ws/hub";
import type { Scheduler } from "../../platform/scheduler";
import { BET_REFUND_REASON, Bankroll, GameBets, GameChannel, gameBetHistory, roundBetView, type Bet, type KitDeps } from "../kit";
import { RacingBetRules, TEXT, initiateView, parseBetDrops, type RaceBetParams } from "./bets";
import { HISTORY_ON_CONNECT, RACING_PUSH_MS, parseUnicorn, type RaceStatus } from "./model";
import { RacingRepository, type RaceRow } from "./repository";
import { RaceRounds } from "./rounds";
import { playerView, raceRecord, raceStateView } from "./views";

/** The game's name in the kit: bets' purpose `unicorn-racing-bet`, the socket /ws/games/unicorn-racing. */
export const RACING_GAME = "unicorn-racing";

export interface RacingDeps extends KitDeps {
  hub: Hub;
  scheduler: Scheduler;
  config: Pick<Config, "racing">;
}

/** What a bet's payment status is, told to the player (the spec's statuses; the reason says why it failed). */
function statusOf(bet: Bet<RaceBetParams>): { status: "pending" | "confirmed" | "failed" | "timeout" | "canceled"; reason: string | null } {
  switch (bet.status) {
    case "awaiting_payment":
      return { status: "pending", reason: null };
    case "confirmed":
    case "won":
    case "lost":
      return { status: "confirmed", reason: null };
    case "expired":
      return { status: "timeout", reason: "expired" };
    case "cancelled":
      return { status: "canceled", reason: bet.reason };
    default:
      return { status: "failed", reason: bet.reason };
  }
}

/**
 * Unicorn Racing: the round loop (rounds.ts), the bets through the games kit (bets.ts), and the
 * socket /ws/games/unicorn-racing. Public messages (gameState, raceHistory) go to everyone watching;
 * private ones (betPaymentRequest, paymentStatus, betConfirmed, raceResult, payout) to the bettor's
 * sockets only. Every push is one server.publish through the hub.
 */
export class RacingGame {
  readonly repo: RacingRepository;
  readonly bets: GameBets<RaceBetParams>;
  readonly channel: GameChannel;
  readonly rounds: RaceRounds;
  readonly rules: RacingBetRules;
  /** Cancels the push timer (on the games' scheduler). */
  private cancelPushes: (() => void) | undefined;
  private offs: (() => void)[] = [];
  private lastPush = 0;
  private stopped = false;

  constructor(private readonly deps: RacingDeps) {
    this.repo = new RacingRepository(deps.db);
    this.rules = new RacingBetRules({ bankroll: new Bankroll(deps.ledger, deps.outbox), log: deps.log }, this.repo);
    this.bets = new GameBets<RaceBetParams>(deps, {
      game: RACING_GAME,
      signKind: "racing_bet",
      instruction: (drops, p) => `Bet ${dropsToXrpNumber(drops)} XRP on ${UNICORNS[p.unicorn]!.name} in Unicorn Racing race #${p.round}`,
      place: (ctx) => this.rules.place(ctx, this.bets),
    });
    this.channel = new GameChannel(deps.hub, RACING_GAME);
    this.rounds = new RaceRounds({ ...deps, config: deps.config.racing }, this.repo, {
      lastBetLedger: (db, round) => this.bets.repo.lastBetLedger(db, round),
      paymentsProcessedThrough: async (ledger) => ((await deps.payments.cursor())?.ledgerIndex ?? 0) >= ledger,
      settle: (db, race) => this.rules.settle(db, this.bets, race),
    });
    // What every socket gets on open, serialized once per change of the races (a race finishing).
    const history = readModelsFor(deps.db).model(["racing_races"], async () => JSON.stringify(await this.raceHistory()));
    this.raceHistoryText = () => history.get();
  }

  /** The raceHistory message's JSON as it is now. */
  readonly raceHistoryText: () => Promise<string>;

  /** The latest finished races, as sockets get them on open and after each race. */
  async raceHistory(): Promise<RacingServerMessage> {
    return { type: "raceHistory", data: await this.races(HISTORY_ON_CONNECT) };
  }

  start(): void {
    this.stopped = false;
    this.bets.start();
    this.offs.push(
      this.bets.on("confirmed", (bet) => {
        this.toPlayer(bet.wallet, { type: "paymentStatus", betId: bet.id, status: "confirmed", reason: null, message: null, txid: bet.paymentTxHash });
        this.toPlayer(bet.wallet, { type: "betConfirmed", betId: bet.id, betAmount: dropsToXrpNumber(bet.amountDrops), unicornName: UNICORNS[bet.params.unicorn]!.name, round: bet.round! });
        this.pushStateSoon();
      }),
      this.bets.on("refunded", (bet) => this.pushPayment(bet)),
      this.bets.on("expired", (bet) => this.pushPayment(bet)),
      this.bets.on("paid", ({ bet, kind, txid, failed }) => {
        if (kind === "payout") this.toPlayer(bet.wallet, { type: "payout", betId: bet.id, round: bet.round!, status: failed ? "failed" : "validated", txid, amount: dropsToXrpNumber(bet.payoutDrops ?? 0n) });
      }),
      this.rounds.on("changed", (race) => void this.onRaceChanged(race).catch((err) => this.deps.log.error("racing push failed", { round: race.round, error: String(err) }))),
      // The treasury moves only by a validated transaction of the platform's accounts (its stream shows each one).
      this.deps.ledger.on("transaction", () => this.rules.refreshBankroll()),
      this.deps.ledger.on("ledgerClosed", () => this.rules.ledgerClosed()),
    );
    this.offs.push(
      this.deps.ledger.on("connected", () => this.rules.refreshBankroll()),
      this.channel.onWatched(() => this.watched()),
    );
    this.rounds.start();
    this.watched();
  }

  /**
   * Positions for clients that do not run the engine: every RACING_PUSH_MS while racing, each second otherwise,
   * while anyone, on any instance, watches. The leader pushes them (its races: a follower runs no timer); the timer
   * stops when nobody watches (an idle server does not wake twice a second) and starts again when a socket opens
   * (the channel's onWatched). It beats on the games' scheduler (tests move it).
   */
  private watched(): void {
    if (this.stopped) return;
    const { scheduler } = this.deps;
    this.cancelPushes ??= scheduler.every(RACING_PUSH_MS, () => {
      if (!this.channel.watchedAnywhere) return this.stopPushes();
      const racing = this.rounds.current?.status === "racing";
      if (racing || scheduler.now() - this.lastPush >= 1000) this.pushStateSoon();
    });
  }

  private stopPushes(): void {
    this.cancelPushes?.();
    this.cancelPushes = undefined;
  }

  stop(): void {
    this.stopped = true;
    this.stopPushes();
    this.rounds.stop();
    this.bets.stop();
    for (const off of this.offs.splice(0)) off();
  }

  /** The current race's gameState message. */
  async gameState(): Promise<RacingServerMessage | undefined> {
    const race = this.rounds.current ?? (await this.repo.current());
    if (!race) return undefined;
    const players = (await this.bets.inRound(race.round)).map((b) => playerView({ wallet: b.wallet, round: race.round, unicorn: b.params.unicorn, amountDrops: b.amountDrops, wonDrops: b.status === "won" ? (b.payoutDrops ?? 0n) : null }));
    return { type: "gameState", data: { raceState: raceStateView(race, this.rounds.outcomeOf(race), this.deps.clock.now()), players, currentRound: race.round } };
  }

  /** The highest race that started (or was voided): every race whose seed may have been shown. 0 before any. */
  lastShownRound(): Promise<number> {
    return this.repo.lastShownRound();
  }

  /**
   * After the data went back (app/replay.ts): no race number or seed already shown is used again. The
   * race in progress is voided and its bets refunded when it may have been shown (its number is at most
   * `shown`, or `shown` is unknown); a voided race takes number `shown`, so the next countdown follows it.
   */
  async skipPast(db: DbOrTx, shown: number | undefined): Promise<void> {
    const now = this.deps.clock.date();
    const race = await this.repo.race(await this.repo.lastRound(db), db);
    if (race && race.status !== "finished" && race.status !== "voided" && (shown === undefined || race.round <= shown)) {
      await this.repo.updateRace(db, race.round, race.status as RaceStatus, { status: "voided", finishedAt: now });
      for (const bet of await this.bets.inRound(race.round, db)) await this.bets.refund(db, bet.id, BET_REFUND_REASON.roundVoided);
    }
    if (shown !== undefined && (await this.repo.lastRound(db)) < shown) {
      const none = "";
      const multipleHundredths = Math.round(this.deps.config.racing.payoutMultiple * 100);
      await this.repo.insertRace(db, { round: shown, status: "voided", serverSeed: none, serverSeedHash: none, multipleHundredths, countdownAt: now, betsCloseAt: now, startsAt: now, finishedAt: now });
    }
  }

  /** Finished races, newest first (before round `before` when given). */
  async races(limit: number, before?: number) {
    return (await this.repo.finished(limit, before)).map(raceRecord);
  }

  /** One finished race with every bet (its page); 404 for an unknown race or one still being run. */
  async raceDetail(round: number): Promise<RaceDetail> {
    const race = await this.repo.race(round);
    if (!race) throw new NotFoundError(`No race #${round}`, "ROUND_NOT_FOUND");
    if (race.status !== "finished") throw new NotFoundError(`Race #${round} is still being run: its seeds are published when it starts`, "ROUND_NOT_OVER");
    const bets = (await this.bets.inRound(round)).filter((b) => b.status !== "awaiting_payment");
    return {
      success: true,
      race: raceRecord(race),
      closeLedger: race.closeLedger!,
      bets: bets.map((b) => ({ ...roundBetView(b), unicornName: UNICORNS[b.params.unicorn]!.name })),
    };
  }

  /** POST /api/unicorn-bet/initiate after the session check: the spec's order of checks, the liability guard, then the payment request. */
  async initiate(wallet: string, body: { betAmount?: unknown; unicornName?: unknown }, clientToken?: string): Promise<BetInitiateResponse> {
    const race = await this.repo.current();
    if (race && (await this.bets.repo.walletBetInRound(this.deps.db, wallet, race.round))) throw new ConflictError("RACE_ALREADY_BET", TEXT.alreadyBet);
    if (!race || race.status !== "waiting" || this.deps.clock.now() >= race.betsCloseAt.getTime()) throw new ConflictError("RACE_BETTING_CLOSED", TEXT.duringRace);
    const amountDrops = parseBetDrops(body.betAmount);
    const unicorn = parseUnicorn(body.unicornName);
    await this.rules.guard(this.bets, race, { amountDrops, unicorn });
    const { bet, sign } = await this.bets.create({ wallet, amountDrops, params: { unicorn, round: race.round }, clientToken });
    const view = initiateView(bet, sign);
    this.toPlayer(wallet, { type: "betPaymentRequest", data: view });
    return view;
  }

  /** A player's own bet of the current race, told again (after auth or betCreated). */
  tellBet(socket: HubSocket, bet: Bet<RaceBetParams>): void {
    const { status, reason } = statusOf(bet);
    this.channel.send(socket, { type: "paymentStatus", betId: bet.id, status, reason, message: null, txid: bet.paymentTxHash });
  }

  /** Rows of the transaction history: each paid bet and each win, refunds being listed with every refund. */
  history() {
    const multiple = (b: { multiplierHundredths: number | null }) => (b.multiplierHundredths ?? 0) / 100;
    return gameBetHistory(this.deps.db, RACING_GAME, "Unicorn Racing", { win: (b) => `Unicorn Racing round #${b.round}: your unicorn won, ${multiple(b)}x payout` });
  }

  private toPlayer(wallet: string, message: RacingServerMessage): void {
    this.channel.toPlayer(wallet, message);
  }

  private pushPayment(bet: Bet<RaceBetParams>): void {
    const { status, reason } = statusOf(bet);
    this.toPlayer(bet.wallet, { type: "paymentStatus", betId: bet.id, status, reason, message: null, txid: null });
  }

  /** pushState, its failure logged (a timer's or a listener's call). */
  pushStateSoon(): void {
    void this.pushState().catch((err) => this.deps.log.error("racing state not pushed", { error: String(err) }));
  }

  async pushState(): Promise<void> {
    // Nobody watching anywhere: no state to build (its players come from the database).
    if (!this.channel.watchedAnywhere) return;
    this.lastPush = this.deps.scheduler.now();
    const state = await this.gameState();
    if (state) this.channel.publish(state);
  }

  private async onRaceChanged(race: RaceRow): Promise<void> {
    await this.pushState();
    if (race.status !== "finished") return;
    this.bets.kick();
    this.channel.publish(await this.raceHistory());
    const winner = UNICORNS[race.winnerIndex!]!.name;
    for (const bet of await this.bets.inRound(race.round)) {
      const payout = bet.status === "won" ? (bet.payoutDrops ?? 0n) : 0n;
      this.toPlayer(bet.wallet, {
        type: "raceResult",
        betId: bet.id,
        round: race.round,
        isWinner: bet.status === "won",
        unicornName: UNICORNS[bet.params.unicorn]!.name,
        profit: dropsToXrpNumber(payout - bet.amountDrops),
        payout: dropsToXrpNumber(payout),
        winningUnicorn: winner,
      });
    }
  }
}
