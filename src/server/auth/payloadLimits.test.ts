import { afterAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { Wallet } from "xrpl";
import { signRequests } from "../signing/schema";
import { CrashSocket } from "../testing/crashKit";
import { sessionBrowser } from "../testing/nftKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import { PAYLOAD_ROUTES, PAYLOADS_PER_IP, PAYLOADS_PER_WALLET } from "./limits";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop(true);
});

async function start(env: Record<string, string>) {
  const server = await startTestServer(env);
  servers.push(server);
  return server;
}

const payloadsOf = (server: TestServer, wallet: string) => server.ctx.store.db.select().from(signRequests).where(eq(signRequests.wallet, wallet)).all().length;

describe("Xaman payloads are limited per wallet and per IP on every route that makes one", () => {
  test("one session asking for 30 crash bets at once gets the limit's worth and 429s with the text and Retry-After; its socket's bets are refused too", async () => {
    const server = await start({ PAYLOADS_PER_WALLET_PER_MINUTE: String(PAYLOADS_PER_WALLET), PAYLOADS_PER_IP_PER_MINUTE: String(PAYLOADS_PER_IP) });
    const wallet = Wallet.generate().classicAddress;
    const browser = await sessionBrowser(server, wallet);
    const answers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const res = await fetch(`${server.url}/api/crash-bet/initiate`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: server.url, cookie: browser.cookieHeader() },
          body: JSON.stringify({ walletAddress: wallet, betAmount: 1 }),
        });
        return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as { code?: string; error?: string } };
      }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(PAYLOADS_PER_WALLET);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused).toHaveLength(30 - PAYLOADS_PER_WALLET);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.body.code).toBe("RATE_LIMITED");
      expect(r.body.error).toMatch(/^Too many requests\. Try again in \d+ s\.$/);
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
    expect(payloadsOf(server, wallet)).toBe(PAYLOADS_PER_WALLET);

    const socket = await CrashSocket.open(server, browser);
    await socket.auth(wallet);
    socket.send({ type: "bet", betAmount: 1 });
    expect(await socket.next((m) => m.type === "error" || m.type === "betPaymentRequest", 5_000, "the bet's answer")).toMatchObject({ type: "error", code: "RATE_LIMITED" });
    socket.close();
    expect(payloadsOf(server, wallet)).toBe(PAYLOADS_PER_WALLET);
  }, 60_000);

  test("every payload route counts against the wallet's limit, and many wallets behind one address against the IP's", async () => {
    // Behind a trusted proxy, each route's test is its own visitor.
    const server = await start({ PAYLOADS_PER_WALLET_PER_MINUTE: "2", PAYLOADS_PER_IP_PER_MINUTE: "5", TRUST_PROXY: "127.0.0.1" });
    const post = (path: string, cookie: string, ip: string) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: server.url, cookie, "x-forwarded-for": ip }, body: "{}" });
    let n = 0;
    for (const path of PAYLOAD_ROUTES) {
      const browser = await sessionBrowser(server, Wallet.generate().classicAddress);
      const ip = `198.51.100.${++n}`;
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await post(path, browser.cookieHeader(), ip)).status);
      expect({ path, third: statuses[2] }).toEqual({ path, third: 429 });
      expect(statuses.slice(0, 2)).not.toContain(429);
    }
    // Six wallets from one address, one request each: the sixth is over the address's five.
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await post("/api/slots/create-session", (await sessionBrowser(server, Wallet.generate().classicAddress)).cookieHeader(), "203.0.113.50")).status);
    expect(statuses.slice(0, 5)).not.toContain(429);
    expect(statuses[5]).toBe(429);
  }, 120_000);
});
