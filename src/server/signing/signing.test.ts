import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../platform/config";
import { createApp, createContext, startTestServer, type TestServer } from "../testing/testServer";
import { loopbackOrigin, sandboxXummCredentials, xummApiEndpoint, xummCredentials } from "./credentials";
import { microToValue } from "./service";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop(true));

describe("credentials and endpoints", () => {
  test("the sandbox key pair is derived from SANDBOX_SEED, lowercase UUIDv4s, stable", () => {
    const a = sandboxXummCredentials("vvx-sandbox");
    expect(a).toEqual(sandboxXummCredentials("vvx-sandbox"));
    expect(a.apiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.apiSecret).not.toBe(a.apiKey);
    expect(sandboxXummCredentials("other").apiKey).not.toBe(a.apiKey);
  });

  test("configured keys win; real networks talk to xumm.app", () => {
    const key = "11111111-1111-4111-8111-111111111111";
    const secret = "22222222-2222-4222-8222-222222222222";
    const sandbox = loadConfig({ PORT: "4000" });
    expect(xummApiEndpoint(sandbox)).toBe("http://127.0.0.1:4000/sandbox/xumm");
    expect(xummCredentials(loadConfig({ XUMM_API_KEY: key, XUMM_API_SECRET: secret }))).toEqual({ apiKey: key, apiSecret: secret });
    const real = loadConfig({ NETWORK: "testnet", XUMM_API_KEY: key, XUMM_API_SECRET: secret, PLATFORM_SEED: Wallet.generate().seed!, VVX_ISSUER: Wallet.generate().classicAddress });
    expect(xummApiEndpoint(real)).toBe("https://xumm.app");
    expect(loopbackOrigin(loadConfig({ HOST: "192.168.1.5", PORT: "81" }))).toBe("http://192.168.1.5:81");
  });
});

describe("sign request service", () => {
  test("micro-units become exact decimal values", () => {
    expect(microToValue(500_000_000_000n)).toBe("500000");
    expect(microToValue(1n)).toBe("0.000001");
    expect(microToValue(1_250_000n)).toBe("1.25");
    expect(() => microToValue(0n)).toThrow(/amount/);
  });

  test("createPaymentRequest builds the Payment Xaman shows, forced to the paying wallet", async () => {
    const { signing } = server.ctx;
    const payer = Wallet.generate().classicAddress;
    const destination = Wallet.generate().classicAddress;
    const issuer = Wallet.generate().classicAddress;
    const created = await signing.createPaymentRequest({
      kind: "vvx_payment",
      wallet: payer,
      destination,
      destinationTag: 7,
      amount: { currency: "VVX", issuer, micro: 250_000_000_000n },
      memo: "tier 2",
      reference: "purchase-9",
    });
    expect(created.qrUrl).toBe(created.refs.qr_png);
    expect(created.xummUrl).toBe(created.next.always);
    const payload = (await signing.xumm.getPayload(created.uuid))!;
    expect(payload.payload.request_json).toEqual({
      TransactionType: "Payment",
      Destination: destination,
      Amount: { currency: "VVX", issuer, value: "250000" },
      DestinationTag: 7,
      Memos: [{ Memo: { MemoData: Buffer.from("tier 2").toString("hex").toUpperCase() } }],
      Account: payer,
    });
    expect(payload.meta.submit).toBe(true);
    expect(payload.custom_meta.blob).toEqual({ kind: "vvx_payment", reference: "purchase-9" });
    const status = await signing.status(created.uuid);
    expect(status).toMatchObject({ kind: "vvx_payment", reference: "purchase-9", wallet: payer, signed: false, account: null });
    expect((await signing.request(created.uuid)).reference).toBe("purchase-9");

    const xrp = await signing.createPaymentRequest({ kind: "crash_bet", wallet: payer, destination, amount: { drops: 1_000_000n } });
    expect((await signing.xumm.getPayload(xrp.uuid))!.payload.request_json.Amount).toBe("1000000");
  });

  test("bad payment input names the field", async () => {
    const { signing } = server.ctx;
    const ok = { kind: "x", wallet: Wallet.generate().classicAddress, destination: Wallet.generate().classicAddress, amount: { drops: 1n } };
    await expect(signing.createPaymentRequest({ ...ok, destination: "nope" })).rejects.toMatchObject({ status: 400, details: { field: "destination" } });
    await expect(signing.createPaymentRequest({ ...ok, wallet: "nope" })).rejects.toMatchObject({ details: { field: "walletAddress" } });
    await expect(signing.createPaymentRequest({ ...ok, amount: { drops: 0n } })).rejects.toMatchObject({ details: { field: "amount" } });
    await expect(signing.createPaymentRequest({ ...ok, destinationTag: -1 })).rejects.toMatchObject({ details: { field: "destinationTag" } });
    await expect(signing.createPaymentRequest({ ...ok, kind: "Bad Kind" })).rejects.toMatchObject({ details: { field: "kind" } });
  });

  test("cancel through the service; betConfirmed asks the registered bet modules", async () => {
    const { signing } = server.ctx;
    const created = await signing.createSignRequest({ kind: "wallet_connect", txjson: { TransactionType: "SignIn" } });
    expect(await signing.cancel(created.uuid)).toEqual({ cancelled: true, reason: "OK" });
    expect((await signing.status(created.uuid)).cancelled).toBe(true);

    const signIn = await signing.createSignRequest({ kind: "crash_bet", txjson: { TransactionType: "SignIn" }, reference: "bet-1" });
    await fetch(`${server.url}/sandbox/api/payloads/${signIn.uuid}/sign`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seed: Wallet.generate().seed }) });
    signing.onBetConfirmation((betId, status) => betId === "bet-1" && status.reference === "bet-1");
    const res = await fetch(`${server.url}/api/xumm/status/${signIn.uuid}?betId=bet-1`);
    expect((await res.json()).betConfirmed).toBe(true);
    const other = await fetch(`${server.url}/api/xumm/status/${signIn.uuid}?betId=bet-2`);
    expect((await other.json()).betConfirmed).toBe(false);
  });
});

