import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Wallet } from "xrpl";
import { XummSdk } from "xumm-sdk";
import { sandboxXummCredentials } from "../../signing/credentials";
import { startTestServer, type TestServer } from "../../testing/testServer";

let server: TestServer;
let sdk: XummSdk;

beforeAll(async () => {
  server = await startTestServer();
  const { apiKey, apiSecret } = sandboxXummCredentials(server.ctx.config.sandboxSeed);
  sdk = new XummSdk(apiKey, apiSecret);
  sdk.setEndpoint(`${server.url}/sandbox/xumm`);
});
afterAll(() => server.stop(true));

const sandbox = async (path: string, body?: unknown) => {
  const res = await fetch(`${server.url}/sandbox/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
};

/** Waits until `predicate` holds for one of the events a subscription saw. */
function waitForEvent(events: Record<string, unknown>[], predicate: (e: Record<string, unknown>) => boolean, ms = 5000) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const hit = events.find(predicate);
      if (hit) {
        clearInterval(timer);
        resolve(hit);
      } else if (Date.now() - started > ms) {
        clearInterval(timer);
        reject(new Error(`no matching event in ${JSON.stringify(events)}`));
      }
    }, 20);
  });
}

describe("sandbox Xaman through the real xumm-sdk", () => {
  test("ping answers with the application for the sandbox key pair; other keys are refused", async () => {
    const pong = await sdk.ping();
    expect(pong.application.name).toBe("VVX (sandbox)");
    expect(pong.application.uuidv4).toBe(sandboxXummCredentials(server.ctx.config.sandboxSeed).apiKey);

    const stranger = new XummSdk("00000000-0000-4000-8000-000000000000", "00000000-0000-4000-8000-000000000001");
    stranger.setEndpoint(`${server.url}/sandbox/xumm`);
    await expect(stranger.ping()).rejects.toThrow(/Error code 403/);
  });

  test("create returns Xaman's shape; the QR PNG and matrix encode next.always", async () => {
    const created = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" }, custom_meta: { instruction: "Hello" } }, true))!;
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.next.always).toBe(`${server.ctx.config.publicUrl}/sandbox/wallet/sign/${created.uuid}`);
    expect(created.refs.websocket_status).toBe(`${server.ctx.config.publicUrl.replace("http", "ws")}/sandbox/xumm/sign/${created.uuid}`);
    expect(created.pushed).toBe(false);

    const png = await fetch(created.refs.qr_png);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = new Uint8Array(await png.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
    const matrix = (await (await fetch(created.refs.qr_matrix)).json()) as { link: string; matrix: number[][] };
    expect(matrix.link).toBe(created.next.always);
    expect(matrix.matrix.length).toBeGreaterThan(20);

    const got = (await sdk.payload.get(created.uuid))!;
    expect(got.meta).toMatchObject({ exists: true, uuid: created.uuid, signed: false, resolved: false, cancelled: false, expired: false, submit: false, app_opened: false });
    expect(got.payload.tx_type).toBe("SignIn");
    expect(got.payload.request_json).toEqual({ TransactionType: "SignIn" });
    expect(got.payload.expires_in_seconds).toBeGreaterThan(290);
    expect(got.payload.expires_in_seconds).toBeLessThanOrEqual(300);
    expect(got.custom_meta.instruction).toBe("Hello");
    expect(got.response.account).toBeNull();
  });

  test("subscribe: opened and signed events; a SignIn is signed, never submitted, and issues a user token", async () => {
    const wallet = Wallet.generate();
    const created = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" } }, true))!;
    const events: Record<string, unknown>[] = [];
    const sub = await sdk.payload.subscribe(created.uuid, (e) => {
      events.push(e.data as Record<string, unknown>);
      if ((e.data as { signed?: boolean }).signed !== undefined) return e.data;
    });
    await waitForEvent(events, (e) => e.message === `Welcome ${created.uuid}`);
    await waitForEvent(events, (e) => typeof e.expires_in_seconds === "number");

    expect((await sandbox(`/payloads/${created.uuid}/open`, {})).status).toBe(200);
    await waitForEvent(events, (e) => e.opened === true);

    const signed = await sandbox(`/payloads/${created.uuid}/sign`, { seed: wallet.seed });
    expect(signed.status).toBe(200);
    expect(signed.json).toMatchObject({ success: true, signed: true, account: wallet.classicAddress, dispatchedResult: null });
    const resolved = (await sub.resolved) as Record<string, unknown>;
    expect(resolved).toMatchObject({ signed: true, payload_uuidv4: created.uuid, txid: signed.json.txid });

    const got = (await sdk.payload.get(created.uuid))!;
    expect(got.meta).toMatchObject({ signed: true, resolved: true, app_opened: true });
    expect(got.response.account).toBe(wallet.classicAddress);
    expect(got.response.signer).toBe(wallet.classicAddress);
    expect(got.response.hex).toMatch(/^[0-9A-F]+$/);
    expect(got.response.txid).toBe(signed.json.txid);
    expect(got.response.dispatched_result).toBeNull();
    expect(got.response.resolved_at).not.toBeNull();
    const token = got.application.issued_user_token!;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect((await sdk.verifyUserToken(token))?.active).toBe(true);

    // Signing twice is refused.
    expect((await sandbox(`/payloads/${created.uuid}/sign`, { seed: wallet.seed })).status).toBe(409);
  });

  test("a payload created with a user token is pushed and listed first for that account", async () => {
    const wallet = Wallet.generate();
    const first = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" } }, true))!;
    await sandbox(`/payloads/${first.uuid}/sign`, { seed: wallet.seed });
    const token = (await sdk.payload.get(first.uuid))!.application.issued_user_token!;

    const other = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" } }, true))!;
    const pushed = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" }, user_token: token }, true))!;
    expect(pushed.pushed).toBe(true);
    expect(other.pushed).toBe(false);
    expect((await sdk.payload.get(pushed.uuid))!.meta.pushed).toBe(true);

    const list = await sandbox(`/payloads?state=pending&account=${wallet.classicAddress}`);
    expect(list.json.payloads[0]).toMatchObject({ uuid: pushed.uuid, pushed: true, pushedTo: wallet.classicAddress });
    expect(list.json.payloads.some((p: { uuid: string }) => p.uuid === other.uuid)).toBe(true);

    // The pushed request signed by the same account keeps the same token.
    await sandbox(`/payloads/${pushed.uuid}/sign`, { seed: wallet.seed });
    expect((await sdk.payload.get(pushed.uuid))!.application.issued_user_token).toBe(token);
  });

  test("cancel: OK once, then ALREADY_CANCELLED; an opened payload cannot be cancelled", async () => {
    const created = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" } }, true))!;
    const first = (await sdk.payload.cancel(created.uuid))!;
    expect(first.result).toEqual({ cancelled: true, reason: "OK" });
    expect(first.meta.cancelled).toBe(true);
    const again = (await sdk.payload.cancel(created.uuid))!;
    expect(again.result).toEqual({ cancelled: false, reason: "ALREADY_CANCELLED" });
    expect((await sandbox(`/payloads/${created.uuid}/sign`, { seed: Wallet.generate().seed })).status).toBe(409);

    const opened = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" } }, true))!;
    await sandbox(`/payloads/${opened.uuid}/open`, {});
    expect((await sdk.payload.cancel(opened.uuid))!.result).toEqual({ cancelled: false, reason: "ALREADY_OPENED" });
  });

  test("reject resolves without signing and tells subscribers", async () => {
    const created = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" } }, true))!;
    const events: Record<string, unknown>[] = [];
    await sdk.payload.subscribe(created.uuid, (e) => {
      events.push(e.data as Record<string, unknown>);
      if ((e.data as { signed?: boolean }).signed === false) return true;
    });
    await waitForEvent(events, (e) => e.message === `Welcome ${created.uuid}`);
    expect((await sandbox(`/payloads/${created.uuid}/reject`, {})).json).toMatchObject({ success: true, rejected: true, returnUrl: null });
    await waitForEvent(events, (e) => e.signed === false);
    const got = (await sdk.payload.get(created.uuid))!;
    expect(got.meta).toMatchObject({ resolved: true, signed: false, cancelled: false, expired: false });
  });

  test("expiry: options.expire is honoured, subscribers hear expired, signing afterwards is refused", async () => {
    const created = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" }, options: { expire: 1 / 60 } }, true))!;
    const events: Record<string, unknown>[] = [];
    const sub = await sdk.payload.subscribe(created.uuid, (e) => {
      events.push(e.data as Record<string, unknown>);
      if ((e.data as { expired?: boolean }).expired) return "expired";
    });
    expect(await sub.resolved).toBe("expired");
    const got = (await sdk.payload.get(created.uuid))!;
    expect(got.meta).toMatchObject({ expired: true, signed: false, resolved: false });
    expect(got.payload.expires_in_seconds).toBe(0);
    const late = await sandbox(`/payloads/${created.uuid}/sign`, { seed: Wallet.generate().seed });
    expect(late.status).toBe(409);
    expect(late.json.code).toBe("PAYLOAD_EXPIRED");
    expect((await sdk.payload.cancel(created.uuid))!.result.reason).toBe("ALREADY_EXPIRED");
  });

  test("the sign websocket answers keepalive pings and knows unknown payloads", async () => {
    const created = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" } }, true))!;
    const ws = new WebSocket(created.refs.websocket_status);
    const messages: Record<string, unknown>[] = [];
    ws.onmessage = (m) => messages.push(JSON.parse(String(m.data)));
    await new Promise((r) => (ws.onopen = r));
    ws.send('{"ping":true}');
    await waitForEvent(messages, (m) => m.message === "Right back at you!");
    expect(messages[0]).toEqual({ message: `Welcome ${created.uuid}` });
    ws.close();

    const unknown = new WebSocket(`${server.url.replace("http", "ws")}/sandbox/xumm/sign/00000000-0000-4000-8000-000000000000`);
    const first = await new Promise<string>((r) => (unknown.onmessage = (m) => r(String(m.data))));
    expect(JSON.parse(first).message).toMatch(/not found/);
    unknown.close();
  });

  test("bad payloads are refused with Xaman errors; unknown uuids read as null", async () => {
    await expect(sdk.payload.create({ txjson: { TransactionType: "NoSuchTx" } } as never, true)).rejects.toThrow(/Error code 400/);
    await expect(sdk.payload.create({ txjson: { TransactionType: "SignIn" }, options: { expire: -1 } }, true)).rejects.toThrow(/Error code 400/);
    expect(await sdk.payload.get("00000000-0000-4000-8000-000000000000")).toBeNull();
    const bad = await sandbox(`/payloads/not-a-uuid/sign`, { seed: "x" });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("uuid");
    const created = (await sdk.payload.create({ txjson: { TransactionType: "SignIn" } }, true))!;
    const badSeed = await sandbox(`/payloads/${created.uuid}/sign`, { seed: "not a seed" });
    expect(badSeed.status).toBe(400);
    expect(badSeed.json.message).toContain("seed");
    const noAccount = await sandbox(`/payloads/${created.uuid}/sign`, { account: Wallet.generate().classicAddress });
    expect(noAccount.status).toBe(400);
    expect(noAccount.json.message).toContain("account");
  });
});
