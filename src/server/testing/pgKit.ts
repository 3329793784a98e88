import type { Client, Wallet } from "xrpl";
import { LedgerGateway } from "../ledger/gateway";
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
  stop(): Promise<void>;
}

export async function startPgLedgerFixture(): Promise<PgLedgerFixture> {
  const server = await startTestServer();
  await server.ctx.ledger.waitConnected(15_000);
  const client = await outsideClient(server.url);
  const platform = await faucet(server.url, { xrp: 1_000 });
  const database = await testDatabase();
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
    async stop() {
      await database.drop();
      await client.disconnect();
      await server.stop(true);
    },
  };
}
