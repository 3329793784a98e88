import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Wallet } from "xrpl";
import type { WalletMessage } from "../../shared/channels";
import { eventually, faucet } from "../testing/ledgerKit";
import { buyer, sessionBrowser, signPayload } from "../testing/nftKit";
import { advanceClock, buyNft, DAY_MS, toMonthStart } from "../testing/rewardKit";
import { steerWheel } from "../testing/slotsKit";
import { startTestServer, type TestServer } from "../testing/testServer";

// What each wallet's /ws socket hears of claims, wheel spins, slots expiries and NFT transfers: its own
// news, and nobody else's (a third wallet listens to its own channel all along and hears nothing).

let server: TestServer;
let owner: Wallet;
let recipient: Wallet;
let stranger: Wallet;
let tokenId: string;
const sockets = new Map<string, WalletSocket>();

beforeAll(async () => {
  server = await startTestServer({ SANDBOX_LEDGER_MS: "150" });
  await server.ctx.ledger.waitConnected(15_000);
  await toMonthStart(server);
  [owner, recipient, stranger] = await Promise.all([buyer(server, 500_000), faucet(server.url, { xrp: 100, vvx: 0 }), faucet(server.url, { xrp: 100 })]);
  tokenId = await buyNft(server, owner, 1);
  for (const w of [owner, recipient, stranger]) sockets.set(w.classicAddress, await walletSocket(w.classicAddress));
});
afterAll(async () => {
  for (const s of sockets.values()) s.ws.close();
  await server.stop(true);
});

interface WalletSocket {
  ws: WebSocket;
  /** Every wallet-channel message this socket received, in order. */
  heard: WalletMessage[];
}

/** A /ws socket with `address`'s session, subscribed to that wallet's channel (resolves once the server confirmed it). */
async function walletSocket(address: string): Promise<WalletSocket> {
  const ws = new WebSocket(`${server.url.replace("http", "ws")}/ws`, { headers: { cookie: (await sessionBrowser(server, address)).cookieHeader() } } as never);
  const heard: WalletMessage[] = [];
  let subscribed = false;
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data)) as { type: string; topic?: string };
    if (m.type === "subscribed") subscribed = true;
    else if (m.topic === `wallet:${address}`) heard.push(m as unknown as WalletMessage);
  };
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  ws.send(JSON.stringify({ type: "subscribe", topic: `wallet:${address}` }));
  await eventually(() => subscribed, `wallet:${address} subscribed`);
  return { ws, heard };
}

const heard = (w: Wallet) => sockets.get(w.classicAddress)!.heard;
/** The messages of `type` a wallet's socket has heard so far. */
const ofType = <T extends WalletMessage["type"]>(w: Wallet, type: T) => heard(w).filter((m): m is Extract<WalletMessage, { type: T }> => m.type === type);
/** Waits until `w`'s socket heard a message of `type` that `match` accepts, and returns it. */
const hears = <T extends WalletMessage["type"]>(w: Wallet, type: T, match: (m: Extract<WalletMessage, { type: T }>) => boolean = () => true) =>
  eventually(() => ofType(w, type).find(match), `${type} on ${w.classicAddress}'s socket`, 15_000);
const as = (w: Wallet) => sessionBrowser(server, w.classicAddress);
const post = async (w: Wallet, path: string, json: Record<string, unknown>) => (await as(w)).json(path, { method: "POST", json });

