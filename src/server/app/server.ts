import { createApp } from "./app";
import { racingRtp, UNICORNS } from "../../engine";
import { ConfigError, ConfigErrors, loadConfig, type Config } from "../platform/config";
import type { AppContext } from "./context";
import { damageOf, DatabaseFileError, isCorruptError, whenCorrupt, type Db } from "../platform/db";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { lockDataDir } from "../platform/db/dataDirLock";
import { gatewayFromConfig } from "../ledger/gateway";
import { Outbox } from "../ledger/outbox";
import type { Logger } from "../platform/log";
import { DataDirError, prepareDataDir } from "../platform/dataDir";
import { NftService } from "../nfts/service";
import { seedDefaults } from "../nfts/seed";
import { FairSeedService } from "../fair/service";
import { DailySpinService } from "../games/daily-spin/service";
import { HOLDERS_PLAYED_DAYS } from "../games/daily-spin/model";
import { playedSince } from "../books/service";
import { SlotsGame } from "../games/slots/game";
import { RacingGame } from "../games/racing/game";
import { CrashGame } from "../games/crash/game";
import { PaymentWatcher } from "../payments/watcher";
import { systemClock } from "../platform/clock";
import { Scheduler } from "../platform/scheduler";
import { createSigningServices } from "./identity";
import { VERSION } from "../platform/version";
import { buildSpa } from "../platform/http/spa";
import { dataDirSealer, dataDirSecret, sealerOf } from "../platform/secrets";
import { Hub } from "../platform/ws/hub";
import { ClusterStartError, LeaderWork, openCluster } from "./cluster";
import { LeaderCalls } from "../platform/cluster/leaderCalls";
import { HistoryService } from "../history/service";
import { refundHistory } from "../history/sources";
import { nftPurchaseHistory } from "../nfts/history";
import { rewardHistory, transferHistory } from "../rewards/history";
import { RewardService } from "../rewards/service";
import { TransferService } from "../rewards/transfers";
import { swapHistorySource } from "../swap/history";
import { PlayedMarks } from "../platform/playedMarks";
import { guardReplay } from "./replay";
import { ServerMetrics } from "./metrics";
import { Drain } from "./drain";
import { ListenError, listenError, loggerFor } from "./listen";
import type { LoadFollower } from "./jitPolicy";

export { ListenError, listenError, loggerFor } from "./listen";
import { SwapService } from "../swap/service";

