import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { RACE_CONFIG, RACE_MAX_TICKS } from "../src/engine";
import { CRASH_TEST_ENV } from "../src/server/testing/crashKit";
import { eventually } from "../src/server/testing/ledgerKit";
import { crashRoundWithBets, crashRounds, raceWithBets, races, revealSeeds, slotSpins, wheelSpins } from "../src/server/testing/fairKit";
import { PHONE, expectFitsPhone, newPage, screenshot, useServerAndBrowser } from "./browser";
import { commitment, crashPoint, hashTimes, race, slotsSpin, wheelSegment, type FairParameters } from "./fairVerifier";

// Done-when of issue 32, in Chromium against a server that played every game with real bets: a verifier
// written from /fair's text alone, the standalone verifier offline, and every round's page with its replay.
/** The desktop width (the shared DESKTOP is 1366 wide). */
const DESKTOP = { width: 1280, height: 800 };
/** Past the end of any replay the page's clock times: the longest race (a crash round's replay lasts at most 6 s). */
const REPLAY_LONGEST_MS = (RACE_MAX_TICKS / RACE_CONFIG.tickRate) * 1000 + 1000;
const live = useServerAndBrowser({ ...CRASH_TEST_ENV, RACING_COUNTDOWN_MS: "20000", RACING_BET_CLOSE_MS: "4000" });
const played = { crashRound: 0, race: 0, slotsWallet: "", wheelWallet: "" };

beforeAll(async () => {
  const { server } = live;
  await server.ctx.ledger.waitConnected(15_000);
  played.crashRound = await crashRoundWithBets(server);
  await crashRounds(server, 3);
  played.race = await raceWithBets(server);
  await races(server, 2);
  played.slotsWallet = await slotSpins(server, 0, 1);
  [played.wheelWallet] = await wheelSpins(server, 1, 1);
  await revealSeeds(server, [played.slotsWallet, played.wheelWallet]);
});

const api = <T = any>(path: string): Promise<T> => fetch(live.server.url + path).then((r) => r.json() as Promise<T>);

/** What the server publishes, as the standalone verifier is given it (the JSON of its API). */
async function publishedDocuments() {
  return [
    await api("/api/crash/fairness"),
    await api("/api/crash/rounds?limit=200"),
    await api(`/api/crash/rounds/${played.crashRound}`),
    await api("/api/racing/races?limit=200"),
    await api(`/api/racing/races/${played.race}`),
    await api("/api/slots/spins?limit=500"),
    await api("/api/daily-spin/spins?limit=500"),
  ];
}

/**
 * What a replay's canvas shows (its data-shown) once it satisfies `want`, or what it shows after 3 s:
 * the replay's state says "done" on its own timer, and the canvas draws its last frame at its next frame.
 */
async function lastFrame(page: Page, selector: string, want: (shown: string) => boolean): Promise<string | null> {
  const read = () => page.locator(selector).first().getAttribute("data-shown");
  return eventually(async () => {
    const shown = await read();
    return shown !== null && want(shown) ? shown : undefined;
  }, `the last frame of ${selector}`, 3_000, 50).catch(read);
}

async function fairText(page: Page): Promise<{ text: string; parameters: FairParameters }> {
  await page.goto(live.server.url + "/fair");
  const algorithms = page.getByTestId("fair-algorithms");
  await algorithms.waitFor();
  return { text: await algorithms.innerText(), parameters: JSON.parse((await page.getByTestId("fair-parameters").textContent())!) };
}

