import { SQL } from "bun";
import type { Client, Wallet } from "xrpl";
import { LedgerGateway } from "../ledger/gateway";
import { PgLeaderElection } from "../platform/cluster/election";
import { memoryLogger, type Logger } from "../platform/log";
import { testDatabase } from "./clusterServices";
import { faucet, ledgerUrl, outsideClient } from "./ledgerKit";
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
  /** A gateway to the sandbox ledger acting for `platform`, started and connected. */
  gateway(log?: Logger): Promise<LedgerGateway>;
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
    async gateway(log = memoryLogger()) {
      const gateway = new LedgerGateway({ url: ledgerUrl(server.url), network: "testnet", platform, vvx: server.ctx.ledger.vvx, log });
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
