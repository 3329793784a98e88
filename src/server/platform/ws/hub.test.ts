import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop(true);
});

/** Opens /ws and collects every message it receives. */
async function connect() {
  const ws = new WebSocket(`${server.url.replace("http", "ws")}/ws`);
  const messages: Record<string, unknown>[] = [];
  ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const next = async (type: string) => {
    for (let i = 0; i < 100; i++) {
      const found = messages.find((m) => m.type === type);
      if (found) {
        messages.splice(messages.indexOf(found), 1);
        return found;
      }
      await Bun.sleep(10);
    }
    throw new Error(`no '${type}' message; got ${JSON.stringify(messages)}`);
  };
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

  test("closed sockets leave the hub", async () => {
    const d = await connect();
    await d.next("welcome");
    const before = server.ctx.hub.size;
    d.ws.close();
    for (let i = 0; i < 50 && server.ctx.hub.size === before; i++) await Bun.sleep(10);
    expect(server.ctx.hub.size).toBe(before - 1);
  });
});