/** Builds every long-lived piece from the configuration (shared by the server and tests). */
export async function createContext(settings: Config, log = loggerFor(settings)): Promise<AppContext> {
  const config: Config = { ...settings, cookieSecret: settings.cookieSecret ?? dataDirSecret(settings.dataDir, "cookie") };
  const { store, leadership, broker } = await openCluster(config, log);
  // In a cluster the leader-only writes (an outbox claim, submit or settlement, a round's or race's result, a credit, a payout batch, a month's rewards) check that this instance still leads.
  const fence = store.driver === "pg" ? (tx: Db) => leadership.fence(tx) : undefined;
  const hub = new Hub();
  if (broker) hub.relayThrough(broker);
  // What only the leader's memory answers (a crash cash-out, the round's state), asked from any instance.
  const calls = new LeaderCalls(leadership, broker);
  // The sandbox is loaded only in sandbox mode: on real networks none of its code runs.
  const sandbox = config.network === "sandbox" ? await (await import("../sandbox")).createSandbox(config, log) : undefined;
  const clock = sandbox?.clock ?? systemClock;
  const scheduler = new Scheduler();
  const ledger = gatewayFromConfig(config, log, sandbox?.wallets, config.xrplUrl, sandbox?.ledgerClientHeaders);
  // SANDBOX_URL: the clock follows the shared sandbox's at each close, heard here before any service hears it.
  sandbox?.follow(ledger);
  const outbox = new Outbox(store.db, ledger, log, clock, fence);
  // Untagged payments from these are treasury funding; the rest is refunded.
  const funders = [...config.treasuryFunders, ledger.vvx.issuer, ...(sandbox ? [sandbox.wallets.issuer.classicAddress, sandbox.wallets.ammProvider.classicAddress] : [])];
  const payments = new PaymentWatcher(store.db, ledger, outbox, log, { clock, funders, fence });
  const signing = createSigningServices(config, store.db, log, clock);
  // What the games have shown, kept outside the database (checked against it below, before any game runs).
  const played = PlayedMarks.open(config.dataDir);
  const notePlayed = played.note;
  // The spec's NFT tiers, once, before the marketplace reads them.
  await seedDefaults(store.db);
  const nfts = new NftService({ db: store.db, config, log, clock, scheduler, hub, ledger, outbox, payments, signing: signing.signing });
  const fair = new FairSeedService({ db: store.db, clock, log });
  const slots = new SlotsGame({ db: store.db, clock, log, ledger, outbox, payments, signing: signing.signing, fair, hub, notePlayed, fence });
  const racing = new RacingGame({ db: store.db, clock, scheduler, log, ledger, outbox, payments, signing: signing.signing, hub, config, notePlayed, fence });
  // SEAL_SECRET in a cluster: a chain sealed by one instance opens on the next leader.
  const sealer = config.sealSecret ? sealerOf(config.sealSecret) : dataDirSealer(config.dataDir);
  const crash = new CrashGame({ db: store.db, clock, scheduler, log, ledger, outbox, payments, signing: signing.signing, hub, config, notePlayed, sealer, fence, calls });
  // Wheel prizes become slot spins; the two games meet only here.
  // DAILY_SPIN_ELIGIBILITY=holders: a wallet that paid for play lately (the books), else one holding a VVX NFT (the ledger, through the rewards' cached reads).
  const eligible =
    config.dailySpinEligibility === "holders"
      ? async (wallet: string) => (await playedSince(store.db, wallet, clock.now() - HOLDERS_PLAYED_DAYS * 86_400_000)) || (await rewards.reads.held(wallet)).length > 0
      : undefined;
  const dailySpin = new DailySpinService({ db: store.db, clock, log, fair, notePlayed, eligible, hub, creditSpins: (tx, wallet, spins) => slots.sessions.creditBonusSpins(tx, wallet, spins) });
  await guardReplay({ store, log, crash, racing, slots, dailySpin, fair }, played);
  const rewards = new RewardService({ db: store.db, config, log, clock, ledger, outbox, hub, fence });
  const transfers = new TransferService({ repo: rewards.repo, reads: rewards.reads, signing: signing.signing, clock, log, platformAddress: ledger.platformAddress, ledger, hub });
  // Every feature's rows in the transaction history: one line per source.
  const history = new HistoryService({ config, clock }, [
    nftPurchaseHistory(store.db),
    rewardHistory(rewards.repo),
    transferHistory(rewards.repo),
    refundHistory(store.db, ledger.vvx),
    swapHistorySource(store.db),
    slots.history(),
    racing.history(),
    crash.history(),
  ]);
  const swap = new SwapService({ db: store.db, ledger, signing: signing.signing, clock, log, publicUrl: config.publicUrl });
  // Every subject the instance listens to is subscribed at the broker before it serves: nothing another instance sends from then on is missed.
  await broker?.subscribed();
  return { config, store, log, clock, scheduler, hub, ledger, outbox, payments, ...signing, nfts, rewards, transfers, history, swap, fair, slots, racing, crash, dailySpin, sandbox, played, leadership, broker, calls, version: VERSION };
}