describe("payments through the sandbox Xaman onto the sandbox ledger", () => {
  const post = async (path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`);
    return { status: res.status, json: (await res.json()) as Record<string, any> };
  };

  // Payments go to a second faucet account: the platform account's payment watcher refunds payments with unknown tags.
  test("an XRP Payment is signed with a faucet account, submitted, validated, and read back", async () => {
    const { signing, sandbox } = server.ctx;
    const account = (await post("/sandbox/api/accounts", { xrp: 50 })).json as { address: string };
    const payee = (await post("/sandbox/api/accounts", { xrp: 10 })).json as { address: string };
    const before = (await get(`/api/wallet/balance?address=${account.address}`)).json;
    const created = await signing.createPaymentRequest({
      kind: "crash_bet",
      wallet: account.address,
      destination: payee.address,
      destinationTag: 123,
      amount: { drops: 2_000_000n },
    });
    const signed = await post(`/sandbox/api/payloads/${created.uuid}/sign`, { account: account.address });
    expect(signed.status).toBe(200);
    expect(signed.json).toMatchObject({ signed: true, account: account.address, dispatchedResult: "tesSUCCESS" });
    expect(signed.json.txid).toMatch(/^[0-9A-F]{64}$/);

    const payload = (await signing.xumm.getPayload(created.uuid))!;
    expect(payload.response).toMatchObject({ txid: signed.json.txid, dispatched_result: "tesSUCCESS", dispatched_to: server.ctx.config.xrplUrl, account: account.address });
    const status = await get(`/api/xumm/status/${created.uuid}`);
    expect(status.json).toMatchObject({ signed: true, account: account.address, txid: signed.json.txid, type: "crash_bet", authenticated: false });
    expect((await get(`/api/xumm/payload-status/${created.uuid}`)).json).toMatchObject({ accepted: true, txid: signed.json.txid });

    await sandbox!.ledger!.closeLedger();
    const tx = await get(`/api/xumm/transaction/${signed.json.txid}`);
    expect(tx.status).toBe(200);
    expect(tx.json).toMatchObject({
      success: true,
      txid: signed.json.txid,
      validated: true,
      result: "tesSUCCESS",
      transactionType: "Payment",
      account: account.address,
      destination: payee.address,
      destinationTag: 123,
      deliveredAmount: { currency: "XRP", drops: "2000000", value: "2" },
    });
    const after = (await get(`/api/wallet/balance?address=${account.address}`)).json;
    expect(BigInt(before.balance) - BigInt(after.balance)).toBe(2_000_000n + BigInt(tx.json.fee));
  });

  test("a VVX Payment delivers the token amount", async () => {
    const { signing, ledger, sandbox } = server.ctx;
    const account = (await post("/sandbox/api/accounts", { xrp: 20, vvx: 1000 })).json as { address: string };
    const payee = (await post("/sandbox/api/accounts", { xrp: 10, vvx: 0 })).json as { address: string };
    const before = (await get(`/api/wallet/balance?address=${account.address}`)).json;
    expect(before).toMatchObject({ hasVvxTrustline: true, vvxBalance: "1000", microVvx: "1000000000" });
    const created = await signing.createPaymentRequest({
      kind: "vvx_payment",
      wallet: account.address,
      destination: payee.address,
      destinationTag: 9,
      amount: { currency: ledger.vvx.currency, issuer: ledger.vvx.issuer, micro: 12_500_000n },
    });
    const signed = await post(`/sandbox/api/payloads/${created.uuid}/sign`, { account: account.address });
    expect(signed.json.dispatchedResult).toBe("tesSUCCESS");
    await sandbox!.ledger!.closeLedger();
    const tx = (await get(`/api/xumm/transaction/${signed.json.txid}`)).json;
    expect(tx.deliveredAmount).toEqual({ currency: ledger.vvx.currency, issuer: ledger.vvx.issuer, value: "12.5" });
    const after = (await get(`/api/wallet/balance?address=${account.address}`)).json;
    expect(BigInt(before.microVvx) - BigInt(after.microVvx)).toBe(12_500_000n);
    expect((await get(`/api/wallet/balance?address=${payee.address}`)).json.vvxBalance).toBe("12.5");
  });

  test("signed is not paid: an unfunded payment is signed with a tec result; an unknown signer cannot even prepare", async () => {
    const { signing, sandbox } = server.ctx;
    const account = (await post("/sandbox/api/accounts", { xrp: 20 })).json as { address: string };
    const payee = (await post("/sandbox/api/accounts", { xrp: 10 })).json as { address: string };
    const tooMuch = await signing.createPaymentRequest({ kind: "crash_bet", wallet: account.address, destination: payee.address, amount: { drops: 100_000_000n } });
    const signed = await post(`/sandbox/api/payloads/${tooMuch.uuid}/sign`, { account: account.address });
    expect(signed.json.signed).toBe(true);
    expect(signed.json.dispatchedResult).toMatch(/^tec/);
    await sandbox!.ledger!.closeLedger();
    const tx = (await get(`/api/xumm/transaction/${signed.json.txid}`)).json;
    expect(tx).toMatchObject({ validated: true, result: signed.json.dispatchedResult, deliveredAmount: null });

    const stranger = Wallet.generate();
    const unfunded = await signing.createSignRequest({ kind: "trustline", txjson: { TransactionType: "AccountSet" }, wallet: stranger.classicAddress });
    const refused = await post(`/sandbox/api/payloads/${unfunded.uuid}/sign`, { seed: stranger.seed });
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe("TX_PREPARE_FAILED");
    expect((await signing.status(unfunded.uuid)).resolved).toBe(false);
  });

  test("unknown transactions are 404", async () => {
    const res = await get(`/api/xumm/transaction/${"AB".repeat(32)}`);
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("TX_NOT_FOUND");
  });
});

describe("on a real network", () => {
  test("there is no sandbox Xaman: the SDK points at xumm.app and /sandbox answers 404", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-real-"));
    const config = loadConfig({
      NETWORK: "testnet",
      XUMM_API_KEY: "11111111-1111-4111-8111-111111111111",
      XUMM_API_SECRET: "22222222-2222-4222-8222-222222222222",
      PLATFORM_SEED: Wallet.generate().seed!,
      VVX_ISSUER: Wallet.generate().classicAddress,
      DATA_DIR: dir,
      QUIET: "1",
    });
    const ctx = await createContext(config);
    try {
      expect(ctx.sandbox).toBeUndefined();
      expect(ctx.signing.xumm.endpoint).toBe("https://xumm.app");
      expect(ctx.auth.oauth.authorizeUrl("s", "c")).toStartWith("https://oauth2.xumm.app/auth?");
      const app = createApp(ctx);
      const res = await app.handle(new Request("http://localhost/sandbox/api/payloads/00000000-0000-4000-8000-000000000000/sign", { method: "POST" }));
      expect(res.status).toBe(404);
    } finally {
      ctx.store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("API reference", () => {
  test("the signing, auth and wallet routes are documented", async () => {
    const spec = (await (await fetch(`${server.url}/api/docs/json`)).json()) as { paths: Record<string, unknown> };
    for (const path of ["/api/xumm/sign-request", "/api/xumm/status/{uuid}", "/api/auth/status", "/api/auth/callback", "/api/wallet/balance"]) {
      expect(Object.keys(spec.paths)).toContain(path);
    }
  });
});
