import { afterAll, beforeAll } from "bun:test";
import type { Client } from "xrpl";
import { outsideClient } from "./ledgerKit";
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