describe("fairness an outsider checks (issue 32)", () => {
  test("a verifier written from /fair's text alone re-computes every round of every game the server played", async () => {
    const { context, page, errors } = await newPage(live.browser, DESKTOP);
    const { text, parameters: p } = await fairText(page);
    // The statements this verifier is built on are on the page (if the text stops saying them, this fails).
    for (const said of [
      "Crash game hash: bytes",
      "Crash salt: text",
      "Server seed (racing, slots, wheel): text",
      "clientSeed:nonce:round",
      "b0/256 + b1/256² + b2/256³ + b3/256⁴",
      "first 13 hex digits of h",
      "floor(99 / (1 − X))",
      "hash of validated ledger C + 10",
      "winner: number 0 → floor(f × 5)",
      "each number picks floor(f × k) of the k left",
      "200 + floor(f × 50)",
      "2 + floor(f × 11)",
      "floor(f × 261)",
      "1 + floor(f × 50)",
      "floor(spin cost micro-VVX × hundredths / 100)",
      "floor(f × 12)",
    ]) expect({ said, found: text.includes(said) }).toEqual({ said, found: true });

    const fairness = await api("/api/crash/fairness");
    const chain = fairness.chains[0];
    expect(chain).toMatchObject({ status: "ready", saltLedgerIndex: chain.commitment.ledgerIndex + 10 });
    const { rounds } = await api("/api/crash/rounds?limit=200");
    expect(rounds.length).toBeGreaterThanOrEqual(4);
    for (const r of rounds) {
      expect({ round: r.round, crash: crashPoint(p, r.hash, chain.salt) }).toEqual({ round: r.round, crash: Math.round(r.crashPoint * 100) });
      expect(hashTimes(r.hash, r.gameNumber)).toBe(chain.terminatingHash);
    }
    const detail = await api(`/api/crash/rounds/${played.crashRound}`);
    expect(detail.bets.map((b: any) => [b.status, b.payout])).toEqual([
      ["won", String(5 * 1.5)],
      ["lost", "0"],
    ]);

    const { races: raceList } = await api("/api/racing/races?limit=200");
    expect(raceList.length).toBeGreaterThanOrEqual(3);
    for (const r of raceList) {
      expect(commitment(r.serverSeed)).toBe(r.serverSeedHash);
      // Its hash was shown by a ledger before the one whose hash is its client seed.
      expect(r.commitLedger).toBeLessThan(r.clientSeedLedger);
      expect({ round: r.round, winner: race(p, r.serverSeed, r.clientSeed, r.nonce).winner }).toEqual({ round: r.round, winner: r.winnerIndex });
    }

    const { spins } = await api("/api/slots/spins?limit=500");
    expect(spins).toHaveLength(10);
    for (const s of spins) {
      expect(commitment(s.serverSeed)).toBe(s.serverSeedHash);
      const got = slotsSpin(p, s.serverSeed, s.clientSeed, s.nonce, s.spinCost);
      expect({ spin: s.spinId, reels: got.reels, mystery: got.mystery, payout: Number(got.payoutMicro) / 1e6 }).toEqual({ spin: s.spinId, reels: s.reels, mystery: s.mysteryMultiple, payout: s.totalPayout });
    }
    const { spins: wheel } = await api("/api/daily-spin/spins?limit=500");
    expect(wheel).toHaveLength(1);
    const segment = wheelSegment(p, wheel[0].serverSeed, wheel[0].clientSeed, wheel[0].nonce);
    expect([segment, p.wheel.segments[segment]!.prizeLabel]).toEqual([wheel[0].position, wheel[0].prizeLabel]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("the standalone verifier, saved to disk and opened offline in Chromium, agrees with every round and names an altered one", async () => {
    const html = await fetch(live.server.url + "/fair/vvx-verifier.html").then((r) => r.text());
    const file = join(mkdtempSync(join(tmpdir(), "vvx-verifier-")), "vvx-verifier.html");
    writeFileSync(file, html);
    const docs = await publishedDocuments();
    const expected = docs[1].rounds.length + docs[3].races.length + docs[5].spins.length + docs[6].spins.length;
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page, errors } = await newPage(live.browser, viewport);
      await context.setOffline(true);
      const requests: string[] = [];
      page.on("request", (r) => void (r.url().startsWith("file:") || requests.push(r.url())));
      await page.goto(`file://${file}`);
      await page.getByLabel("Published JSON").fill(docs.map((d) => JSON.stringify(d)).join("\n"));
      await page.getByRole("button", { name: "Verify every round" }).click();
      const summary = page.locator("#summary");
      await summary.waitFor();
      expect(await summary.evaluate((el) => ({ ...el.dataset }))).toEqual({ checked: String(expected), agree: String(expected), differ: "0", unverifiable: "0" });
      await screenshot(page, `verifier-offline-${viewport === PHONE ? "phone" : "desktop"}`);
      if (viewport === PHONE) await expectFitsPhone(page);

      // One crash point changed by a hundredth: that round, and only it, differs.
      const altered = structuredClone(docs);
      altered[1].rounds[2].crashPoint = Math.round(altered[1].rounds[2].crashPoint * 100 + 1) / 100;
      await page.getByLabel("Published JSON").fill(altered.map((d) => JSON.stringify(d)).join("\n"));
      await page.getByRole("button", { name: "Verify every round" }).click();
      await page.locator('#summary[data-differ="1"]').waitFor();
      const first = page.locator("#results tbody tr").first();
      expect(await first.getAttribute("data-verdict")).toBe("differs");
      expect(await first.innerText()).toContain(`Crash round #${altered[1].rounds[2].round}`);
      expect({ requests, errors }).toEqual({ requests: [], errors: [] });
      await context.close();
    }
    // Served by the server too, its script runs under the page's own CSP (its hash), and it still asks nothing of the server.
    const { context, page, errors } = await newPage(live.browser, DESKTOP);
    await page.goto(live.server.url + "/fair/vvx-verifier.html");
    const asked: string[] = [];
    page.on("request", (r) => void asked.push(r.url()));
    await page.getByLabel("Published JSON").fill(JSON.stringify(docs[6]));
    await page.getByRole("button", { name: "Verify every round" }).click();
    await page.locator('#summary[data-agree="1"]').waitFor();
    expect({ asked, errors }).toEqual({ asked: [], errors: [] });
    await context.close();
  });

  test("every round's page at 1280 and 375 px: its seeds, bets and payments, and a replay whose last frame is the recorded result", async () => {
    const crash = await api(`/api/crash/rounds/${played.crashRound}`);
    const raceDetail = await api(`/api/racing/races/${played.race}`);
    const { parameters: p } = await (async () => {
      const { context, page } = await newPage(live.browser, DESKTOP);
      const t = await fairText(page);
      await context.close();
      return t;
    })();
    const raced = race(p, raceDetail.race.serverSeed, raceDetail.race.clientSeed, raceDetail.race.nonce);
    const { spins } = await api(`/api/slots/spins?wallet=${played.slotsWallet}`);
    const winning = spins.find((s: any) => s.totalPayout > 0) ?? spins[0];
    const { spins: wheel } = await api(`/api/daily-spin/spins?wallet=${played.wheelWallet}`);
    // `clocked`: the replay (a crash round's flight, up to 6 s; a race, its whole length) is timed by the page's clock, which
    // the test moves past its end instead of waiting for it in real time. `bets`: what the page's bets tables list (at 1280 px).
    const pages = [
      {
        name: "crash-round",
        path: `/crash/round/${played.crashRound}`,
        replay: "crash-replay",
        shown: ".crash-canvas-host",
        want: (s: string) => s.startsWith(`${crash.round.crashPoint.toFixed(2)}x CRASHED`),
        clocked: true,
        // The crash replay marks its one cash-out; the bets tables list both bets with their payments.
        bets: async (page: Page) => {
          expect(await page.locator(".crash-canvas-host").getAttribute("data-marks")).toBe("1");
          expect(await page.getByTestId("round-bet").count()).toBe(2);
        },
      },
      {
        name: "race",
        path: `/racing/race/${played.race}`,
        replay: "race-replay",
        shown: ".race-canvas",
        want: (s: string) => s === raced.order.map((_, u) => ["1st", "2nd", "3rd", "4th", "5th"][raced.order.indexOf(u)]).join("|"),
        clocked: true,
        bets: async (page: Page) => {
          await page.getByTestId("round-bets").waitFor();
          expect(await page.getByTestId("round-bet").count()).toBe(5);
          expect(await page.locator('[data-testid="round-bet"][data-status="won"]').count()).toBe(1);
        },
      },
      { name: "slots-spin", path: `/slots/spin/${winning.spinId}`, replay: "slots-replay", shown: ".slot-reels-canvas", want: (s: string) => s === winning.reels.join(",") },
      { name: "wheel-spin", path: `/wheel/spin/${wheel[0].id}`, replay: "wheel-replay", shown: ".wheel-replay-stage", want: (s: string) => s === wheel[0].prizeLabel },
    ];
    for (const viewport of [DESKTOP, PHONE]) {
      for (const pg of pages) {
        const { context, page, errors } = await newPage(live.browser, viewport);
        const clocked = viewport === DESKTOP && pg.clocked === true;
        if (clocked) await page.clock.install();
        await page.goto(live.server.url + pg.path);
        await page.getByTestId("round-facts").waitFor();
        // The replay plays to its end by itself (a phone skips to it), then shows the recorded result.
        if (viewport === PHONE) await page.getByRole("button", { name: "Skip to the end" }).click();
        else if (clocked) await page.getByTestId(pg.replay).waitFor().then(() => page.clock.fastForward(REPLAY_LONGEST_MS));
        await page.locator(`[data-testid="${pg.replay}"][data-replay="done"]`).waitFor({ timeout: 30_000 });
        const shown = await lastFrame(page, pg.shown, pg.want);
        expect({ page: pg.name, shown, matches: pg.want(shown ?? "") }).toEqual({ page: pg.name, shown, matches: true });
        for (const check of await page.locator("[data-testid^=check-]").all()) expect(await check.getAttribute("data-ok")).toBe("true");
        if (viewport === DESKTOP) await pg.bets?.(page);
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, `${pg.name}-${viewport === PHONE ? "phone" : "desktop"}`);
        if (viewport === PHONE) await expectFitsPhone(page);
        expect({ page: pg.name, errors }).toEqual({ page: pg.name, errors: [] });
        await context.close();
      }
    }
  });

  test("Replay on /fair draws a round from seeds typed in by hand, to the same result", async () => {
    const fairness = await api("/api/crash/fairness");
    const { rounds } = await api("/api/crash/rounds?limit=1");
    const { races: list } = await api("/api/racing/races?limit=1");
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page, errors } = await newPage(live.browser, viewport);
      // The crash replay plays by itself on the page's clock, moved past its end (as on the round pages).
      await page.clock.install();
      const { parameters: p } = await fairText(page);
      await page.getByLabel("Game hash").fill(rounds[0].hash);
      await page.getByLabel("Salt").fill(fairness.salt);
      await page.locator("#crash-verify").getByRole("button", { name: "Replay" }).click();
      await page.getByTestId("crash-replay").waitFor();
      await page.clock.fastForward(REPLAY_LONGEST_MS);
      await page.locator('[data-testid="crash-replay"][data-replay="done"]').waitFor({ timeout: 30_000 });
      const crashed = `${rounds[0].crashPoint.toFixed(2)}x CRASHED`;
      expect(await lastFrame(page, "#crash-verify .crash-canvas-host", (s) => s.startsWith(crashed))).toStartWith(crashed);

      const r = list[0];
      await page.getByLabel("Server seed (revealed)").fill(r.serverSeed);
      await page.getByLabel("Client seed").fill(r.clientSeed);
      await page.getByLabel("Nonce").fill(String(r.nonce));
      await page.locator("#verify").getByRole("button", { name: "Replay" }).click();
      await page.locator("#verify").getByRole("button", { name: "Skip to the end" }).click();
      await page.locator('[data-testid="race-replay"][data-replay="done"]').waitFor({ timeout: 30_000 });
      const winner = race(p, r.serverSeed, r.clientSeed, r.nonce).winner;
      const places = (await lastFrame(page, "#verify .race-canvas", (s) => s.split("|")[winner] === "1st"))!.split("|");
      expect(places[winner]).toBe("1st");
      await page.locator("#verify").scrollIntoViewIfNeeded();
      await screenshot(page, `fair-replay-${viewport === PHONE ? "phone" : "desktop"}`);
      if (viewport === PHONE) await expectFitsPhone(page);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
