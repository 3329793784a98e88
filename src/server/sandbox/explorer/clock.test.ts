import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../testing/testServer";
import { offsetText } from "./pages";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop(true);
});

const press = (ms: string, back: string) =>
  fetch(`${server.url}/sandbox/explorer/clock`, { method: "POST", body: new URLSearchParams({ ms, back }), redirect: "manual" });
const offset = async () => ((await (await fetch(`${server.url}/sandbox/api/clock`)).json()) as { offsetMs: number }).offsetMs;

describe("sandbox explorer clock buttons", () => {
  test("every page shows the sandbox time and +1 hour / +1 day / +30 days; a press moves the clock and comes back to the page", async () => {
    const treasury = server.ctx.ledger.platformAddress;
    const page = await (await fetch(`${server.url}/sandbox/explorer/account/${treasury}`)).text();
    for (const label of ["+1 hour", "+1 day", "+30 days"]) expect(page).toContain(`>${label}</button>`);
    expect(page).toContain(`name="back" value="/sandbox/explorer/account/${treasury}"`);
    expect(page).toContain("ahead of real time: none");

    const res = await press("86400000", `/sandbox/explorer/account/${treasury}`);
    expect([res.status, res.headers.get("location")]).toEqual([303, `/sandbox/explorer/account/${treasury}`]);
    expect(await offset()).toBe(86_400_000);
    expect(await (await fetch(`${server.url}/sandbox/explorer`)).text()).toContain("ahead of real time: 1 d");

    // Another site's address is not a place to go back to; a step not offered moves nothing.
    const away = await press("3600000", "https://example.com/");
    expect(away.headers.get("location")).toBe("/sandbox/explorer");
    expect(await offset()).toBe(90_000_000);
    expect((await press("999", "/sandbox/explorer")).status).toBe(400);
    expect((await press("-86400000", "/sandbox/explorer")).status).toBe(400);
    expect(await offset()).toBe(90_000_000);
  });

  test("the offset reads in days, hours and minutes", () => {
    expect([offsetText(0), offsetText(90_000), offsetText(3_600_000), offsetText(31 * 86_400_000 + 3_600_000)]).toEqual(["none", "1 min", "1 h", "31 d 1 h"]);
  });
});
