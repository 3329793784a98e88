import type { CrashFairness, CrashRoundDetail as CrashRoundDetailView, CrashServerMessage } from "../../../shared/api/crash";
import type { GameMessage } from "../../../shared/channels";
import { CLIENT_COOKIE, clientToken } from "../../auth/cookies";
import type { Config } from "../../platform/config";
import type { DbOrTx } from "../../platform/db";
import type { LeaderCalls } from "../../platform/cluster/leaderCalls";
import { readModelsFor } from "../../platform/db/readModels";
import type { Hub, HubSocket } from "../../platform/ws/hub";
import type { Scheduler } from "../../platform/scheduler";
import type { SocketEndpoint } from "../../platform/ws";
import type { Sealer } from "../../platform/secrets";
import { ForbiddenError, NoLeaderError, NotFoundError, UnauthorizedError } from "../../platform/errors";
import { dropsToXrpNumber, formatHundredths } from "../../../engine";
import { Bankroll, GameBets, GameChannel, gameBetHistory, roundBetView, xrpText, type Bet, type GameSocketContext, type GameSocketDeps, type KitDeps } from "../kit";
import { CrashBurns } from "./burns";
import { CrashChains } from "./chain";
import { LedgerChainCommitter } from "./commitment";
import { CRASH_GAME, HISTORY_ROUNDS, multiplierOf, parseAutoCashOut, parseBetAmount, type CrashParams, type CrashRoundDetail } from "./model";
import { CrashRounds } from "./rounds";
import { betView, chainView, fairnessView, historyRoundView, roundView } from "./views";

export interface CrashDeps extends KitDeps {
  hub: Hub;
  scheduler: Scheduler;
  /** Seals the chains' seeds (DATA_DIR/seal.key). */
  sealer: Sealer;
  config: Pick<Config, "crashWaitMs" | "crashPauseMs" | "crashMaxProfitRatio" | "crashChainLength" | "cookieSecret">;
  /** The running round lives on the leader: cash-outs and its state are asked of it from any instance. */
  calls: LeaderCalls;
}

type CrashState = Extract<CrashServerMessage, { type: "gameState" }>;

/**
 * The Crash game as the composition root holds it: the kit's bets (XRP payments, payouts, refunds),
 * the rounds loop, the 1% burn, and the socket /ws/games/crash.
 */
export class CrashGame {
  readonly bets: GameBets<CrashParams>;
  readonly channel: GameChannel;
  readonly chains: CrashChains;
  /** The chains' commitments on the ledger (terminating hash in a memo, salt from a later ledger). */
  readonly commitments: LedgerChainCommitter;
  readonly burns: CrashBurns;
  readonly rounds: CrashRounds;
  readonly bankroll: Bankroll;
  private offs: (() => void)[] = [];

  constructor(private readonly deps: CrashDeps) {
    this.bets = new GameBets<CrashParams>(deps, {
      game: CRASH_GAME,
      signKind: "crash_bet",
      instruction: (drops, p) => `Crash bet of ${dropsToXrpNumber(drops)} XRP${p.autoCashOut ? ` (auto cash-out at ${formatHundredths(p.autoCashOut)}x)` : ""}`,
      place: async ({ db }) => ({ round: await this.rounds.placeRound(db) }),
    });
    this.channel = new GameChannel(deps.hub, CRASH_GAME);
    this.commitments = new LedgerChainCommitter(deps);
    this.chains = new CrashChains(deps.db, deps.clock, deps.log, deps.sealer, this.commitments, deps.config.crashChainLength, deps.scheduler);
    this.burns = new CrashBurns(deps);
    this.bankroll = new Bankroll(deps.ledger, deps.outbox);
    this.rounds = new CrashRounds({
      db: deps.db,
      clock: deps.clock,
      scheduler: deps.scheduler,
      log: deps.log,
      bets: this.bets,
      channel: this.channel,
      chains: this.chains,
      bankroll: this.bankroll,
      burns: this.burns,
      waitMs: deps.config.crashWaitMs,
      pauseMs: deps.config.crashPauseMs,
      maxProfitRatio: deps.config.crashMaxProfitRatio,
      notePlayed: deps.notePlayed,
      fence: deps.fence,
    });
    deps.calls.handle("crash.cashOut", ({ wallet }: { wallet: string }) => this.rounds.cashOut(wallet));
    deps.calls.handle("crash.state", () => this.rounds.state());
    this.rounds.onCrashed = () => void this.historyMessage().then((m) => this.channel.publish(m), (err) => deps.log.error("crash history not published", { error: String(err) }));
    // "VVX burned so far" is live on every page: a burn validates a ledger close or two after its round.
    this.burns.onSettled = () =>
      void this.burns.totals().then(
        ({ totalVvxBurned, totalXrpSpent, rounds }) => this.channel.publish({ type: "burnTotal", totalVvxBurned, totalXrpSpent, rounds } satisfies CrashServerMessage),
        (err) => deps.log.error("crash burn total not published", { error: String(err) }),
      );
    // What every socket gets on open, serialized once per change of the rounds or bets (a round ending, a bet placed or settled).
    const history = readModelsFor(deps.db).model(["game_rounds", "game_bets"], async () => JSON.stringify(await this.historyMessage()));
    this.historyText = () => history.get();
  }

