import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../testing/testServer";

// The cached reads are answered in Bun's router (platform/http/readLane.ts) when fresh, the rest by their
// Elysia routes: both must answer every request the same, good input or bad.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
  await server.ctx.ledger.waitConnected(15_000);
});
afterAll(() => server.stop(true));

/** Status, headers (but the date and length the wire adds) and body, but the time of the request (the minting status' timestamp, the rewards' now). */
async function seen(res: Response) {
  const headers = [...res.headers].filter(([name]) => name !== "date" && name !== "content-length").sort();
  return { status: res.status, headers, body: (await res.text()).replace(/"(timestamp|now)":"[^"]+"/, '"$1":"-"') };
}

test("the lane answers what Elysia answers, good input or bad", async () => {
  const wallet = server.ctx.ledger.platformAddress;
  const paths = [
    "/api/nft-tiers",
    "/api/nft-availability",
    "/api/nft-minting-status",
    "/api/stats",
    `/api/rewards/wallet/${wallet}`,
    `/api/rewards/wallet/${wallet}?period=30days&page=1&pageSize=5&t=1`,
    "/api/rewards/wallet/not-an-address",
    `/api/rewards/wallet/${wallet}?period=bogus`,
    "/api/crash/rounds",
    "/api/crash/rounds?limit=3",
    "/api/crash/rounds?limit=0",
    `/api/crash/bets?wallet=${wallet}`,
    `/api/crash/bets?wallet=${wallet}&limit=2&paid=1`,
    "/api/crash/bets",
    "/api/crash/bets?wallet=bad",
    `/api/crash/bets?wallet=${wallet}&paid=maybe`,
    "/api/racing/races",
    "/api/racing/races?limit=abc",
    `/api/slots/spins?wallet=${wallet}`,
    `/api/slots/spins?wallet=${wallet}&limit=3&before=9`,
    "/api/slots/spins?wallet=bad",
    `/api/daily-spin/spins?wallet=${wallet}`,
    "/api/daily-spin/spins?wallet=",
  ];
  for (const path of paths) {
    await (await fetch(server.url + path)).text(); // builds what the lane then finds cached
    const lane = await seen(await fetch(server.url + path));
    const elysia = await seen(await server.app.handle(new Request(server.url + path)));
    expect({ path, ...lane }).toEqual({ path, ...elysia });
  }
});
