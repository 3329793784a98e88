import { afterAll, describe, expect, test } from "bun:test";
import { memoryLogger } from "../platform/log";
import { startTestServer, type TestServer } from "../testing/testServer";
import { racingRtpWarning } from "./server";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop(true);
});

describe("Unicorn Racing's return to player (RACING_PAYOUT_MULTIPLE)", () => {
  test("a warning at start-up when it is 100% or more, none with an edge; the site settings carry the multiple", async () => {
    expect(racingRtpWarning({ racing: { countdownMs: 60_000, betCloseMs: 5_000, payoutMultiple: 5 } })).toBe(
      "Unicorn Racing returns 100.00% to players at RACING_PAYOUT_MULTIPLE=5 (5 equally likely unicorns): the house keeps nothing and pays the ledger fees; set it below 5, e.g. 4.95 for a 1% edge",
    );
    expect(racingRtpWarning({ racing: { countdownMs: 60_000, betCloseMs: 5_000, payoutMultiple: 6 } })).toStartWith("Unicorn Racing returns 120.00% to players");
    expect(racingRtpWarning({ racing: { countdownMs: 60_000, betCloseMs: 5_000, payoutMultiple: 4.99 } })).toBeUndefined();

    const atDefault = memoryLogger();
    servers.push(await startTestServer({}, undefined, atDefault));
    expect(atDefault.lines.filter((l) => l.includes("Unicorn Racing returns 100.00%"))).toHaveLength(1);

    const withEdge = memoryLogger();
    const server = await startTestServer({ RACING_PAYOUT_MULTIPLE: "4.95" }, undefined, withEdge);
    servers.push(server);
    expect(withEdge.lines.some((l) => l.includes("Unicorn Racing returns"))).toBe(false);
    expect((await (await fetch(`${server.url}/api/site-config`)).json()).racingPayoutMultiple).toBe(4.95);
  }, 60_000);
});
