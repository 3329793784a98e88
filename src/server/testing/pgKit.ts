import { SQL } from "bun";
import type { Client, Wallet } from "xrpl";
import { LedgerGateway } from "../ledger/gateway";
import { Outbox } from "../ledger/outbox";
import * as nftTables from "../nfts/schema.pg";
import { seedDefaults } from "../nfts/seed";
import { PgLeaderElection } from "../platform/cluster/election";
import { openPgStore, type PgStore } from "../platform/db/pg";
import { memoryLogger, type Logger } from "../platform/log";
import { testDatabase } from "./clusterServices";
import { faucet, ledgerUrl, outsideClient, submitValidated } from "./ledgerKit";
import { startTestServer, type TestServer } from "./testServer";

/**
 * What a test file needs to run a money path on PostgreSQL: the sandbox ledger (a test server, whose own
 * outbox and watcher stay on SQLite), a funded platform account of the file's own (so no sequence number
 * or payment is shared with the server's), and a database of its own on the suite's PostgreSQL.
 */
export interface PgLedgerFixture {
  server: TestServer;
  /** A client of the sandbox ledger, as an outsider reads it. */
  client: Client;
  platform: Wallet;
  databaseUrl: string;
  /** A gateway to the sandbox ledger acting for `account` (default `platform`), started and connected. */
  gateway(log?: Logger, account?: Wallet): Promise<LedgerGateway>;
  /** An election on the database that won as `instanceId` (see electedLeader), stopped with the fixture. */
  leader(instanceId: string): Promise<PgLeaderElection>;
  /** A connection of the test's own to the database, for its checks (and to raise the epoch: raiseEpoch). */
  readonly sql: SQL;
  stop(): Promise<void>;
}

export async function startPgLedgerFixture(): Promise<PgLedgerFixture> {
  const server = await startTestServer();
  await server.ctx.ledger.waitConnected(15_000);
  const client = await outsideClient(server.url);
  const platform = await faucet(server.url, { xrp: 1_000 });
  const database = await testDatabase();
  const elections: PgLeaderElection[] = [];
  let sql: SQL | undefined;
  return {
    server,
    client,
    platform,
    databaseUrl: database.url,
    async gateway(log = memoryLogger(), account = platform) {
      const gateway = new LedgerGateway({ url: ledgerUrl(server.url), network: "testnet", platform: account, vvx: server.ctx.ledger.vvx, log });
      gateway.start();
      await gateway.waitConnected(15_000);
      return gateway;
    },
    async leader(instanceId) {
      const election = await electedLeader(database.url, instanceId);
      elections.push(election);
      return election;
    },
    get sql() {
      return (sql ??= new SQL(database.url, { max: 1 }));
    },
    async stop() {
      for (const e of elections) await e.stop();
      await sql?.close();
      await database.drop();
      await client.disconnect();
      await server.stop(true);
    },
  };
}

/** A store on a database of its own on the suite's PostgreSQL (migrated as it opens); `close` closes it and drops the database. */
export interface PgTestStore {
  store: PgStore;
  close(): Promise<void>;
}

/** `beforeOpen` runs on the new, empty database before the store opens it (a database setting to test under, say). */
export async function pgTestStore(options: { max: number; beforeOpen?: (url: string) => Promise<void> }): Promise<PgTestStore> {
  const database = await testDatabase();
  try {
    await options.beforeOpen?.(database.url);
    const store = await openPgStore(database.url, { max: options.max });
    return {
      store,
      async close() {
        await store.close();
        await database.drop();
      },
    };
  } catch (err) {
    await database.drop();
    throw err;
  }
}

/**
 * The ledger fixture with what a file that builds services directly on PostgreSQL shares: a store of its own on
 * the database (the NFT tiers seeded), one gateway they pay through and its log; `stop` closes them and the fixture.
 */
export interface PgStoreFixture extends PgLedgerFixture {
  store: PgStore;
  /** The gateway the file's services share: acting for `platform`, or for a funded treasury (options.treasury). */
  ledger: LedgerGateway;
  log: ReturnType<typeof memoryLogger>;
  /** A new outbox on the store paying through `ledger`, on the server's clock: an instance's own (each registers its owners). */
  outbox(log?: Logger): Outbox;
}

