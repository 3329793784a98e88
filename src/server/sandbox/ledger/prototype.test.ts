import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../testing/testServer";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop(true);
});

/** Sends one request over a fresh rippled-API socket and returns the reply. */
async function ask(request: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/sandbox/ledger`);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  const reply = new Promise<Record<string, unknown>>((resolve) => {
    ws.onmessage = (e) => resolve(JSON.parse(String(e.data)));
  });
  ws.send(JSON.stringify(request));
  const answer = await reply;
  ws.close();
  return answer;
}

test("method names from Object.prototype are unknown commands, as on rippled", async () => {
  for (const command of ["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"]) {
    const reply = await ask({ id: 1, command });
    expect(reply).toMatchObject({ id: 1, status: "error", error: "unknownCmd", type: "response" });
  }
  // A real method still answers.
  expect(await ask({ id: 2, command: "ping" })).toMatchObject({ id: 2, status: "success" });
});

test("account_objects types from Object.prototype are invalid, as on rippled", async () => {
  const account = server.ctx.ledger.platformAddress;
  for (const type of ["constructor", "__proto__", "toString"]) {
    expect(await ask({ id: 3, command: "account_objects", account, type })).toMatchObject({ id: 3, status: "error", error: "invalidParams" });
  }
  expect(await ask({ id: 4, command: "account_objects", account, type: "state" })).toMatchObject({ id: 4, status: "success" });
});