/** Starts the server and wires graceful shutdown; returns a stop function. */
export async function startServer(config: Config, log: Logger = loggerFor(config)) {
  // The folder and every file in it owner-only (fixed with a warning), before anything is opened or made.
  prepareDataDir(config.dataDir, log);
  // One server per DATA_DIR: refused before anything opens the database or starts a worker.
  const dataDirLock = lockDataDir(config.dataDir);
  // Production: the SPA is built (or read from the binary) while the rest starts; `bun run dev` keeps Bun's HMR route.
  const development = process.env.NODE_ENV === "development";
  const spa = development ? undefined : buildSpa();
  let ctx: AppContext;
  try {
    ctx = await createContext(config, log);
  } catch (err) {
    dataDirLock.release();
    throw err;
  }
  // What createContext opened, closed last at a stop (or at once when the server cannot listen).
  const closeData = async () => {
    metrics?.stop();
    ctx.sandbox?.shutdown();
    ctx.played.close();
    await ctx.broker?.close();
    await ctx.store.close();
    dataDirLock.release();
  };
  const metrics = config.metricsToken ? new ServerMetrics(ctx) : undefined;
  const drain = new Drain(ctx);
  const app = createApp(ctx, await spa, { metrics, drain });
  try {
    // reusePort off (Elysia turns it on): a port another server holds is refused, not shared with it.
    app.listen({ port: config.port, hostname: config.host, development, reusePort: false });
  } catch (err) {
    await closeData();
    throw listenError(config, err) ?? err;
  }
  ctx.hub.attach(app.server!);
  ctx.hub.start();
  ctx.sandbox?.start();
  ctx.ledger.start();
  ctx.swap.pool.start();
  // The loops and sweeps run on the leader only (alone, this instance leads at once): see app/cluster.ts.
  const work = new LeaderWork(ctx);
  await work.follow();
  const port = app.server!.port;
  // performance.now() counts from process start: the operator sees the real start-up time.
  const exposed = exposedSandboxAdmin(config);
  if (exposed) ctx.log.warn(exposed, { host: config.host, admins: config.adminWallets.length });
  const racingWarning = racingRtpWarning(config);
  if (racingWarning) ctx.log.warn(racingWarning, { multiple: config.racing.payoutMultiple });
  ctx.log.info("listening", { url: config.publicUrl, port, network: config.network, data: ctx.store.path, startupMs: Math.round(performance.now()) });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      ctx.log.info("shutting down");
      work.stopAll();
      ctx.calls.close();
      await ctx.leadership.stop();
      ctx.rewards.stop();
      ctx.swap.pool.stop();
      await ctx.ledger.stop();
      await ctx.sandbox?.stop();
      ctx.hub.closeAll();
      await app.stop(false); // let requests in flight finish
      await closeData();
      ctx.log.info("stopped");
    })());
  // A drain asked by SIGUSR2 or an admin stops the server once nothing is open (serve exits after it).
  drain.onIdle = stop;
  return { app, ctx, port, stop, drain, work };
}

/**
 * The start-up warning when Unicorn Racing returns 100% or more: five equally likely unicorns, so the
 * house keeps nothing at 5x (and pays every ledger fee). Undefined when the multiple leaves it an edge.
 */
