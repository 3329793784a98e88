import { describe, expect, test } from "bun:test";
import type { Client } from "xrpl";
import { serverSeedCommitment, spinSlots } from "../../../engine";
import { TestBrowser } from "../../testing/testBrowser";
import { eventually } from "../../testing/ledgerKit";
import { buyer, sessionBrowser, vvxMicro } from "../../testing/nftKit";
import type { TestServer } from "../../testing/testServer";
import { serverWithClient } from "../../testing/serverSuite";
import { buyPackage } from "../../testing/slotsKit";

let server: TestServer;
let client: Client;
serverWithClient((s, c) => {
  server = s;
  client = c;
});

const spin = (browser: TestBrowser, sessionId: string, walletAddress?: string) =>
  browser.json("/api/slots/spin", { method: "POST", json: { sessionId, ...(walletAddress ? { walletAddress } : {}) } });

describe("spin accounting", () => {
  test("two concurrent spins with one spin left: one spin and one 403", async () => {
    const wallet = await buyer(server, 10_000);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const { session } = await buyPackage(server, browser, wallet.classicAddress, 0);
    for (let i = 0; i < 9; i++) expect((await spin(browser, session.sessionId)).status).toBe(200);
    const results = await Promise.all([spin(browser, session.sessionId), spin(browser, session.sessionId)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    const refused = results.find((r) => r.status === 403)!;
    expect(refused.body).toMatchObject({ success: false, code: "NO_SPINS_LEFT" });
    expect(results.find((r) => r.status === 200)!.body).toMatchObject({ remainingSpins: 0, sessionStatus: "completed" });
    expect(await server.ctx.slots.repo.spinsOf(wallet.classicAddress, 100)).toHaveLength(10);
  });

  test("50 concurrent spins on a 10-spin session: exactly 10 spins, each its own nonce, the session's winnings their sum", async () => {
    const wallet = await buyer(server, 10_000);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const { session } = await buyPackage(server, browser, wallet.classicAddress, 0);
    const nonceBefore = (await server.ctx.fair.open(wallet.classicAddress)).nextNonce;
    const results = await Promise.all(Array.from({ length: 50 }, () => spin(browser, session.sessionId, wallet.classicAddress)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(10);
    expect(results.filter((r) => r.status === 403).every((r) => r.body.code === "NO_SPINS_LEFT")).toBe(true);
    expect(ok.map((r) => r.body.remainingSpins).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(ok.map((r) => r.body.spin.nonce).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => nonceBefore + i));
    const stored = (await server.ctx.slots.repo.session(session.sessionId))!;
    expect(stored.status).toBe("completed");
    const sum = ok.reduce((n, r) => n + BigInt(Math.round(r.body.spin.totalPayout * 1e6)), 0n);
    expect(stored.totalPayoutMicro).toBe(sum);
  });

  test("403 for someone else's session, a wallet other than the cookie's, an unknown session; 401 without a session; 400 for a malformed id", async () => {
    const owner = await buyer(server, 10_000);
    const other = await buyer(server, 0);
    const ownerBrowser = await sessionBrowser(server, owner.classicAddress);
    const { session } = await buyPackage(server, ownerBrowser, owner.classicAddress, 0);
    const otherBrowser = await sessionBrowser(server, other.classicAddress);

    const notYours = await spin(otherBrowser, session.sessionId, other.classicAddress);
    expect([notYours.status, notYours.body.code]).toEqual([403, "SESSION_NOT_YOURS"]);
    const otherWallet = await spin(otherBrowser, session.sessionId, owner.classicAddress);
    expect([otherWallet.status, otherWallet.body.code]).toEqual([403, "FORBIDDEN"]);
    const unknown = await spin(ownerBrowser, "00000000-0000-4000-8000-000000000000");
    expect([unknown.status, unknown.body.code]).toEqual([403, "SESSION_NOT_FOUND"]);
    expect(unknown.body.error).toBe("Your session has expired. Please purchase new spins to continue playing.");
    const anonymous = await spin(new TestBrowser(server.url), session.sessionId);
    expect(anonymous.status).toBe(401);
    const malformed = await spin(ownerBrowser, "12; DROP TABLE");
    expect([malformed.status, malformed.body.field]).toEqual([400, "sessionId"]);
    expect((await server.ctx.slots.repo.session(session.sessionId))!.remainingSpins).toBe(10);
  });

  test("every spin re-computes from its seeds once the seed is revealed (GET /api/slots/spins, then POST /api/fair/rotate)", async () => {
    const wallet = await buyer(server, 10_000);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const seedsBefore = (await browser.json("/api/fair/seeds", { method: "POST", json: {} })).body;
    const { session } = await buyPackage(server, browser, wallet.classicAddress, 0);
    for (let i = 0; i < 5; i++) await spin(browser, session.sessionId);
    const hidden = (await browser.json(`/api/slots/spins?wallet=${wallet.classicAddress}`)).body.spins;
    expect(hidden).toHaveLength(5);
    expect(hidden.every((s: any) => s.serverSeed === null && s.serverSeedHash === seedsBefore.serverSeedHash)).toBe(true);
    expect(hidden.map((s: any) => s.nonce)).toEqual([4, 3, 2, 1, 0]);

    const rotated = (await browser.json("/api/fair/rotate", { method: "POST", json: { walletAddress: wallet.classicAddress } })).body;
    expect(rotated.previousServerSeedHash).toBe(seedsBefore.serverSeedHash);
    expect(serverSeedCommitment(rotated.previousServerSeed)).toBe(seedsBefore.serverSeedHash);
    const shown = (await browser.json(`/api/slots/spins?wallet=${wallet.classicAddress}`)).body.spins;
    for (const s of shown) {
      expect(s.serverSeed).toBe(rotated.previousServerSeed);
      const again = spinSlots({ serverSeed: s.serverSeed, clientSeed: s.clientSeed, nonce: s.nonce }, 0);
      expect(again.symbols).toEqual(s.reels);
      expect(Number(again.totalPayoutMicro) / 1e6).toBe(s.totalPayout);
    }
    const page = (await browser.json(`/api/slots/spins?wallet=${wallet.classicAddress}&limit=2&before=${shown[1].spinId}`)).body.spins;
    expect(page.map((s: any) => s.spinId)).toEqual([shown[2].spinId, shown[3].spinId]);
  });

  test("an idle session expires after 7 days (sandbox clock): 403 'Session Expired', its unplayed paid spins refunded in VVX", async () => {
    const wallet = await buyer(server, 10_000);
    const browser = await sessionBrowser(server, wallet.classicAddress);
    const { session } = await buyPackage(server, browser, wallet.classicAddress, 0);
    for (let i = 0; i < 3; i++) expect((await spin(browser, session.sessionId)).status).toBe(200);
    await eventually(async () => (await server.ctx.slots.repo.spinsOf(wallet.classicAddress, 10)).every((s) => s.payoutStatus === "validated" || s.spin.totalPayoutMicro === 0n), "payouts validated", 20_000);
    const before = await vvxMicro(client, wallet.classicAddress, server);

    const advanced = await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 7 * 86_400_000 + 60_000 }) });
    expect(advanced.status).toBe(200);
    const expired = await spin(browser, session.sessionId);
    expect([expired.status, expired.body.code, expired.body.error]).toEqual([403, "SESSION_EXPIRED", "Your session has expired. Please purchase new spins to continue playing."]);
    expect((await browser.json(`/api/slots/active-session/${wallet.classicAddress}`)).body.session).toBeNull();
    const row = (await server.ctx.slots.repo.session(session.sessionId))!;
    expect([row.status, row.refundMicro]).toEqual(["expired", 7_000n * 1_000_000n]);
    const refund = await server.ctx.outbox.waitFor(row.refundKey!, 30_000);
    expect(refund.status).toBe("validated");
    expect(await vvxMicro(client, wallet.classicAddress, server)).toBe(before + 7_000n * 1_000_000n);
    // A new package can be bought now.
    const again = await browser.json("/api/slots/create-session", { method: "POST", json: { walletAddress: wallet.classicAddress, tierIndex: 0 } });
    expect(again.status).toBe(200);
  });
});