describe("the wallet channel carries each wallet's own claims, wheel spins, slots expiries and transfers", () => {
  test("a daily-wheel spin reaches the spinner's sockets only, with the result and the eligibility after it", async () => {
    await steerWheel(server, await as(owner), owner.classicAddress, (n) => n === 2);
    const spun = await post(owner, "/api/daily-spin/spin", { walletAddress: owner.classicAddress });
    expect(spun.status).toBe(200);
    const pushed = await hears(owner, "wheel.spin");
    expect(pushed.result).toEqual(spun.body.result);
    expect(pushed.eligibility).toMatchObject({ canSpin: false, totalSpins: 1, currentStreak: 1 });
    expect(pushed.result).toMatchObject({ prizeAmount: 2, creditedTo: "new_bonus" });
    expect([...ofType(recipient, "wheel.spin"), ...ofType(stranger, "wheel.spin")]).toEqual([]);
  });

  test("a slots session that runs out of time is pushed to its wallet only (expired by the server, no page asked)", async () => {
    const sessionId = (await (await as(owner)).json(`/api/slots/active-session/${owner.classicAddress}`)).body.session.sessionId as string;
    // 30 days: the wheel's Bonus session idles out (the server's own sweep ends it), and the NFT's first month of rewards accrues.
    await advanceClock(server, 30 * DAY_MS);
    expect(await hears(owner, "slots.session")).toMatchObject({ sessionId, status: "expired" });
    expect([...ofType(recipient, "slots.session"), ...ofType(stranger, "slots.session")]).toEqual([]);
  });

  test("a reward claim's payment settling reaches the claimer only", async () => {
    const claimed = await post(owner, "/api/rewards/claim", { walletAddress: owner.classicAddress, claimType: "full", tokenId });
    expect(claimed.body).toMatchObject({ status: "Claimed", claimedAmount: "50000" });
    const settled = await hears(owner, "reward-claim", (m) => m.status === "Claimed");
    expect(settled).toMatchObject({ tokenId, claimType: "full", amount: "50000", txid: expect.stringMatching(/^[0-9A-F]{64}$/) });
    // Recorded (Pending) first, then paid.
    expect(ofType(owner, "reward-claim").map((m) => [m.claimId, m.status])).toEqual([[settled.claimId, "Pending"], [settled.claimId, "Claimed"]]);
    expect([...ofType(recipient, "reward-claim"), ...ofType(stranger, "reward-claim")]).toEqual([]);
  });

  test("a transfer offered, cancelled, offered again and accepted reaches its two wallets, once the validated ledger shows each step", async () => {
    const parties = { tokenId, from: owner.classicAddress, to: recipient.classicAddress };
    const sign = async (uuid: string, by: Wallet) => expect(await signPayload(server, uuid, { account: by.classicAddress })).toMatchObject({ signed: true, dispatchedResult: "tesSUCCESS" });
    const transfers = async (w: Wallet) => (await (await as(w)).json(`/api/nfts/transfers/${w.classicAddress}`)).body as { outgoing: { offerId: string }[]; incoming: { offerId: string }[] };

    const offer = await post(owner, "/api/nfts/transfer", { tokenId, recipient: recipient.classicAddress });
    expect(offer.status).toBe(200);
    await sign(offer.body.uuid, owner);
    for (const w of [owner, recipient]) expect(await hears(w, "nft.transfer", (m) => m.state === "offered")).toMatchObject({ ...parties, txid: expect.stringMatching(/^[0-9A-F]{64}$/) });
    // Pushed only once the validated ledger shows the offer: the list read now has it.
    const [pending] = (await transfers(owner)).outgoing;
    expect(pending).toBeDefined();

    const cancel = await post(owner, "/api/nfts/transfer/cancel", { offerId: pending!.offerId });
    await sign(cancel.body.uuid, owner);
    for (const w of [owner, recipient]) expect(await hears(w, "nft.transfer", (m) => m.state === "cancelled")).toMatchObject(parties);
    expect((await transfers(recipient)).incoming).toEqual([]);

    const again = await post(owner, "/api/nfts/transfer", { tokenId, recipient: recipient.classicAddress });
    await sign(again.body.uuid, owner);
    await eventually(() => ofType(recipient, "nft.transfer").filter((m) => m.state === "offered").length === 2, "the second offer pushed");
    const [incoming] = (await transfers(recipient)).incoming;
    const accept = await post(recipient, "/api/nfts/transfer/accept", { walletAddress: recipient.classicAddress, offerId: incoming!.offerId });
    await sign(accept.body.uuid, recipient);
    for (const w of [owner, recipient]) expect(await hears(w, "nft.transfer", (m) => m.state === "accepted")).toMatchObject({ ...parties, txid: expect.stringMatching(/^[0-9A-F]{64}$/) });
    expect(ofType(stranger, "nft.transfer")).toEqual([]);
    // Each step once per wallet.
    expect(ofType(owner, "nft.transfer").map((m) => m.state)).toEqual(["offered", "cancelled", "offered", "accepted"]);
  }, 60_000);
});
