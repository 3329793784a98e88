import { Client, Wallet, type SubmittableTransaction, type TransactionMetadata } from "xrpl";
import type { TestServer } from "../../testing/testServer";

/** Helpers the sandbox ledger tests (and the benchmark) share: faucet, close, submit-and-validate over the real xrpl.js Client. */
export class LedgerTestKit {
  readonly client: Client;

  constructor(readonly server: Pick<TestServer, "url" | "port">) {
    this.client = new Client(`ws://127.0.0.1:${server.port}/sandbox/ledger`, { connectionTimeout: 5000 });
  }

  async connect(): Promise<this> {
    await this.client.connect();
    return this;
  }

  /** POST /sandbox/api/accounts: a funded account's wallet. */
  async fund(body: { xrp?: number; vvx?: number } = {}): Promise<Wallet> {
    const res = await fetch(`${this.server.url}/sandbox/api/accounts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (res.status !== 201) throw new Error(`faucet answered ${res.status}: ${await res.text()}`);
    const { seed } = (await res.json()) as { seed: string };
    return Wallet.fromSeed(seed);
  }

  /** POST /sandbox/api/ledger/close: the validated ledger's index. */
  async close(): Promise<number> {
    const res = await fetch(`${this.server.url}/sandbox/api/ledger/close`, { method: "POST" });
    return ((await res.json()) as { ledger_index: number }).ledger_index;
  }

  /** Autofills, signs and submits; returns rippled's submit result plus the hash. */
  async submit(wallet: Wallet, tx: Record<string, unknown>) {
    const prepared = await this.client.autofill({ Account: wallet.address, ...tx } as SubmittableTransaction);
    const signed = wallet.sign(prepared);
    const res = await this.client.request({ command: "submit", tx_blob: signed.tx_blob });
    return { ...res.result, hash: signed.hash };
  }

  /** Submits, closes the ledger, and returns the validated `tx` result (meta included). */
  async apply(wallet: Wallet, tx: Record<string, unknown>) {
    const submitted = await this.submit(wallet, tx);
    await this.close();
    const res = await this.client.request({ command: "tx", transaction: submitted.hash });
    if (!res.result.validated) throw new Error(`transaction ${submitted.hash} not validated (${submitted.engine_result})`);
    return { ...res.result, meta: res.result.meta as TransactionMetadata & Record<string, any>, engine_result: submitted.engine_result };
  }

  async xrpDrops(address: string): Promise<bigint> {
    const res = await this.client.request({ command: "account_info", account: address, ledger_index: "validated" });
    return BigInt(res.result.account_data.Balance);
  }

  async vvx(address: string, issuer: string): Promise<string> {
    const res = await this.client.request({ command: "account_lines", account: address, peer: issuer, ledger_index: "validated" });
    return res.result.lines[0]?.balance ?? "0";
  }

  async disconnect(): Promise<void> {
    if (this.client.isConnected()) await this.client.disconnect();
  }
}
