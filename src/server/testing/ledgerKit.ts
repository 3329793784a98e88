import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, Wallet, type Payment, type SubmittableTransaction, type TxResponse } from "xrpl";
import { openStore, type Store } from "../platform/db";
import { memoryLogger } from "../platform/log";
import { PaymentWatcher } from "../payments/watcher";
import type { Token } from "../ledger/amounts";
import { LedgerGateway, type Backoff } from "../ledger/gateway";
import { Outbox } from "../ledger/outbox";
import type { TestServer } from "./testServer";

/** Test helpers against a running sandbox (a server started by startTestServer). */

/** A funded sandbox account from the faucet (with a VVX trust line and balance when vvx is given). */
export async function faucet(baseUrl: string, body: { xrp?: number; vvx?: number } = { xrp: 1000 }): Promise<Wallet> {
  const res = await fetch(`${baseUrl}/sandbox/api/accounts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`faucet answered ${res.status}: ${await res.text()}`);
  const { seed } = (await res.json()) as { address: string; seed: string };
  return Wallet.fromSeed(seed);
}

/** Closes a sandbox ledger now. */
export async function closeLedger(baseUrl: string): Promise<void> {
  const res = await fetch(`${baseUrl}/sandbox/api/ledger/close`, { method: "POST" });
  if (!res.ok) throw new Error(`ledger close answered ${res.status}: ${await res.text()}`);
}

/** The sandbox ledger's WebSocket URL for a server's HTTP base URL. */
export function ledgerUrl(baseUrl: string): string {
  return `${baseUrl.replace(/^http/, "ws")}/sandbox/ledger`;
}

/** A plain xrpl.js client on the sandbox, as an outside wallet would use it. */
export async function outsideClient(baseUrl: string): Promise<Client> {
  const client = new Client(ledgerUrl(baseUrl));
  await client.connect();
  return client;
}

/**
 * Signs and submits a transaction from an outside wallet and waits until it is validated with tesSUCCESS
 * (polls `tx` every 50 ms: xrpl.js submitAndWait polls once a second, slow for 200 ms ledgers).
 */
export async function submitValidated(client: Client, wallet: Wallet, tx: Record<string, unknown>): Promise<TxResponse> {
  const filled = await client.autofill({ Account: wallet.classicAddress, ...tx } as unknown as SubmittableTransaction);
  const { tx_blob, hash } = wallet.sign(filled);
  const submitted = await client.submit(tx_blob);
  const prelim = submitted.result.engine_result;
  if (!prelim.startsWith("tes") && !prelim.startsWith("tec") && prelim !== "terQUEUED") throw new Error(`transaction refused: ${prelim}`);
  const until = Date.now() + 20_000;
  for (;;) {
    const res = await client.request({ command: "tx", transaction: hash }).catch(() => undefined);
    if (res?.result.validated) {
      const result = typeof res.result.meta === "object" ? res.result.meta.TransactionResult : "unknown";
      if (result !== "tesSUCCESS") throw new Error(`transaction failed: ${result}`);
      return res as TxResponse;
    }
    if (Date.now() > until) throw new Error(`transaction ${hash} not validated in time`);
    await Bun.sleep(50);
  }
}

/** An outside wallet pays (see submitValidated). */
export async function pay(client: Client, wallet: Wallet, tx: Omit<Payment, "Account" | "TransactionType">): Promise<TxResponse> {
  return submitValidated(client, wallet, { TransactionType: "Payment", ...tx });
}

/** Polls until `check` returns a truthy value; throws with `what` after timeoutMs (a function: what to say then, the state seen). */
export async function eventually<T>(check: () => T | Promise<T>, what: string | (() => string), timeoutMs = 10_000, everyMs = 25): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    await Bun.sleep(everyMs);
  }
}

export interface Stack {
  dataDir: string;
  store: Store;
  ledger: LedgerGateway;
  outbox: Outbox;
  payments: PaymentWatcher;
  log: ReturnType<typeof memoryLogger>;
  stop(): Promise<void>;
}

/**
 * The gateway, outbox and watcher on their own database, talking to a ledger at `url` the way a
 * server on a real network does (explicit platform seed and VVX issuer). Lets a test stop the
 * watcher's process while the ledger keeps running.
 */
export async function startStack(opts: {
  url: string;
  platformSeed: string;
  vvx: Token;
  dataDir?: string;
  backoff?: Backoff;
  waitConnected?: boolean;
  /** account_tx page size for the watcher's catch-up. */
  pageSize?: number;
}): Promise<Stack> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), "vvx-stack-"));
  const store = openStore(dataDir);
  const log = memoryLogger();
  const ledger = new LedgerGateway({
    url: opts.url,
    network: "testnet",
    platform: Wallet.fromSeed(opts.platformSeed),
    vvx: opts.vvx,
    log,
    backoff: opts.backoff ?? { minMs: 50, maxMs: 400 },
    connectionTimeoutMs: 2_000,
    requestTimeoutMs: 5_000,
  });
  const outbox = new Outbox(store.db, ledger, log);
  const payments = new PaymentWatcher(store.db, ledger, outbox, log, { pageSize: opts.pageSize });
  outbox.start();
  payments.start();
  ledger.start();
  if (opts.waitConnected !== false) await ledger.waitConnected(10_000);
  return {
    dataDir,
    store,
    ledger,
    outbox,
    payments,
    log,
    async stop() {
      payments.stop();
      outbox.stop();
      await ledger.stop();
      store.close();
    },
  };
}

/**
 * An account with `payments` validated payments in its history, submitted straight to the in-process
 * sandbox ledger (one account_tx page of 400 is ~200 KB of JSON: what the ledger flood tests ask for).
 */
export async function accountWithHistory(server: TestServer, payments = 400): Promise<string> {
  const ledger = server.ctx.sandbox!.ledger!;
  const wallet = Wallet.fromSeed((await ledger.createAccount({ xrp: 10_000 })).seed);
  const sink = (await ledger.createAccount({ xrp: 10 })).address;
  const first = ledger.accountRoot(wallet.address, "current")!.Sequence as number;
  for (let i = 0; i < payments; i++) {
    const tx: Payment = { TransactionType: "Payment", Account: wallet.address, Destination: sink, Amount: String(1000 + i), Fee: "10", Sequence: first + i, Flags: 0 };
    const { result } = ledger.submit(wallet.sign(tx).tx_blob);
    if (result !== "tesSUCCESS") throw new Error(`payment ${i} of the history: ${result}`);
  }
  await ledger.closeLedger();
  return wallet.address;
}
