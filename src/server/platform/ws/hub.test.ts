import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect as tcpConnect } from "node:net";
import { eventually } from "../../testing/ledgerKit";
import { sessionBrowser } from "../../testing/nftKit";
import { startTestServer, type TestServer } from "../../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop(true);
});

/** Opens /ws (with these upgrade headers) and collects every message it receives. */
async function connect(headers?: Record<string, string>) {
  const ws = new WebSocket(`${server.url.replace("http", "ws")}/ws`, headers ? ({ headers } as unknown as string[]) : undefined);
  const messages: Record<string, unknown>[] = [];
  ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  /** Takes the first message of `type` received so far, or waits for one. */
  const next = (type: string) =>
    eventually(
      () => {
        const found = messages.find((m) => m.type === type);
        if (found) messages.splice(messages.indexOf(found), 1);
        return found;
      },
      () => `a '${type}' message; got ${JSON.stringify(messages)}`,
      1_000,
      10,
    );
  return { ws, messages, next };
}

describe("/ws", () => {
  test("welcomes, answers ping, and delivers topic messages only to subscribers", async () => {
    const a = await connect();
    const b = await connect();
    expect(await a.next("welcome")).toMatchObject({ keepaliveMs: 20_000 });
    a.ws.send(JSON.stringify({ type: "ping" }));
    expect(await a.next("pong")).toHaveProperty("timestamp");

    a.ws.send(JSON.stringify({ type: "subscribe", topic: "site" }));
    expect(await a.next("subscribed")).toEqual({ type: "subscribed", topic: "site" });
    expect(server.ctx.hub.subscribers("site")).toBe(1);
    expect(server.ctx.hub.emit("site", undefined, { type: "stats", holders: 3 })).toBeGreaterThan(0);
    expect(await a.next("stats")).toEqual({ type: "stats", holders: 3, topic: "site" });
    await Bun.sleep(30);
    expect(b.messages.some((m) => m.type === "stats")).toBe(false);

    a.ws.send(JSON.stringify({ type: "unsubscribe", topic: "site" }));
    await a.next("unsubscribed");
    expect(server.ctx.hub.publish("site", { type: "stats" })).toBe(0);
    a.ws.close();
    b.ws.close();
  });

  test("malformed frames get an error message with a code and the socket stays open", async () => {
    const c = await connect();
    c.ws.send("not json");
    expect(await c.next("error")).toMatchObject({ code: "BAD_MESSAGE" });
    c.ws.send(JSON.stringify({ type: "subscribe", topic: "BAD TOPIC!" }));
    expect(await c.next("error")).toMatchObject({ code: "VALIDATION_ERROR" });
    c.ws.send(JSON.stringify({ type: "dance" }));
    expect(await c.next("error")).toMatchObject({ code: "UNKNOWN_TYPE" });
    c.ws.send(JSON.stringify({ type: "keepalive" }));
    await c.next("pong");
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.ws.close();
  });

  test("only known channels can be followed and a wallet's channel only with that wallet's session", async () => {
    const e = await connect();
    await e.next("welcome");
    e.ws.send(JSON.stringify({ type: "subscribe", topic: "anything-else" }));
    expect(await e.next("error")).toMatchObject({ code: "VALIDATION_ERROR" });
    e.ws.send(JSON.stringify({ type: "subscribe", topic: "wallet:rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY" }));
    expect(await e.next("error")).toMatchObject({ code: "FORBIDDEN" });
    expect(server.ctx.hub.subscribers("wallet:rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY")).toBe(0);
    e.ws.close();
  });

  test("the session cookie of the upgrade opens that wallet's own channels, no other's", async () => {
    const own = "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY";
    const other = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
    const session = (await sessionBrowser(server, own)).cookieHeader();
    const s = await connect({ cookie: `theme=dark; ${session}` });
    for (const topic of [`wallet:${own}`, `player:crash:${own}`]) {
      s.ws.send(JSON.stringify({ type: "subscribe", topic }));
      expect(await s.next("subscribed")).toEqual({ type: "subscribed", topic });
    }
    s.ws.send(JSON.stringify({ type: "subscribe", topic: `wallet:${other}` }));
    expect(await s.next("error")).toMatchObject({ code: "FORBIDDEN", topic: `wallet:${other}` });
    server.ctx.hub.emit("wallet", own, { type: "reward-claim", claimId: 1, tokenId: "T", claimType: "early", status: "Pending", amount: "1", txid: null });
    expect(await s.next("reward-claim")).toMatchObject({ claimId: 1, topic: `wallet:${own}` });
    s.ws.close();
    // A made-up session is no session.
    const forged = await connect({ cookie: session.replace(/=.*/, `=${"A".repeat(43)}`) });
    forged.ws.send(JSON.stringify({ type: "subscribe", topic: `wallet:${own}` }));
    expect(await forged.next("error")).toMatchObject({ code: "FORBIDDEN" });
    forged.ws.close();
  });

  test("logout ends the session's private pushes: its /ws and game sockets close, another session of the wallet keeps its own", async () => {
    const own = "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY";
    const browser = await sessionBrowser(server, own);
    const kept = await connect({ cookie: (await sessionBrowser(server, own)).cookieHeader() });
    const site = await connect({ cookie: browser.cookieHeader() });
    for (const s of [site, kept]) {
      s.ws.send(JSON.stringify({ type: "subscribe", topic: `wallet:${own}` }));
      await s.next("subscribed");
    }
    const game = new WebSocket(`${server.url.replace("http", "ws")}/ws/games/crash?wallet=${own}`, { headers: { cookie: browser.cookieHeader(), origin: server.url } } as never);
    const gameMessages: Record<string, unknown>[] = [];
    game.onmessage = (e) => gameMessages.push(JSON.parse(String(e.data)));
    await new Promise((resolve, reject) => ((game.onopen = resolve), (game.onerror = reject)));
    await eventually(() => gameMessages.some((m) => m.type === "authenticated"), () => `the game socket authenticated; got ${JSON.stringify(gameMessages)}`, 1_000, 10);
    const closed = [site.ws, game].map((ws) => new Promise<number>((resolve) => ws.addEventListener("close", (e) => resolve(e.code))));

    const out = await browser.json("/api/auth/logout", { method: "POST" });
    expect(out.body).toMatchObject({ loggedOut: true });
    expect(await Promise.race([Promise.all(closed), Bun.sleep(2_000).then(() => "still open")])).toEqual([4001, 4001]);
    // The wallet's pushes now reach only the session that is still signed in.
    server.ctx.hub.emit("wallet", own, { type: "reward-claim", claimId: 2, tokenId: "T", claimType: "early", status: "Pending", amount: "1", txid: null });
    expect(await kept.next("reward-claim")).toMatchObject({ claimId: 2 });
    expect(site.messages.some((m) => m.type === "reward-claim")).toBe(false);
    expect(server.ctx.hub.subscribers(`player:crash:${own}`)).toBe(0);
    kept.ws.close();
  });

  // The same refusals on every socket of the product (one mechanism, platform/ws/route.ts): what Elysia's `.ws` answered.
  for (const path of ["/ws", "/ws/games/crash", "/ws/games/unicorn-racing"]) {
    test(`${path}: upgrades get the API's refusals: another site (403), a body (415), a broken handshake (400); other requests the API's 404`, async () => {
      const raw = (head: string, body = "") =>
        new Promise<string>((resolve, reject) => {
          const socket = tcpConnect(server.port, "127.0.0.1", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${head}\r\n${body}`));
          let text = "";
          socket.on("data", (d) => {
            text += String(d);
            if (text.includes("\r\n\r\n")) (socket.destroy(), resolve(text));
          });
          socket.on("error", reject);
        });
      const handshake = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
      expect(await raw(handshake)).toStartWith("HTTP/1.1 101");
      expect(await raw(`${handshake}Origin: ${server.url}\r\n`)).toStartWith("HTTP/1.1 101");
      const foreign = await raw(`${handshake}Origin: https://evil.example\r\nSec-Fetch-Site: cross-site\r\n`);
      expect(foreign).toStartWith("HTTP/1.1 403");
      expect(foreign).toContain('"code":"CROSS_SITE_REQUEST"');
      for (const body of [`Content-Length: 3\r\n`, `Content-Type: application/json\r\nContent-Length: 2\r\n`]) {
        const withBody = await raw(`${handshake}${body}`, body.includes("json") ? "{}" : "abc");
        expect(withBody).toStartWith("HTTP/1.1 415");
        expect(withBody.toLowerCase()).toContain("content-security-policy: default-src 'none'");
      }
      expect(await raw("")).toStartWith("HTTP/1.1 400");
      for (const method of ["GET", "POST"]) {
        const plain = await fetch(`${server.url}${path}`, { method });
        expect(plain.status).toBe(404);
        expect(await plain.json()).toMatchObject({ code: "NOT_FOUND" });
      }
    });
  }

  test("closed sockets leave the hub", async () => {
    const d = await connect();
    await d.next("welcome");
    const before = server.ctx.hub.size;
    d.ws.close();
    await eventually(() => server.ctx.hub.size !== before, "the hub to notice the close", 500, 10);
    expect(server.ctx.hub.size).toBe(before - 1);
  });
});
