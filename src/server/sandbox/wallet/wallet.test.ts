import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { startTestServer, type TestServer } from "../../testing/testServer";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.stop(true));

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

describe("sandbox wallet", () => {
  test("the page is self-contained, dark and phone-sized; the QR target names its request", async () => {
    const list = await fetch(`${server.url}/sandbox/wallet`);
    expect(list.status).toBe(200);
    expect(list.headers.get("content-type")).toContain("text/html");
    const html = await list.text();
    expect(html).toContain('name="viewport"');
    expect(html).toContain('content="dark"');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=["']https?:/);
    expect(html).toContain("localStorage");
    // The inline script at least parses (the browser test drives it for real).
    const code = html.match(/<script>([\s\S]*)<\/script>/)![1]!;
    expect(() => new Function(code)).not.toThrow();

    const { signing } = server.ctx;
    const created = await signing.createSignRequest({ kind: "wallet_connect", txjson: { TransactionType: "SignIn" } });
    const page = await fetch(created.next.always);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`"uuid":"${created.uuid}"`);
    expect((await fetch(`${server.url}/sandbox/wallet/sign/not-a-uuid`)).status).toBe(400);
  });

  test("payload API: pending list with what each request will do, open, sign, reject", async () => {
    const { signing } = server.ctx;
    const payer = Wallet.generate();
    const destination = Wallet.generate().classicAddress;
    const payment = await signing.createPaymentRequest({
      kind: "vvx_payment",
      wallet: payer.classicAddress,
      destination,
      destinationTag: 42,
      amount: { currency: "VVX", issuer: Wallet.generate().classicAddress, micro: 500_000_000_000n },
      memo: "NFT purchase",
      instruction: "Pay for Genesis",
    });
    const xrp = await signing.createPaymentRequest({ kind: "crash_bet", wallet: payer.classicAddress, destination, amount: { drops: 5_500_000n } });

    const pending = await api("GET", "/sandbox/api/payloads?state=pending");
    expect(pending.status).toBe(200);
    const vvx = pending.json.payloads.find((p: { uuid: string }) => p.uuid === payment.uuid);
    expect(vvx).toMatchObject({ txType: "Payment", state: "pending", instruction: "Pay for Genesis", mustSignWith: payer.classicAddress, pushed: false });
    expect(vvx.lines).toEqual([
      { label: "Type", value: "Payment" },
      { label: "Amount", value: "500000 VVX" },
      { label: "Account", value: payer.classicAddress },
      { label: "Destination", value: destination },
      { label: "Destination tag", value: "42" },
      { label: "Memo", value: "NFT purchase" },
    ]);
    const bet = pending.json.payloads.find((p: { uuid: string }) => p.uuid === xrp.uuid);
    expect(bet.lines).toContainEqual({ label: "Amount", value: "5.5 XRP" });

    // Only the account the request names may sign it.
    const wrong = await api("POST", `/sandbox/api/payloads/${payment.uuid}/sign`, { seed: Wallet.generate().seed });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toContain(payer.classicAddress);

    expect((await api("POST", `/sandbox/api/payloads/${xrp.uuid}/open`)).json).toEqual({ success: true, opened: true });
    expect((await api("GET", `/sandbox/api/payloads/${xrp.uuid}`)).json.payload.state).toBe("pending");
    expect((await api("POST", `/sandbox/api/payloads/${xrp.uuid}/reject`)).json).toMatchObject({ success: true, rejected: true, returnUrl: null });
    expect((await api("GET", "/sandbox/api/payloads?state=rejected")).json.payloads.some((p: { uuid: string }) => p.uuid === xrp.uuid)).toBe(true);
    expect((await signing.status(xrp.uuid)).rejected).toBe(true);

    const signIn = await signing.createSignRequest({ kind: "wallet_connect", txjson: { TransactionType: "SignIn" } });
    const signed = await api("POST", `/sandbox/api/payloads/${signIn.uuid}/sign`, { seed: payer.seed });
    expect(signed.json).toMatchObject({ success: true, signed: true, account: payer.classicAddress });
    expect(signed.json.txid).toMatch(/^[0-9A-F]{64}$/);
  });

  test("signing with a faucet account picked in the wallet", async () => {
    const created = await fetch(`${server.url}/sandbox/api/accounts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ xrp: 10 }) });
    const { address } = (await created.json()) as { address: string };
    const signIn = await server.ctx.signing.createSignRequest({ kind: "wallet_connect", txjson: { TransactionType: "SignIn" } });
    const signed = await api("POST", `/sandbox/api/payloads/${signIn.uuid}/sign`, { account: address });
    expect(signed.json).toMatchObject({ success: true, signed: true, account: address, dispatchedResult: null });
    expect((await server.ctx.signing.status(signIn.uuid)).account).toBe(address);
  });

  test("payload API input errors name the field", async () => {
    const badState = await api("GET", "/sandbox/api/payloads?state=nope");
    expect(badState.status).toBe(400);
    expect(badState.json.message).toContain("state");
    const unknown = await api("GET", "/sandbox/api/payloads/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    const noSigner = await api("POST", `/sandbox/api/payloads/${(await server.ctx.signing.createSignRequest({ kind: "wallet_connect", txjson: { TransactionType: "SignIn" } })).uuid}/sign`, {});
    expect(noSigner.status).toBe(400);
    expect(noSigner.json.message).toContain("account");
  });
});

describe("an expired sign request", () => {
  test("the wallet refuses it once the product's clock passed its 5 minutes, as Xaman does: the app sees it expired, no session is made", async () => {
    const { TestBrowser } = await import("../../testing/testBrowser");
    const account = (await api("POST", "/sandbox/api/accounts", { xrp: 20 })).json.address as string;
    const browser = new TestBrowser(server.url);
    const connect = async () => (await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } })).body as { uuid: string };
    const advance = (ms: number) => api("POST", "/sandbox/api/clock/advance", { ms });

    // 4 min 59 s later a QR still signs.
    const fresh = await connect();
    await advance(299_000);
    expect((await api("POST", `/sandbox/api/payloads/${fresh.uuid}/sign`, { account })).json).toMatchObject({ signed: true });

    // 5 min 1 s later it is expired: refused, gone from the pending list, and the app is told.
    const stale = await connect();
    await advance(301_000);
    const refused = await api("POST", `/sandbox/api/payloads/${stale.uuid}/sign`, { account });
    expect([refused.status, refused.json.code]).toEqual([409, "PAYLOAD_EXPIRED"]);
    expect(refused.json.error).toBe("This sign request expired: it can no longer be signed. Ask the app for a new QR code.");
    expect((await api("GET", "/sandbox/api/payloads?state=pending")).json.payloads.map((p: { uuid: string }) => p.uuid)).not.toContain(stale.uuid);
    const status = (await browser.json(`/api/xumm/status/${stale.uuid}`)).body;
    expect(status).toMatchObject({ signed: false, expired: true, account: null });
    expect((await api("POST", `/sandbox/api/payloads/${stale.uuid}/reject`)).status).toBe(409);
  });
});