  /** The gameHistory message's JSON as it is now (what a socket gets on open). */
  readonly historyText: () => Promise<string>;

  /** Follows payments, voids what a restart (or a dead leader) cut and runs rounds (CrashRounds.start: retried until it starts). */
  async start(): Promise<void> {
    this.bets.start();
    this.offs.push(
      this.bets.on("confirmed", (bet) => {
        this.channel.toPlayer(bet.wallet, { type: "betConfirmed", betId: bet.id, round: bet.round!, betAmount: dropsToXrpNumber(bet.amountDrops), autoCashOut: bet.params.autoCashOut === null ? null : bet.params.autoCashOut / 100, walletAddress: bet.wallet } satisfies CrashServerMessage);
        this.rounds.onConfirmed(bet);
      }),
      // A socket opened here, or in a cluster on another instance, wakes the idle ticker.
      this.channel.onWatched(() => this.rounds.watched()),
      this.bets.on("refunded", (bet) => this.toPlayerRefund(bet)),
      this.bets.on("paid", ({ bet, kind, txid }) => {
        if (kind === "refund") return this.toPlayerRefund(bet, txid);
        this.channel.toPlayer(bet.wallet, { type: "cashOutConfirmed", betId: bet.id, round: bet.round!, multiplier: bet.multiplierHundredths! / 100, payout: dropsToXrpNumber(bet.payoutDrops), txid } satisfies CrashServerMessage);
      }),
    );
    await this.rounds.start();
  }

  stop(): void {
    this.rounds.stop();
    for (const off of this.offs.splice(0)) off();
    this.bets.stop();
  }

  /** The highest round that ran (or was voided): every round whose outcome may have been shown. 0 before any. */
  lastShownRound(): Promise<number> {
    return this.bets.repo.lastShownRound();
  }

  /**
   * After the data went back (app/replay.ts): no chain position or round number already shown is played
   * again. Every chain's seed is erased (a new chain is published before the next round) and a voided
   * round takes number `shown` when it is known, so the next round comes after it.
   */
  async skipPast(db: DbOrTx, shown: number | undefined, reason: string): Promise<void> {
    await this.chains.retireAll(reason, db);
    if (shown !== undefined && (await this.bets.repo.lastRoundNumber(db)) < shown) {
      const now = this.deps.clock.date();
      await this.bets.repo.insertRound(db, { round: shown, status: "voided", openedAt: now, endedAt: now });
    }
  }

  /**
   * The hash chains' published facts (GET /api/crash/fairness). The leader's first start records its chain a
   * moment after the server listens (waited for here); another instance of a cluster reads what the leader
   * recorded, and answers 503 NO_LEADER while a new cluster's leader has recorded none yet.
   */
  async fairness(): Promise<CrashFairness> {
    if (this.deps.calls.leading) await this.chains.recorded();
    const chains = await this.chains.all();
    if (chains.length === 0) throw new NoLeaderError("The crash game's first hash chain is being published. Please try again in a moment.");
    return fairnessView(chains, await this.commitments.all(), this.treasury);
  }

  /** Rows for /history (registered where the app composes it). */
  history() {
    return gameBetHistory(this.deps.db, CRASH_GAME, "Crash");
  }

  /** POST /api/crash-bet/initiate and the socket's `bet`: a bet and its Xaman payment. */
  async initiate(wallet: string, body: { betAmount: unknown; autoCashOut?: unknown }, token?: string) {
    const amountDrops = parseBetAmount(body.betAmount);
    const autoCashOut = parseAutoCashOut(body.autoCashOut);
    const { bet, sign } = await this.bets.create({ wallet, amountDrops, params: { autoCashOut }, clientToken: token });
    return {
      xummUrl: sign.xummUrl,
      qrUrl: sign.qrUrl,
      betAmount: dropsToXrpNumber(amountDrops),
      betId: bet.id,
      uuid: sign.uuid,
      autoCashOut: autoCashOut === null ? null : autoCashOut / 100,
      destinationTag: bet.destinationTag,
      expiresAt: sign.expiresAt,
    };
  }

