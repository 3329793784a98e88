import type { Wallet } from "xrpl";
import { purchaseReaches, sessionBrowser, signPayload } from "./nftKit";
import type { TestServer } from "./testServer";

/** Test helpers for rewards: real purchases through the API and the sandbox clock. */

export const DAY_MS = 86_400_000;

/**
 * Buys an NFT of `tierId` for a funded sandbox account the way a person does (payment request,
 * payment signed in the sandbox Xaman, offer accepted there) and returns its token id.
 */
export async function buyNft(server: TestServer, wallet: Wallet | string, tierId = 1): Promise<string> {
  const address = typeof wallet === "string" ? wallet : wallet.classicAddress;
  const browser = sessionBrowser(server, address);
  const amount = tierId === 1 ? "500,000" : "250,000";
  const created = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount, walletAddress: address, tierId } });
  if (created.status !== 200) throw new Error(`purchase refused: ${created.status} ${JSON.stringify(created.body)}`);
  await signPayload(server, created.body.uuid, { account: address });
  const offered = await purchaseReaches(browser, created.body.requestId, ["offer_created"], 30_000);
  await signPayload(server, offered.xummUuid, { account: address });
  const done = await purchaseReaches(browser, created.body.requestId, ["completed"], 30_000);
  return done.tokenId as string;
}

/** Moves the sandbox clock (and the ledger's close times) forward; returns the product's new time. */
export async function advanceClock(server: TestServer, ms: number): Promise<number> {
  const res = await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms }) });
  if (!res.ok) throw new Error(`clock advance answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { nowMs: number }).nowMs;
}
