import type { Client, Wallet } from "xrpl";
import { defaultTierById, vvxToMicro } from "../../engine";
import { scaleDecimal } from "../ledger/amounts";
import { SESSION_COOKIE } from "../auth/cookies";
import { TestBrowser } from "./testBrowser";
import { eventually, faucet } from "./ledgerKit";
import type { TestServer } from "./testServer";

/** Test helpers for the NFT flow against a real server and its sandbox ledger. */

/** A browser holding a session for `address` (issued by the auth service itself, as after a sign-in). */
export async function sessionBrowser(server: TestServer, address: string): Promise<TestBrowser> {
  const browser = new TestBrowser(server.url);
  const { token } = await server.ctx.auth.createSession(address, "wallet_connect");
  browser.cookies.set(SESSION_COOKIE, token);
  return browser;
}

/** A browser that connected `wallet` through the real wallet_connect flow (sign request signed in the sandbox Xaman: the server's own, or a cluster's `sandbox`). */
export async function connectedBrowser(server: Pick<TestServer, "url">, wallet: Wallet, sandbox: Pick<TestServer, "url"> = server): Promise<TestBrowser> {
  const browser = new TestBrowser(server.url);
  const created = await browser.json("/api/xumm/sign-request", { method: "POST", json: { type: "wallet_connect" } });
  if (created.status !== 200) throw new Error(`sign-request answered ${created.status}`);
  await signPayload(sandbox, created.body.uuid, { seed: wallet.seed! });
  const status = await browser.json(`/api/xumm/status/${created.body.uuid}`);
  if (!status.body.authenticated) throw new Error("wallet connect did not authenticate");
  return browser;
}

/** Signs a pending sandbox Xaman payload as the phone app would (faucet account or seed); `at`: the server whose sandbox it is, or the shared sandbox. */
export async function signPayload(at: Pick<TestServer, "url">, uuid: string, by: { account?: string; seed?: string }) {
  const res = await fetch(`${at.url}/sandbox/api/payloads/${uuid}/sign`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(by) });
  const body = (await res.json()) as { signed?: boolean; txid?: string; dispatchedResult?: string; error?: string };
  if (!res.ok) throw new Error(`sandbox sign answered ${res.status}: ${JSON.stringify(body)}`);
  return body;
}

/** A funded sandbox (faucet) account with a VVX trust line holding `vvx`. */
export async function buyer(server: TestServer, vvx: number, xrp = 100): Promise<Wallet> {
  return faucet(server.url, { xrp, vvx });
}

/** An account's VVX balance (validated ledger) in micro-VVX. */
export async function vvxMicro(client: Client, address: string, server: TestServer): Promise<bigint> {
  const res = await client.request({ command: "account_lines", account: address, peer: server.ctx.ledger.vvx.issuer, ledger_index: "validated" });
  const line = res.result.lines.find((l) => l.currency === server.ctx.ledger.vvx.currency);
  if (!line) return 0n;
  return scaleDecimal(line.balance, 6).scaled;
}

/** The platform's NFTs an account holds (validated ledger). */
export async function nftsOf(client: Client, address: string, issuer: string) {
  const res = await client.request({ command: "account_nfts", account: address, ledger_index: "validated", limit: 400 });
  return res.result.account_nfts.filter((n) => n.Issuer === issuer);
}

/** Polls a purchase (through the API) until its status is one of `statuses`. */
export async function purchaseReaches(browser: TestBrowser, requestId: string, statuses: string[], timeoutMs = 20_000) {
  return eventually(
    async () => {
      const res = await browser.json(`/api/nfts/purchase-status/${requestId}`);
      return statuses.includes(res.body.status) ? res.body : undefined;
    },
    `purchase ${requestId} to reach ${statuses.join("|")}`,
    timeoutMs,
    100,
  );
}

/** The dialog's POST for the accept-offer sign request (status polls never make one). */
export async function acceptRequest(browser: TestBrowser, offerId: string, walletAddress: string): Promise<{ uuid: string; qrCodeUrl: string; xummLink: string }> {
  const res = await browser.json("/api/nfts/accept-offer", { method: "POST", json: { offerId, walletAddress } });
  if (res.status !== 200) throw new Error(`accept-offer answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { uuid: string; qrCodeUrl: string; xummLink: string };
}

/**
 * The platform's validated NFT mints and the sell offers made for them: an offer is its own
 * NFTokenCreateOffer, or part of the mint where the ledger has NFTokenMintOffer.
 */
export async function mintsAndOffers(server: TestServer): Promise<{ mints: number; offers: number }> {
  const mints = await server.ctx.outbox.list({ purpose: "nft-mint", status: "validated" });
  const offers = (await server.ctx.outbox.list({ purpose: "nft-offer", status: "validated" })).length + mints.filter((m) => (m.meta as { offer_id?: string } | null)?.offer_id).length;
  return { mints: mints.length, offers };
}

export const GENESIS_PRICE_MICRO = vvxToMicro(defaultTierById(1).priceVvx);
export const OASIS_PRICE_MICRO = vvxToMicro(defaultTierById(2).priceVvx);
