import { afterAll, beforeAll } from "bun:test";
import type { Client } from "xrpl";
import { accountWithHistory, outsideClient } from "./ledgerKit";
import { startTestServer, type TestServer } from "./testServer";

/**
 * A test file's (or describe block's) server, its ledger closing every 150 ms, and an xrpl.js client
 * from outside: both started before the tests, `ready` handed them once connected, both stopped after.
 */
export function serverWithClient(ready: (server: TestServer, client: Client) => void): void {
  let server: TestServer | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
    await server.ctx.ledger.waitConnected(15_000);
    client = await outsideClient(server.url);
    ready(server, client);
  });
  afterAll(async () => {
    await client?.disconnect();
    await server?.stop(true);
  });
}

/** A flood test's target: its server, an account whose account_tx pages are big, and the sandbox ledger's socket. */
export interface BusyLedger {
  server: TestServer;
  /** An account with 400 transactions: each account_tx page of 400 is ~600 KB of JSON. */
  busy: string;
  wsUrl: string;
  /** An account_tx request for the whole history of `busy`, in one page. */
  accountTx(id: number): string;
}

/** A test file's server with a busy account on its sandbox ledger (started before the tests, stopped after). */
export function busyLedger(ready: (target: BusyLedger) => void): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
    const busy = await accountWithHistory(server);
    ready({
      server,
      busy,
      wsUrl: `ws://127.0.0.1:${server.port}/sandbox/ledger`,
      accountTx: (id) => JSON.stringify({ id, command: "account_tx", account: busy, ledger_index_min: -1, ledger_index_max: -1, limit: 400 }),
    });
  });
  afterAll(() => server?.stop(true));
}