  /** Withdraws a bet nobody paid yet (the player closed the dialog) and its Xaman request; false when it was paid or ended. */
  async cancel(wallet: string, betId: string): Promise<boolean> {
    const bet = await this.bets.get(betId);
    if (!bet || bet.wallet !== wallet) throw new NotFoundError(`No crash bet ${betId} of this wallet`, "NOT_FOUND");
    const cancelled = await this.bets.cancel(betId, wallet);
    if (cancelled && bet.signUuid) {
      // Xaman refuses once the wallet opened the request; the withdrawn payment request refunds a late payment anyway.
      await this.deps.signing.cancel(bet.signUuid).catch(() => undefined);
    }
    return cancelled;
  }

  /** The account that commits the chains and pays the players. */
  get treasury(): string {
    return this.deps.ledger.platformAddress;
  }

  /** One finished or voided round with every bet (its page); 404 for an unknown round or one still being played. */
  async roundDetail(round: number): Promise<CrashRoundDetailView> {
    const row = await this.bets.repo.round(round);
    if (!row) throw new NotFoundError(`No crash round #${round}`, "ROUND_NOT_FOUND");
    if (row.status !== "finished" && row.status !== "voided") throw new NotFoundError(`Crash round #${round} is still being played: its hash is published when it crashes`, "ROUND_NOT_OVER");
    const bets = await this.bets.inRound(round);
    const detail = JSON.parse(row.detailJson) as CrashRoundDetail;
    const chain = (await this.chains.all()).find((c) => c.id === detail.chainId)!;
    return {
      success: true,
      round: roundView(row, bets),
      chain: chainView(chain, await this.commitments.of(chain.id)),
      maxProfit: detail.maxProfitDrops === undefined ? null : xrpText(BigInt(detail.maxProfitDrops)),
      bets: bets.map((b) => ({ ...roundBetView(b), autoCashOut: multiplierOf(b.params.autoCashOut) })),
    };
  }

  /** Finished rounds, newest first, with their players. */
  async pastRounds(limit: number, before?: number) {
    const rounds = await this.bets.repo.pastRounds(limit, before);
    return Promise.all(rounds.map(async (r) => roundView(r, await this.bets.inRound(r.round))));
  }

  async walletBets(wallet: string, limit: number, paidOnly = false) {
    return (await this.bets.ofWallet(wallet, limit, paidOnly)).map(betView);
  }

  async historyMessage(): Promise<CrashServerMessage> {
    return { type: "gameHistory", history: (await this.pastRounds(HISTORY_ROUNDS)).map(historyRoundView) };
  }

  /** The socket /ws/games/crash (spec §7): auth, keepalive, bet, cashOut. */
  socket(deps: GameSocketDeps): SocketEndpoint {
    return this.channel.socket(deps, {
      onOpen: async (ws) => {
        // Leading (always, alone): the round is in this process, sent in the open's own tick.
        this.channel.send(ws, this.deps.calls.leading ? this.rounds.state() : await this.state());
        this.channel.sendText(ws, await this.historyText());
      },
      onMessage: (ws, msg, ctx) => this.onMessage(ws, msg, ctx),
    });
  }

  private async onMessage(ws: HubSocket, msg: GameMessage, { wallet, cookies, limitPayload }: GameSocketContext): Promise<void> {
    switch (msg.type) {
      case "bet": {
        if (!wallet) throw new UnauthorizedError("Please connect your XUMM wallet to place a bet.");
        limitPayload();
        const token = clientToken(cookies.get(CLIENT_COOKIE), this.deps.config);
        const created = await this.initiate(wallet, { betAmount: msg.betAmount, autoCashOut: msg.autoCashOut }, token);
        return this.channel.send(ws, { type: "betPaymentRequest", ...created } satisfies CrashServerMessage);
      }
      case "cashOut": {
        if (!wallet) throw new UnauthorizedError("No wallet address available. Please reconnect your wallet.");
        if (msg.walletAddress !== undefined && msg.walletAddress !== wallet) throw new ForbiddenError("You may only cash out your own bet");
        return this.deps.calls.call("crash.cashOut", { wallet });
      }
      case "state":
        return this.channel.send(ws, await this.state());
      default:
        return this.channel.error(ws, "UNKNOWN_TYPE", `Unknown message type '${String(msg.type).slice(0, 40)}'`);
    }
  }

  /** The round's state with its players, from the leader (this instance's own rounds when it leads). */
  state(): Promise<CrashState> {
    return this.deps.calls.call<CrashState>("crash.state", {});
  }

  private toPlayerRefund(bet: Bet<CrashParams>, txid: string | null = null): void {
    this.channel.toPlayer(bet.wallet, { type: "betRefunded", betId: bet.id, reason: bet.reason ?? "refund", betAmount: dropsToXrpNumber(bet.amountDrops), txid } satisfies CrashServerMessage);
  }
}