export interface PgStoreOptions {
  /** The store's pool size. */
  max: number;
  /** Pay from an account of the file's own holding this much (the fixture's platform holds XRP only): rewards pay VVX. */
  treasury?: { xrp: number; vvx: number };
}

export async function pgFixtureWithStore(options: PgStoreOptions): Promise<PgStoreFixture> {
  const fixture = await startPgLedgerFixture();
  let store: PgStore | undefined;
  let ledger: LedgerGateway | undefined;
  const log = memoryLogger();
  try {
    store = await openPgStore(fixture.databaseUrl, { max: options.max });
    const account = options.treasury && (await faucet(fixture.server.url, options.treasury));
    ledger = await fixture.gateway(log, account);
    await seedDefaults(store.async);
  } catch (err) {
    await ledger?.stop();
    await store?.close();
    await fixture.stop();
    throw err;
  }
  const stopFixture = fixture.stop;
  const opened = { store, ledger };
  // Extends the fixture itself: a spread would read its lazy `sql` getter (opening that connection) now.
  return Object.assign(fixture, {
    ...opened,
    log,
    outbox: (outboxLog: Logger = log) => new Outbox(opened.store.async, opened.ledger, outboxLog, fixture.server.ctx.clock),
    async stop() {
      await opened.ledger.stop();
      await opened.store.close();
      await stopFixture();
    },
  });
}

/**
 * A Genesis NFT the fixture's `ledger` account issues to a new holder (minted with a 0 offer to the holder, who
 * accepts it; the faucet opens the holder's VVX line to be paid on), recorded as the platform records a mint.
 */
export async function heldNft(fixture: PgStoreFixture): Promise<{ holder: Wallet; tokenId: string; mintedAt: Date }> {
  const holder = await faucet(fixture.server.url, { xrp: 50, vvx: 1 });
  const minted = await submitValidated(fixture.client, fixture.ledger.platform, { TransactionType: "NFTokenMint", NFTokenTaxon: 1, Flags: 8, Amount: "0", Destination: holder.classicAddress });
  const meta = minted.result.meta as { nftoken_id?: string; offer_id?: string };
  await submitValidated(fixture.client, holder, { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: meta.offer_id! });
  const tokenId = meta.nftoken_id!.toUpperCase();
  const mintedAt = fixture.server.ctx.clock.date();
  await fixture.store.async.transaction(async (tx) => {
    await tx.insert(nftTables.nfts).values({ tokenId, tierId: 1, number: 1, taxon: 1, owner: holder.classicAddress, mintedAt });
  });
  return { holder, tokenId, mintedAt };
}

/**
 * An election on `databaseUrl` that won, named `instanceId`. Its check period outlasts a test: a leader another
 * election replaced learns it only from its next fenced write (as between two checks). The caller stops it.
 */
export async function electedLeader(databaseUrl: string, instanceId: string): Promise<PgLeaderElection> {
  const election = new PgLeaderElection(databaseUrl, { instanceId, checkMs: 60_000 });
  await election.start();
  if (election.role !== "leader") {
    await election.stop();
    throw new Error(`${instanceId} did not win the election: ${election.leaderId ?? "nobody"} leads`);
  }
  return election;
}

/** What winning the election does to the database (PgLeaderElection raises the epoch under its name): the leader until now is deposed and does not know it yet. */
export async function raiseEpoch(sql: SQL, winner: string): Promise<void> {
  await sql`UPDATE _leader_epoch SET epoch = epoch + 1, instance_id = ${winner}`;
}

/**
 * A leader deposed without knowing it yet: `<name>-first` wins the election, then `<name>-next` wins it in the database
 * (raiseEpoch, as PgLeaderElection does when it wins), so the first one's next fenced write is refused. `successor()`
 * stops the deposed election and elects `<name>-next`.
 */
export async function deposedLeader(fixture: PgLedgerFixture, name: string): Promise<{ deposed: PgLeaderElection; successor(): Promise<PgLeaderElection> }> {
  const deposed = await fixture.leader(`${name}-first`);
  await raiseEpoch(fixture.sql, `${name}-next`);
  return {
    deposed,
    async successor() {
      await deposed.stop();
      return fixture.leader(`${name}-next`);
    },
  };
}
