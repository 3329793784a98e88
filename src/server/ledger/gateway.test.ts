import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Wallet } from "xrpl";
import { loadConfig } from "../platform/config";
import { memoryLogger } from "../platform/log";
import { freePort, startTestServer, type TestServer } from "../testing/testServer";
import { LedgerRequestError, LedgerUnavailableError } from "./errors";
import { LedgerGateway, gatewayFromConfig, type LedgerEvents } from "./gateway";
import { startTcpProxy, type TcpProxy } from "../testing/tcpProxy";
import { eventually, faucet, ledgerUrl, outsideClient, pay } from "../testing/ledgerKit";

// Real servers and ledgers: allow more than Bun's 5 s default.
setDefaultTimeout(60_000);

let server: TestServer;
let proxy: TcpProxy;

beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.ledger.waitConnected(15_000);
  proxy = startTcpProxy(server.port);
});

afterAll(async () => {
  proxy.close();
  await server.stop(true);
});

function gatewayVia(url: string, platform = Wallet.generate()) {
  const log = memoryLogger();
  const gateway = new LedgerGateway({
    url,
    network: "testnet",
    platform,
    vvx: server.ctx.ledger.vvx,
    log,
    backoff: { minMs: 20, maxMs: 200 },
    connectionTimeoutMs: 1_000,
    requestTimeoutMs: 3_000,
  });
  const seen: { event: keyof LedgerEvents; payload: unknown }[] = [];
  for (const event of ["state", "connected", "disconnected"] as const) gateway.on(event, (payload) => seen.push({ event, payload }));
  return { gateway, log, seen };
}

describe("ledger gateway", () => {
  test("in sandbox mode the platform is the sandbox treasury and VVX the sandbox issuer", () => {
    const wallets = server.ctx.sandbox!.wallets;
    expect(server.ctx.ledger.platformAddress).toBe(wallets.treasury.classicAddress);
    expect(server.ctx.ledger.vvx).toEqual({ currency: "VVX", issuer: wallets.issuer.classicAddress });
    expect(server.ctx.ledger.url).toBe(ledgerUrl(server.url));
    expect(server.ctx.ledger.state).toBe("connected");
  });

  test("on a real network the platform comes from PLATFORM_SEED and VVX from VVX_ISSUER", () => {
    const platform = Wallet.generate();
    const issuer = Wallet.generate().classicAddress;
    const config = loadConfig({
      NETWORK: "testnet",
      XUMM_API_KEY: "00000000-0000-4000-8000-000000000001",
      XUMM_API_SECRET: "00000000-0000-4000-8000-000000000002",
      PLATFORM_SEED: platform.seed!,
      VVX_ISSUER: issuer,
    });
    const gateway = gatewayFromConfig(config, memoryLogger());
    expect(gateway.platformAddress).toBe(platform.classicAddress);
    expect(gateway.vvx.issuer).toBe(issuer);
    expect(gateway.url).toBe("wss://s.altnet.rippletest.net:51233");
    expect(gateway.state).toBe("idle");
  });

  test("requests pass through; rippled errors are typed with their rippled name", async () => {
    const info = await server.ctx.ledger.request({ command: "server_info" });
    expect(info.result.info.validated_ledger?.seq).toBeGreaterThan(0);
    const err = await server.ctx.ledger.request({ command: "account_info", account: Wallet.generate().classicAddress }).catch((e) => e);
    expect(err).toBeInstanceOf(LedgerRequestError);
    expect(err.ledgerError).toBe("actNotFound");
    expect(err.status).toBe(502);
    expect(err.code).toBe("LEDGER_ERROR");
  });

  test("an unreachable ledger gives LedgerUnavailableError (503) and keeps retrying with backoff", async () => {
    const port = await freePort();
    const { gateway, log } = gatewayVia(`ws://127.0.0.1:${port}/sandbox/ledger`);
    gateway.start();
    const err = await gateway.request({ command: "ping" }, { waitMs: 300 }).catch((e) => e);
    expect(err).toBeInstanceOf(LedgerUnavailableError);
    expect(err.status).toBe(503);
    expect(err.code).toBe("LEDGER_UNAVAILABLE");
    expect(gateway.state).toBe("connecting");
    expect(log.lines.some((l) => l.includes("ledger unreachable, retrying"))).toBe(true);
    await gateway.stop();
    expect(gateway.state).toBe("stopped");
    const after = await gateway.request({ command: "ping" }).catch((e) => e);
    expect(after).toBeInstanceOf(LedgerUnavailableError);
  });

  test("a dropped connection is restored with its subscriptions, and reported as a reconnect", async () => {
    const platform = await faucet(server.url, { xrp: 100 });
    const { gateway, seen } = gatewayVia(`ws://127.0.0.1:${proxy.port}/sandbox/ledger`, platform);
    const txs: string[] = [];
    gateway.on("transaction", (t) => txs.push(t.hash!));
    await gateway.watchAccount(platform.classicAddress);
    gateway.start();
    await gateway.waitConnected(5_000);
    expect(seen.filter((s) => s.event === "connected")).toEqual([{ event: "connected", payload: expect.objectContaining({ reconnect: false }) }]);

    // Cut the line and keep the server unreachable for a while: the gateway backs off and retries.
    proxy.setDown(true);
    proxy.dropAll();
    await eventually(() => gateway.state === "reconnecting", "reconnecting state");
    const down = await gateway.request({ command: "ping" }, { waitMs: 100 }).catch((e) => e);
    expect(down).toBeInstanceOf(LedgerUnavailableError);
    await Bun.sleep(300);
    proxy.setDown(false);
    await gateway.waitConnected(5_000);
    expect(seen.filter((s) => s.event === "disconnected")).toHaveLength(1);
    expect(seen.filter((s) => s.event === "connected").at(-1)?.payload).toMatchObject({ reconnect: true });
    expect(seen.filter((s) => s.event === "state").map((s) => s.payload)).toEqual(["connecting", "connected", "reconnecting", "connected"]);

    // The account subscription was restored on the new connection.
    const client = await outsideClient(server.url);
    const payer = await faucet(server.url, { xrp: 50 });
    const res = await pay(client, payer, { Destination: platform.classicAddress, Amount: "1000" });
    await eventually(() => txs.includes(res.result.hash), "the payment on the restored subscription");
    await client.disconnect();
    await gateway.stop();
  });
});
