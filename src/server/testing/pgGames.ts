import type { Server } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSigningServices } from "../app/identity";
import { CrashGame } from "../games/crash/game";
import type { LedgerGateway } from "../ledger/gateway";
import { Outbox } from "../ledger/outbox";
import { LeaderCalls } from "../platform/cluster/leaderCalls";
import { PaymentWatcher } from "../payments/watcher";
import { openPgStore, type PgStore } from "../platform/db/pg";
import type { Db } from "../platform/db";
import { memoryLogger, type Logger } from "../platform/log";
import type { SigningService } from "../signing";
import { Scheduler } from "../platform/scheduler";
import { dataDirSealer } from "../platform/secrets";
import { Hub } from "../platform/ws/hub";
import { eventually } from "./ledgerKit";
import type { PgLedgerFixture } from "./pgKit";

/** The signing service (sandbox Xaman) on a PostgreSQL store, for a service built directly on it. */
export function pgSigning(fixture: PgLedgerFixture, db: Db, log: Logger): SigningService {
  const { config, clock } = fixture.server.ctx;
  return createSigningServices(config, db, log, clock).signing;
}

/** Crash built directly on a PostgreSQL store (as a cluster's leader runs it), with its own outbox, watcher and scheduler. */
export interface PgCrash {
  store: PgStore;
  crash: CrashGame;
  scheduler: Scheduler;
  outbox: Outbox;
  payments: PaymentWatcher;
  /** What the game has sent to `wallet`'s sockets so far, in order. */
  toPlayer(wallet: string): Record<string, unknown>[];
  stop(): Promise<void>;
}

/** Starts crash on the fixture's PostgreSQL database: long countdowns and pauses (the test moves `scheduler`), its chain committed on the sandbox ledger. */
export async function startPgCrash(fixture: PgLedgerFixture): Promise<PgCrash> {
  const store = await openPgStore(fixture.databaseUrl, { max: 8 });
  const log = memoryLogger();
  const gateway: LedgerGateway = await fixture.gateway(log);
  const { clock } = fixture.server.ctx;
  const config = { ...fixture.server.ctx.config, crashWaitMs: 60_000, crashPauseMs: 60_000, crashChainLength: 1_000 };
  const dataDir = mkdtempSync(join(tmpdir(), "vvx-pg-crash-"));
  const scheduler = new Scheduler();
  const outbox = new Outbox(store.async, gateway, log, clock);
  const payments = new PaymentWatcher(store.async, gateway, outbox, log, { clock });
  const signing = pgSigning(fixture, store.async, log);
  // Bun's server at the hub's edge, standing in for the players' sockets: what the game sends each one is recorded.
  const hub = new Hub();
  const sent: { topic: string; message: Record<string, unknown> }[] = [];
  const sockets = { subscriberCount: (topic: string) => (topic.startsWith("player:") ? 1 : 0), publish: (topic: string, json: string) => (sent.push({ topic, message: JSON.parse(json) }), json.length) };
  hub.attach(sockets as unknown as Server<unknown>);
  const crash = new CrashGame({ db: store.async, clock, scheduler, log, ledger: gateway, outbox, payments, signing, hub, config, notePlayed: () => {}, sealer: dataDirSealer(dataDir), calls: new LeaderCalls({ role: "leader", instanceId: "pg-test" }) });
  outbox.start();
  payments.start();
  await crash.start();
  await eventually(() => crash.rounds.state().status === "waiting" && crash.rounds.state().round > 0, "a counting-down crash round on PostgreSQL", 30_000, 20).catch((err: Error) => {
    throw new Error(`${err.message}: ${log.lines.slice(-8).join(" | ")}`);
  });
  return {
    store,
    crash,
    scheduler,
    outbox,
    payments,
    toPlayer: (wallet) => sent.filter((s) => s.topic === `player:crash:${wallet}`).map((s) => s.message),
    async stop() {
      crash.stop();
      payments.stop();
      outbox.stop();
      await gateway.stop();
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
