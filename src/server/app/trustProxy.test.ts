import { afterAll, describe, expect, test } from "bun:test";
import { SIGN_REQUESTS_PER_IP } from "../auth/limits";
import { startTestServer, type TestServer } from "../testing/testServer";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop(true);
});

/** Sign-in requests from one browser-less client behind the given X-Forwarded-For, until one is refused; the statuses. */
async function signIns(server: TestServer, forwardedFor: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${server.url}/api/xumm/sign-request`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url, "x-forwarded-for": forwardedFor },
      body: JSON.stringify({ type: "wallet_connect" }),
    });
    statuses.push(res.status);
  }
  return statuses;
}

describe("behind a reverse proxy (TRUST_PROXY)", () => {
  test("with the proxy trusted, each visitor has their own per-IP limits; a header sent straight to the server is not believed", async () => {
    const proxied = await startTestServer({ TRUST_PROXY: "127.0.0.1" });
    servers.push(proxied);
    // Visitor A uses up their per-IP allowance; visitor B, through the same proxy, is not affected.
    const a = await signIns(proxied, "198.51.100.7", SIGN_REQUESTS_PER_IP + 1);
    expect(a.slice(0, SIGN_REQUESTS_PER_IP).every((s) => s === 200)).toBe(true);
    expect(a.at(-1)).toBe(429);
    expect(await signIns(proxied, "198.51.100.8", 1)).toEqual([200]);

    // Without TRUST_PROXY, a client cannot pick a fresh address for itself with the header.
    const direct = await startTestServer();
    servers.push(direct);
    const first = await signIns(direct, "198.51.100.7", SIGN_REQUESTS_PER_IP + 1);
    expect(first.at(-1)).toBe(429);
    expect(await signIns(direct, "198.51.100.9", 1)).toEqual([429]);
  }, 90_000);
});
