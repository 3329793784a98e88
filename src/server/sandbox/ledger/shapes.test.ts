import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { Wallet } from "xrpl";
import { startTestServer, type TestServer } from "../../testing/testServer";
import * as rippled from "./fixtures/rippled";
import { LedgerTestKit } from "./testkit";

setDefaultTimeout(30_000);

/** The shape of a JSON value: every key with the type of its value, recursively (arrays by their first element). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (value && typeof value === "object") return Object.fromEntries(Object.keys(value).sort().map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]));
  return typeof value;
}

/** Only the keys of an object (metadata and ledger objects differ by transaction; their presence is what counts). */
function keysOf(value: Record<string, unknown>, skip: string[] = []): string[] {
  return Object.keys(value).filter((k) => !skip.includes(k)).sort();
}

let server: TestServer;
let kit: LedgerTestKit;
let payer: Wallet;
let payee: Wallet;
let paymentHash: string;

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "60000" });
  server.ctx.sandbox!.ledger!.stopAutoClose();
  kit = await new LedgerTestKit(server).connect();
  payer = await kit.fund({ xrp: 100 });
  payee = await kit.fund({ xrp: 100 });
});

afterAll(async () => {
  await kit?.disconnect();
  await server?.stop(true);
});

async function request(body: Record<string, unknown>) {
  return (await kit.client.request(body as never)) as { result: Record<string, any> };
}

describe("responses have rippled's shapes", () => {
  test("submit echoes the transaction as signed: Amount, not DeliverMax, and its hash", async () => {
    const prepared = await kit.client.autofill({ TransactionType: "Payment", Account: payer.address, Destination: payee.address, Amount: "1000000" });
    const signed = payer.sign(prepared);
    const { result } = await request({ command: "submit", tx_blob: signed.tx_blob });
    expect(shapeOf(result)).toEqual(shapeOf(rippled.submitV2));
    expect(result.tx_json.Amount).toBe("1000000");
    paymentHash = result.tx_json.hash;
    expect(paymentHash).toBe(signed.hash);
  });

  test("tx of a transaction not yet in a closed ledger has no ledger_index (API v2)", async () => {
    const { result } = await request({ command: "tx", transaction: paymentHash });
    expect(shapeOf(result)).toEqual(shapeOf(rippled.txOpenV2));
    await kit.close();
  });

  test("tx of a validated transaction: ctid, and tx_json with DeliverMax, ledger_index and date (v2); flat with Amount and inLedger (v1)", async () => {
    const v2 = (await request({ command: "tx", transaction: paymentHash })).result;
    expect(keysOf(v2)).toEqual(keysOf(rippled.txValidatedV2));
    expect(keysOf(v2.tx_json)).toEqual(keysOf(rippled.txValidatedV2.tx_json));
    expect(v2.ctid).toMatch(/^C[0-9A-F]{15}$/);
    const v1 = (await request({ command: "tx", transaction: paymentHash, api_version: 1 })).result;
    expect(keysOf(v1)).toEqual(keysOf(rippled.txValidatedV1));
    const byCtid = (await request({ command: "tx", ctid: v2.ctid })).result;
    expect(byCtid.hash).toBe(paymentHash);
  });

  test("account_tx entries: {tx_json, hash, ledger_*} in v2 and {tx, meta, validated} in v1", async () => {
    const v2 = (await request({ command: "account_tx", account: payer.address, ledger_index: "validated" })).result;
    expect(keysOf(v2.transactions[0])).toEqual(keysOf(rippled.accountTxEntryV2));
    expect(keysOf(v2.transactions[0].tx_json)).toEqual(keysOf(rippled.accountTxEntryV2.tx_json));
    const v1 = (await request({ command: "account_tx", account: payer.address, ledger_index: "validated", api_version: 1 })).result;
    expect(keysOf(v1.transactions[0])).toEqual(keysOf(rippled.accountTxEntryV1));
    expect(keysOf(v1.transactions[0].tx)).toEqual(keysOf(rippled.accountTxEntryV1.tx));
  });

  test("account_info with signer_lists: inside account_data in API v1, beside it in v2", async () => {
    const v1 = (await request({ command: "account_info", account: payer.address, signer_lists: true, api_version: 1 })).result;
    expect(v1.account_data.signer_lists).toEqual([]);
    expect(v1.signer_lists).toBeUndefined();
    const v2 = (await request({ command: "account_info", account: payer.address, signer_lists: true })).result;
    expect(v2.signer_lists).toEqual([]);
    expect(v2.account_data.signer_lists).toBeUndefined();
  });

  test("account_objects adds no limit the request did not ask for", async () => {
    const { result } = await request({ command: "account_objects", account: payee.address, ledger_index: "validated" });
    expect(shapeOf(result)).toEqual(shapeOf(rippled.accountObjectsEmpty));
  });

  test("server_info, server_state and the ledger stream report the network ID", async () => {
    expect((await request({ command: "server_info" })).result.info.network_id).toBe(0);
    expect((await request({ command: "server_state" })).result.state.network_id).toBe(0);
    const { result } = await request({ command: "subscribe", streams: ["ledger"] });
    expect(shapeOf(result)).toEqual(shapeOf(rippled.subscribeLedger));
    expect(kit.client.networkID).toBe(0);
  });

  test("a tx_blob that is not hex is invalidParams, as in rippled", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/sandbox/ledger`);
    await new Promise((resolve) => ws.addEventListener("open", resolve));
    const reply = new Promise<Record<string, unknown>>((resolve) => ws.addEventListener("message", (e) => resolve(JSON.parse(String(e.data)))));
    ws.send(JSON.stringify({ command: "submit", tx_blob: "not hex" }));
    const { request: _r, ...body } = await reply;
    ws.close();
    expect(body).toEqual(rippled.submitNotHex);
  });
});
