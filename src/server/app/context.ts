import type { AuthService } from "../auth/service";
import type { PayloadLimits } from "../auth/limits";
import type { LedgerGateway } from "../ledger/gateway";
import type { Outbox } from "../ledger/outbox";
import type { NftService } from "../nfts/service";
import type { PaymentWatcher } from "../payments/watcher";
import type { Clock } from "../platform/clock";
import type { Scheduler } from "../platform/scheduler";
import type { Config } from "../platform/config";
import type { FairSeedService } from "../fair/service";
import type { DailySpinService } from "../games/daily-spin/service";
import type { SlotsGame } from "../games/slots/game";
import type { RacingGame } from "../games/racing/game";
import type { CrashGame } from "../games/crash/game";
import type { ProductStore } from "../platform/db";
import type { Leadership } from "../platform/cluster/leader";
import type { Broker } from "../platform/cluster/broker";
import type { LeaderCalls } from "../platform/cluster/leaderCalls";
import type { Logger } from "../platform/log";
import type { PlayedMarks } from "../platform/playedMarks";
import type { Hub } from "../platform/ws/hub";
import type { HistoryService } from "../history/service";
import type { RewardService } from "../rewards/service";
import type { TransferService } from "../rewards/transfers";
import type { Sandbox } from "../sandbox";
import type { SigningService } from "../signing/service";
import type { SwapService } from "../swap/service";

/** Everything the feature modules are built from; made once by createContext (or a test) and injected. */
export interface AppContext {
  config: Config;
  store: ProductStore;
  log: Logger;
  /** The one source of "now" for every time rule (the sandbox's advancing clock in sandbox mode). */
  clock: Clock;
  /** The game loops' timers (in-process durations; tests advance it instead of sleeping). */
  scheduler: Scheduler;
  /** Typed push channels over Bun's native pub/sub (server.publish). */
  hub: Hub;
  /** The XRP Ledger connection (sandbox or real network) and the platform wallet. */
  ledger: LedgerGateway;
  /** The platform's own outgoing transactions, exactly once per key. */
  outbox: Outbox;
  /** Payment requests and the watcher that credits or refunds incoming payments. */
  payments: PaymentWatcher;
  /** The NFT marketplace: tiers, purchases, mint -> offer -> accept. */
  nfts: NftService;
  /** Per-wallet seed pairs of the seeded games (slots and the daily wheel). */
  fair: FairSeedService;
  /** VVX Slots: packages, sessions, spins and winnings payouts. */
  slots: SlotsGame;
  /** Unicorn Racing: races every minute, XRP bets and payouts through the games kit. */
  racing: RacingGame;
  /** Crash: XRP bets, server-run rounds, payouts and the 1% burn (games/kit's money layer). */
  crash: CrashGame;
  /** The daily spin wheel (its prizes are slot spins). */
  dailySpin: DailySpinService;
  /** NFT holdings, rewards and claims (paid through the outbox). */
  rewards: RewardService;
  /** NFT transfers between people (offers signed in Xaman). */
  transfers: TransferService;
  /** The transaction history; features register their rows with it. */
  history: HistoryService;
  /** Xaman sign requests for every feature (the one xumm-sdk wrapper). */
  signing: SigningService;
  /** Wallet sessions; the guard (auth/guard.ts) reads them. */
  auth: AuthService;
  /** Xaman payloads per wallet and per IP (auth/limits.ts). */
  payloads: PayloadLimits;
  /** XRP -> VVX through the XRP/VVX AMM: quotes, swap and trust line requests, swap outcomes. */
  swap: SwapService;
  /** What the games have shown, kept outside the database (DATA_DIR/vvx.played): a database gone back is found by it. */
  played: PlayedMarks;
  /** Whether this instance leads its cluster (a single instance on SQLite always does). */
  leadership: Leadership;
  /** The broker joining this instance to the others of its cluster (BROKER_URL); undefined alone. */
  broker?: Broker;
  /** What only the leader answers (the running round's cash-outs and state), asked from any instance. */
  calls: LeaderCalls;
  /** The in-process XRP Ledger and Xaman stand-ins (NETWORK=sandbox only). */
  sandbox?: Sandbox;
  version: string;
}
