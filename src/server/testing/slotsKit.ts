import type { Client } from "xrpl";
import { spinDailyWheel, type WheelSpin } from "../../engine";
import type { TestBrowser } from "./testBrowser";
import { eventually } from "./ledgerKit";
import { signPayload } from "./nftKit";
import type { TestServer } from "./testServer";

/** Test helpers for the slots against a real server and its sandbox ledger. */

/** Buys a package through the API and the sandbox Xaman (the wallet signs the payment); returns the session. */
export async function buyPackage(server: TestServer, browser: TestBrowser, account: string, tierIndex: number) {
  const created = await browser.json("/api/slots/create-session", { method: "POST", json: { walletAddress: account, tierIndex } });
  if (created.status !== 200) throw new Error(`create-session answered ${created.status}: ${JSON.stringify(created.body)}`);
  await signPayload(server, created.body.payment.uuid, { account });
  const checked = await paymentConfirmed(browser, created.body.payment.uuid);
  return { payment: created.body.payment, session: checked.session };
}

/** Polls check-payment until confirmed. */
export function paymentConfirmed(browser: TestBrowser, uuid: string, timeoutMs = 20_000) {
  return eventually(
    async () => {
      const res = await browser.json(`/api/slots/check-payment/${uuid}`);
      return res.body.confirmed ? res.body : undefined;
    },
    `slots payment ${uuid} to be confirmed`,
    timeoutMs,
    100,
  );
}

/** Polls check-payment until the purchase has `status` (and returns its body). */
export function purchaseReaches(browser: TestBrowser, uuid: string, status: string, timeoutMs = 20_000) {
  return eventually(
    async () => {
      const res = await browser.json(`/api/slots/check-payment/${uuid}`);
      return res.body.status === status ? res.body : undefined;
    },
    `slots purchase ${uuid} to reach ${status}`,
    timeoutMs,
    100,
  );
}

/** Validated VVX payments from the platform (a server's, or a cluster's treasury address) to `wallet` with the slots payout memo, as the ledger has them. */
export async function payoutsOnLedger(client: Client, server: TestServer | string, wallet: string): Promise<{ hash: string; micro: bigint }[]> {
  const platform = typeof server === "string" ? server : server.ctx.ledger.platformAddress;
  const res = await client.request({ command: "account_tx", account: wallet, ledger_index_min: -1, ledger_index_max: -1, limit: 400 });
  const out: { hash: string; micro: bigint }[] = [];
  for (const t of res.result.transactions) {
    const tx = t.tx_json as Record<string, any> | undefined;
    const meta = t.meta as { TransactionResult?: string; delivered_amount?: { value: string } } | undefined;
    if (!tx || tx.TransactionType !== "Payment" || tx.Account !== platform || tx.Destination !== wallet || meta?.TransactionResult !== "tesSUCCESS") continue;
    const memo = Buffer.from(String(tx.Memos?.[0]?.Memo?.MemoType ?? ""), "hex").toString();
    if (memo !== "vvx/slots-payout") continue;
    const [w, f = ""] = meta.delivered_amount!.value.split(".");
    out.push({ hash: (t as { hash?: string }).hash ?? String(tx.hash), micro: BigInt(w!) * 1_000_000n + BigInt((f + "000000").slice(0, 6)) });
  }
  return out;
}

/** Sum of whole-VVX numbers as micro-VVX (the API's amounts are whole VVX or tenths at most). */
export const microOf = (vvx: number) => BigInt(Math.round(vvx * 1_000_000));

/**
 * Sets a client seed under which the wallet's next nonce lands on a wheel segment `want` accepts; returns
 * that segment. The test reads the (still secret) server seed from the database: players cannot, tests may.
 */
export async function steerWheel(server: TestServer, browser: TestBrowser, wallet: string, want: (prizeAmount: number) => boolean): Promise<WheelSpin> {
  await server.ctx.fair.open(wallet);
  const row = (await server.ctx.fair.repo.seeds(wallet))!;
  for (let i = 0; ; i++) {
    const clientSeed = `steer-${i}`;
    const result = spinDailyWheel({ serverSeed: row.serverSeed, clientSeed, nonce: row.nextNonce });
    if (!want(result.prizeAmount)) continue;
    const set = await browser.json("/api/fair/client-seed", { method: "POST", json: { walletAddress: wallet, clientSeed } });
    if (set.status !== 200) throw new Error(`client-seed answered ${set.status}: ${JSON.stringify(set.body)}`);
    return result;
  }
}
