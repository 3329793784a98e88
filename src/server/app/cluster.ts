import type { Config } from "../platform/config";
import { openStore, type Db, type ProductStore } from "../platform/db";
import { tableVersionsOf } from "../platform/db/store";
import type { Broker } from "../platform/cluster/broker";
import { SoloLeadership, type Leadership } from "../platform/cluster/leader";
import type { Logger } from "../platform/log";
import type { AppContext } from "./context";

/**
 * The database, the broker and the leadership of one instance (ARCHITECTURE.md, "Past one instance"):
 * without DATABASE_URL, SQLite under DATA_DIR and always the leader (the one instance); with it, the shared
 * PostgreSQL database, the leader elected on it (PgLeaderElection, named by INSTANCE_ID), and with
 * BROKER_URL the broker that joins the instances' sockets and caches. DATABASE_URL without BROKER_URL is one
 * instance on PostgreSQL: a second one would elect (so never run the loops twice) but see none of the
 * leader's pushes.
 */
export interface ClusterParts {
  store: ProductStore;
  leadership: Leadership;
  broker?: Broker;
}

export async function openCluster(config: Config, log: Logger): Promise<ClusterParts> {
  if (!config.databaseUrl) return { store: openStore(config.dataDir, "vvx.db", config.dbBusyTimeoutMs), leadership: new SoloLeadership(config.instanceId) };
  // PostgreSQL's driver and migrations, the election and the broker's client load only here: an instance on SQLite never holds them.
  const [{ NewerPgSchemaError, openPgStore }, { connectBroker, redacted }, { PgLeaderElection }] = await Promise.all([import("../platform/db/pg"), import("../platform/cluster/broker"), import("../platform/cluster/election")]);
  const pg = await openPgStore(config.databaseUrl).catch((err: unknown) => {
    if (err instanceof NewerPgSchemaError) throw new ClusterStartError(`DATABASE_URL: ${err.message}`);
    throw new ClusterStartError(`DATABASE_URL: cannot open PostgreSQL at ${redacted(config.databaseUrl!)} (${reasonOf(err)}); check the address, the password and that the server runs`);
  });
  const store: ProductStore = { driver: "pg", db: pg.async, path: redacted(config.databaseUrl), close: () => pg.close() };
  let broker: Broker | undefined;
  try {
    broker = config.brokerUrl ? await connectBroker(config.brokerUrl, { id: config.instanceId, log }) : undefined;
  } catch (err) {
    await store.close();
    throw new ClusterStartError(reasonOf(err));
  }
  if (broker) relayTableChanges(store.db, broker);
  return { store, broker, leadership: new PgLeaderElection(config.databaseUrl, { instanceId: config.instanceId, log }) };
}

/** The database or the broker of a cluster cannot be reached at start: the message names the variable (never the password). */
export class ClusterStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ClusterStartError";
  }
}

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The broker subject of "these tables changed" (their names, comma-separated). */
export const TABLES_CHANGED = "tables";

/** Every commit's tables go to the other instances, and theirs come here: each instance's read models and cached JSON follow the others' writes. */
export function relayTableChanges(db: Db, broker: Broker): void {
  const versions = tableVersionsOf(db);
  if (!versions) return;
  versions.onCommitted((tables) => broker.publish(TABLES_CHANGED, tables.join(",")));
  broker.on(TABLES_CHANGED, (payload) => versions.apply(payload.split(",")));
}

type Work = Pick<AppContext, "outbox" | "payments" | "nfts" | "rewards" | "transfers" | "swap" | "slots" | "racing" | "crash" | "scheduler" | "log" | "leadership">;

/**
 * What runs on the leader only: the outbox, the payments watcher, the game loops (crash rounds, races,
 * slots payouts), the NFT purchases' steps and every sweep (rewards, transfers, swaps). Started when this
 * instance becomes leader; stopped, for good, when it stops leading: the loops keep state in memory that
 * is not made to start again, so a deposed instance serves requests as a follower until it is restarted
 * (`onDeposed`; the binary exits then and its supervisor starts it again, to rejoin as a follower). Its
 * writes are fenced meanwhile (Leadership.fence): it cannot submit or record a round after losing the lock.
 */
export class LeaderWork {
  private state: "waiting" | "leading" | "deposed" = "waiting";
  /** Called once when this instance stops leading (not at a stop of the server). */
  onDeposed: (() => void) | undefined;
  private stopping = false;

  constructor(private readonly ctx: Work) {}

  get leading(): boolean {
    return this.state === "leading";
  }

  /** Follows the leadership: resolves once this instance knows its role, and, leading, once the loops started. */
  async follow(): Promise<void> {
    let started: Promise<void> | undefined;
    this.ctx.leadership.onChange((role) => {
      if (role === "leader") started = this.start();
      else this.stop(true);
    });
    await this.ctx.leadership.start();
    await started;
  }

  /** Stops every leader-only loop (the server is stopping). */
  stopAll(): void {
    this.stopping = true;
    this.stop(false);
  }

  private async start(): Promise<void> {
    if (this.state !== "waiting") return;
    this.state = "leading";
    const c = this.ctx;
    c.log.info("leading: the outbox, the watcher, the game loops and the sweeps run here", { instance: c.leadership.instanceId });
    c.outbox.start();
    c.payments.start();
    for (const loop of this.loops()) loop.start();
    await c.crash.start();
  }

  /** The features' loops between the money path (outbox, watcher: started first, stopped last) and crash's rounds. */
  private loops(): { start(): void; stop(): void }[] {
    const c = this.ctx;
    return [c.nfts, c.rewards, { start: () => c.transfers.startSweeping(), stop: () => c.transfers.stop() }, c.swap.settler, c.slots, c.racing];
  }

  private stop(deposed: boolean): void {
    const was = this.state;
    if (was === "deposed") return;
    this.state = "deposed";
    if (was !== "leading") return;
    const c = this.ctx;
    for (const loop of this.loops()) loop.stop();
    c.crash.stop();
    c.scheduler.clear();
    c.payments.stop();
    c.outbox.stop();
    if (deposed && !this.stopping) {
      c.log.warn("no longer leading: the leader-only work stopped; restart this instance to let it lead again", { instance: c.leadership.instanceId, leader: c.leadership.leaderId });
      // It must not win the lock again with nothing to run: it stops contending until restarted.
      void c.leadership.stop();
      this.onDeposed?.();
    }
  }
}
