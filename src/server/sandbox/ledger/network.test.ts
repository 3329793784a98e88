import { afterAll, beforeAll, expect, test, setDefaultTimeout } from "bun:test";
import { freePort, startTestServer, type TestServer } from "../../testing/testServer";

// Real servers and ledger closes: allow more than Bun's 5 s default per test on a busy machine.
setDefaultTimeout(30_000);

let server: TestServer;
const outbound: string[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  // Nothing in this test may reach a real network: XRPL_URL points at a closed local port and fetch refuses other hosts.
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname !== "127.0.0.1" && url.hostname !== "localhost") {
      outbound.push(url.href);
      throw new Error(`network access refused in test: ${url.href}`);
    }
    return realFetch(input, init);
  }) as typeof fetch;
  const closedPort = await freePort();
  server = await startTestServer({
    NETWORK: "testnet",
    XRPL_URL: `ws://127.0.0.1:${closedPort}`,
    XUMM_API_KEY: "00000000-0000-4000-8000-000000000001",
    XUMM_API_SECRET: "00000000-0000-4000-8000-000000000002",
    PLATFORM_SEED: "sEdTM1uX8pu2do5XvTnutH6HsouMaM2",
    VVX_ISSUER: "rPwPUPAsPmSETpDxsYmQRBoUP48dqsuXxV",
  });
});

afterAll(async () => {
  await server?.stop(true);
  globalThis.fetch = realFetch;
});

test("on a real network there is no sandbox ledger and every /sandbox/* path is 404", async () => {
  expect(server.ctx.sandbox?.ledger).toBeUndefined();
  const paths: [string, string][] = [
    ["GET", "/sandbox/explorer"],
    ["GET", "/sandbox/explorer/account/rPwPUPAsPmSETpDxsYmQRBoUP48dqsuXxV"],
    ["GET", `/sandbox/explorer/tx/${"A".repeat(64)}`],
    ["GET", "/sandbox/api/accounts"],
    ["POST", "/sandbox/api/accounts"],
    ["POST", "/sandbox/api/ledger/close"],
    ["GET", "/sandbox/ledger"],
    ["GET", "/sandbox/wallet"],
    ["GET", "/sandbox/xumm/api/v1/platform/ping"],
    ["GET", "/sandbox/anything/else"],
  ];
  for (const [method, path] of paths) {
    const res = await realFetch(`${server.url}${path}`, { method, headers: { "content-type": "application/json" }, body: method === "POST" ? "{}" : undefined });
    expect([method, path, res.status]).toEqual([method, path, 404]);
  }
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/sandbox/ledger`);
  const outcome = await new Promise<string>((resolve) => {
    ws.onopen = () => resolve("open");
    ws.onerror = () => resolve("refused");
    ws.onclose = () => resolve("refused");
  });
  expect(outcome).toBe("refused");
  expect(outbound).toEqual([]);
});