export function racingRtpWarning(config: Pick<Config, "racing">): string | undefined {
  const multiple = config.racing.payoutMultiple;
  const rtp = racingRtp(multiple);
  if (rtp < 1) return undefined;
  return `Unicorn Racing returns ${(rtp * 100).toFixed(2)}% to players at RACING_PAYOUT_MULTIPLE=${multiple} (${UNICORNS.length} equally likely unicorns): the house keeps nothing and pays the ledger fees; set it below ${UNICORNS.length}, e.g. ${((UNICORNS.length * 99) / 100).toFixed(2)} for a 1% edge`;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

/**
 * The warning for sandbox mode reachable from other machines with ADMIN_WALLETS set: the sandbox
 * wallet signs for any faucet account, so whoever reaches the server can sign in as an admin's
 * sandbox account. Undefined when there is nothing to warn about.
 */
export function exposedSandboxAdmin(config: Pick<Config, "network" | "host" | "adminWallets">): string | undefined {
  if (config.network !== "sandbox" || config.adminWallets.length === 0 || LOOPBACK.test(config.host)) return undefined;
  return "sandbox mode listens beyond localhost with ADMIN_WALLETS set: anyone who reaches this server can sign in as an admin's account through the sandbox wallet; set HOST=127.0.0.1, or use a real network";
}

/**
 * Which database SQLite found damaged, and what to do: its quick_check names the file (the product's or
 * the sandbox's); the error alone does not say which connection read the bad page.
 */
export function damagedFileMessage(dataDir: string, err: unknown): string {
  const reported = err instanceof Error ? err.message : String(err);
  const remedies: [string, string][] = [
    ["vvx.db", "Restore it from a backup, or move it aside to start with an empty database"],
    ["sandbox.db", "It holds only sandbox data: move it aside and the sandbox starts a fresh ledger"],
  ];
  for (const [file, remedy] of remedies) {
    const path = join(dataDir, file);
    const damage = existsSync(path) ? damageOf(path) : undefined;
    if (damage) return `${path} is damaged (${damage === reported ? reported : `${reported}; quick_check: ${damage.slice(0, 200)}`}). ${remedy}.`;
  }
  return `${join(dataDir, "vvx.db")} is damaged (${reported}). ${remedies[0]![1]}.`;
}

/** The exit code of an instance that stopped leading (EX_TEMPFAIL: start it again). */
export const DEPOSED_EXIT_CODE = 75;

/** When the server gives start-up's memory back: after the first ledger closes and game rounds begin. */
const RELEASE_START_UP_AFTER_MS = 2_000;

/**
 * Once start-up is over, its garbage (migrations, the sandbox's genesis, code that ran once) is collected and
 * the freed pages given back to the system: 3 to 7 MiB less resident over the first 30 s (bun run bench,
 * startup), for one pause of under 8 ms (JSC does it at its next idle moment). Code that runs later is
 * compiled again when it does. From then on the JIT's policy follows the load (not before: the start-up's
 * chain walk would count as load; on a machine slow enough that the walk is still running at 2 s, it does count,
 * and the normal policy holds for 30 s more), so an idle server compiles nothing past the interpreter (jitPolicy.ts).
 */
function afterStartUp(jit: LoadFollower): void {
  setTimeout(() => {
    Bun.shrink();
    jit.follow();
  }, RELEASE_START_UP_AFTER_MS).unref();
}

/** The long-running server (`vvx` without a command, main.ts): `jit` already holds the idle scale, and follows the load after start-up. */
export async function serve(jit: LoadFollower): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const e of err instanceof ConfigErrors ? err.all : [err]) console.error(`Configuration error: ${e.message}`);
      process.exit(1);
    }
    throw err;
  }
  // A damaged database found at any moment (start-up, a request, a loop's pass) stops the server with one line.
  const damaged = (err: unknown): never => {
    console.error(`Database error: ${damagedFileMessage(config.dataDir, err)}`);
    process.exit(1);
  };
  whenCorrupt(damaged);
  // Work started and not awaited (a game's start reading its chain ...) reports a damaged page as an unhandled rejection.
  for (const event of ["uncaughtException", "unhandledRejection"] as const) {
    process.on(event, (err: unknown) => {
      if (isCorruptError(err)) damaged(err);
      console.error(err);
      process.exit(1);
    });
  }
  let stop: () => Promise<void>;
  let drain: Drain;
  let work: LeaderWork;
  try {
    ({ stop, drain, work } = await startServer(config));
  } catch (err) {
    if (isCorruptError(err)) damaged(err);
    // Found only when used (SANDBOX_URL's sandbox does not answer, or has another seed): named like the rest.
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    if (err instanceof DatabaseFileError) {
      console.error(`Database error: ${err.message}`);
      process.exit(1);
    }
    if (err instanceof ListenError || err instanceof DataDirError || err instanceof ClusterStartError) {
      console.error(`Cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  // The banner is for a person at a terminal; with LOG_FORMAT=json every line is JSON (the "listening" line says the same).
  if (config.logFormat === "text") console.log(`VVX is running at ${config.publicUrl} (network: ${config.network})`);
  afterStartUp(jit);
  // SIGTERM (docker stop, systemd) and Ctrl-C: no new bets, the crash round under way plays out (at most
  // SHUTDOWN_GRACE_MS), then a clean stop; a second signal stops at once. SIGUSR2: drain until nothing is open.
  let signalled = false;
  const exit = () => void stop().then(() => process.exit(0));
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (signalled) return exit();
      signalled = true;
      void drain.forRestart(config.shutdownGraceMs).then(exit);
    });
  }
  drain.onIdle = () => exit();
  // A deposed leader's loops cannot start again: it stops, and its supervisor (systemd, Compose) starts it as a follower.
  work.onDeposed = () => void stop().then(() => process.exit(DEPOSED_EXIT_CODE));
  process.on("SIGUSR2", () => drain.stopWhenIdle("SIGUSR2"));
}

