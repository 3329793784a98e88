import { expect, setDefaultTimeout, test } from "bun:test";
import { Client } from "xrpl";
import { busyLedger, type BusyLedger } from "../../testing/serverSuite";
import type { TestServer } from "../../testing/testServer";
import { ADDRESS_LIMITS } from "./resources";

// Issue 35, item 11: many parallel connections from one address share that address's budget, and the
// product's own ledger client (same address, 127.0.0.1) is never refused. Real server, real sockets.
setDefaultTimeout(90_000);

let server: TestServer;
let busy: string;
let wsUrl: string;
let accountTx: BusyLedger["accountTx"];
busyLedger((t) => ({ server, busy, wsUrl, accountTx } = t));

/** One flooding connection: `requests` account_tx pipelined; resolves with the bytes it got once closed. */
async function flood(requests: number): Promise<number> {
  const ws = new WebSocket(wsUrl);
  const opened = await new Promise<boolean>((resolve) => ((ws.onopen = () => resolve(true)), (ws.onerror = () => resolve(false))));
  if (!opened) return 0;
  let bytes = 0;
  ws.onmessage = (e) => (bytes += String(e.data).length);
  const closed = new Promise<void>((resolve) => (ws.onclose = () => resolve()));
  for (let i = 0; i < requests; i++) ws.send(accountTx(i));
  await Promise.race([closed, Bun.sleep(60_000)]);
  ws.close();
  return bytes;
}

test("30 parallel connections from one address share its budget: together they get at most about the address's byte budget, then the address is refused; the product's own client is not", async () => {
  // Each connection asks for ~40 MB (over one connection's 32 MB budget): 1.2 GB in all without a shared budget.
  const got = await Promise.all(Array.from({ length: 30 }, () => flood(200)));
  const total = got.reduce((a, b) => a + b, 0);
  // The address's budget plus what was already on its way when it ran out (a response and a buffer per connection).
  expect(total).toBeLessThan(ADDRESS_LIMITS.bytes.drop + 30 * 1.5 * 1024 * 1024);
  const upgrade = await fetch(`${server.url}/sandbox/ledger`, { headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" } });
  expect(upgrade.status).toBe(429);

  // The product's own ledger client connects from the same address with its key: served at once, and unlimited.
  const own = new Client(wsUrl, { headers: server.ctx.sandbox!.ledgerClientHeaders });
  await own.connect();
  try {
    for (let i = 0; i < 5; i++) {
      const res = await own.request({ command: "account_tx", account: busy, ledger_index_min: -1, ledger_index_max: -1, limit: 400 });
      expect(res.result.transactions.length).toBe(400);
    }
  } finally {
    await own.disconnect();
  }
  // The product's gateway stayed connected through it all and still answers.
  expect(server.ctx.ledger.state).toBe("connected");
  expect((await server.ctx.ledger.request({ command: "server_info" })).result.info).toBeDefined();
});
