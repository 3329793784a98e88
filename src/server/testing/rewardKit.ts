import { Database } from "bun:sqlite";
import { join } from "node:path";
import type { Client, Wallet } from "xrpl";
import type { OutboxEntry } from "../ledger/outbox";
import { daysInMonth, monthEndMs, nextUtcMonth, utcMonthOf } from "../../engine";
import { submitValidated } from "./ledgerKit";
import { acceptRequest, purchaseReaches, sessionBrowser, signPayload, vvxMicro } from "./nftKit";
import type { TestServer } from "./testServer";

/** Test helpers for rewards: real purchases through the API and the sandbox clock. */

export const DAY_MS = 86_400_000;

/**
 * Buys an NFT of `tierId` for a funded sandbox account the way a person does (payment request,
 * payment signed in the sandbox Xaman, offer accepted there) and returns its token id.
 */
export async function buyNft(server: TestServer, wallet: Wallet | string, tierId = 1): Promise<string> {
  const address = typeof wallet === "string" ? wallet : wallet.classicAddress;
  const browser = await sessionBrowser(server, address);
  const amount = tierId === 1 ? "500,000" : "250,000";
  const created = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount, walletAddress: address, tierId } });
  if (created.status !== 200) throw new Error(`purchase refused: ${created.status} ${JSON.stringify(created.body)}`);
  await signPayload(server, created.body.uuid, { account: address });
  const offered = await purchaseReaches(browser, created.body.requestId, ["offer_created"], 30_000);
  // The accept request is made by a POST, as the purchase dialog does.
  await signPayload(server, (await acceptRequest(browser, offered.offerId, address)).uuid, { account: address });
  const done = await purchaseReaches(browser, created.body.requestId, ["completed"], 30_000);
  return done.tokenId as string;
}

/** Moves the sandbox clock (and the ledger's close times) forward; returns the product's new time. */
export async function advanceClock(server: TestServer, ms: number): Promise<number> {
  const res = await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms }) });
  if (!res.ok) throw new Error(`clock advance answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { nowMs: number }).nowMs;
}

/**
 * Moves the sandbox clock to `afterMs` past the start of the next 31-day month (00:00 UTC on its 1st), so
 * that NFTs bought next accrue 30 whole days before the month ends and its distribution pays them.
 * Returns that month's end.
 */
export async function toMonthStart(server: TestServer, afterMs = 3_600_000): Promise<number> {
  let month = nextUtcMonth(utcMonthOf(server.ctx.clock.now()));
  while (daysInMonth(month.year, month.month) !== 31) month = nextUtcMonth(month);
  const start = monthEndMs(month) - 31 * DAY_MS;
  await advanceClock(server, start + afterMs - server.ctx.clock.now());
  return monthEndMs(month);
}

/**
 * Moves a stopped server's sandbox clock forward (its offset is kept in DATA_DIR/sandbox.db): the time that
 * passes while a server is down, without waiting for it.
 */
export function advanceStoppedClock(dataDir: string, ms: number): void {
  const db = new Database(join(dataDir, "sandbox.db"));
  try {
    const row = db.query<{ value: string }, []>("SELECT value FROM settings WHERE key = 'clock_offset_ms'").get();
    db.query("INSERT INTO settings (key, value) VALUES ('clock_offset_ms', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(Number(row?.value ?? "0") + ms));
  } finally {
    db.close();
  }
}

/** VVX payments from the treasury to `address` that the ledger validated (tesSUCCESS), with their memo's text. */
export async function treasuryPaymentsTo(client: Client, server: TestServer, address: string): Promise<{ hash: string; value: string; memo: string }[]> {
  const res = await client.request({ command: "account_tx", account: address, ledger_index_min: -1, ledger_index_max: -1, limit: 400 });
  const out: { hash: string; value: string; memo: string }[] = [];
  for (const t of res.result.transactions) {
    const tx = t.tx_json as Record<string, any> | undefined;
    const meta = t.meta as { TransactionResult?: string; delivered_amount?: { value?: string } } | undefined;
    if (tx?.TransactionType !== "Payment" || tx.Account !== server.ctx.ledger.platformAddress || tx.Destination !== address || meta?.TransactionResult !== "tesSUCCESS") continue;
    const memo = Buffer.from(String(tx.Memos?.[0]?.Memo?.MemoData ?? ""), "hex").toString();
    out.push({ hash: String((t as { hash?: string }).hash), value: String(meta.delivered_amount?.value ?? ""), memo });
  }
  return out;
}

/** Moves treasury VVX to or from the issuer with the sandbox's own keys, leaving the treasury `keepMicro`. */
export async function setTreasury(server: TestServer, client: Client, keepMicro: bigint): Promise<void> {
  const { issuer, treasury } = server.ctx.sandbox!.wallets;
  const vvx = server.ctx.ledger.vvx;
  const now = await vvxMicro(client, treasury.classicAddress, server);
  const value = (micro: bigint) => `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, "0")}`;
  if (now > keepMicro) await submitValidated(client, treasury, { TransactionType: "Payment", Destination: issuer.classicAddress, Amount: { ...vvx, value: value(now - keepMicro) } });
  if (now < keepMicro) await submitValidated(client, issuer, { TransactionType: "Payment", Destination: treasury.classicAddress, Amount: { ...vvx, value: value(keepMicro - now) } });
  const after = await vvxMicro(client, treasury.classicAddress, server);
  if (after !== keepMicro) throw new Error(`treasury holds ${after} micro-VVX, not ${keepMicro}`);
}

/** Freezes the outbox at `hook` on the first entry `matches` accepts, as a crash would there; resolves with that entry. */
export function freezeOutboxAt(server: TestServer, hook: "afterRecord" | "afterSubmit", matches: (entry: OutboxEntry) => boolean): Promise<OutboxEntry> {
  return new Promise((resolve) => {
    server.ctx.outbox.faults[hook] = (entry) => {
      if (!matches(entry)) return;
      resolve(entry);
      return new Promise<void>(() => {}); // the process "dies" here
    };
  });
}
