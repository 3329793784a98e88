import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Wallet, type Payment } from "xrpl";
import { memoryLogger } from "../../platform/log";
import { SandboxLedger } from "./ledger";

// Issue 18, low 13: transactions the open ledger accepted, killed (kill -9) before the close.
setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "vvx-durable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const options = { dataDir: dir, seed: "durable", ledgerMs: 60_000, currency: "VVX" };

/** In a child process: funds two accounts (validated), submits payments with sequences s, s+1 and s+3 (held for the gap), then SIGKILLs itself. */
const child = `
import { Wallet } from "xrpl";
import { SandboxLedger } from ${JSON.stringify(join(import.meta.dir, "ledger.ts"))};
import { memoryLogger } from ${JSON.stringify(join(import.meta.dir, "../../platform/log.ts"))};
const ledger = new SandboxLedger({ ...${JSON.stringify(options)}, log: memoryLogger() });
const alice = Wallet.fromSeed((await ledger.createAccount({ xrp: 1000 })).seed);
const bob = (await ledger.createAccount({ xrp: 10 })).address;
const s = ledger.accountRoot(alice.address, "current").Sequence;
const pay = (seq) => alice.sign({ TransactionType: "Payment", Account: alice.address, Destination: bob, Amount: String(1000000 + seq), Fee: "10", Sequence: seq, Flags: 0 });
const results = [s, s + 1, s + 3].map((seq) => { const p = pay(seq); return { hash: p.hash, result: ledger.submit(p.tx_blob).result }; });
console.log(JSON.stringify({ seed: alice.seed, bob, s, results }));
process.kill(process.pid, "SIGKILL");
`;

test("accepted and held transactions survive kill -9 before the close: taken again at start, validated by the next close", async () => {
  const proc = Bun.spawn(["bun", "-e", child], { stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).not.toBe(0);
  expect(proc.signalCode).toBe("SIGKILL");
  const { seed, bob, s, results } = JSON.parse(out) as { seed: string; bob: string; s: number; results: { hash: string; result: string }[] };
  expect(results.map((r) => r.result)).toEqual(["tesSUCCESS", "tesSUCCESS", "terPRE_SEQ"]);

  const ledger = new SandboxLedger({ ...options, log: memoryLogger() });
  try {
    // The two applied ones are in the open ledger again, in their order; the held one waits for its gap.
    expect(ledger.openTransactions.map((t) => t.hash)).toEqual([results[0]!.hash, results[1]!.hash]);
    expect(ledger.openTx(results[2]!.hash)).toBeUndefined();
    const alice = Wallet.fromSeed(seed);
    const gap: Payment = { TransactionType: "Payment", Account: alice.address, Destination: bob, Amount: "1", Fee: "10", Sequence: s + 2, Flags: 0 };
    expect(ledger.submit(alice.sign(gap).tx_blob).result).toBe("tesSUCCESS");
    expect(ledger.openTransactions).toHaveLength(4);
    const closed = ledger.close();
    for (const { hash } of results) expect(ledger.store.tx(hash)).toMatchObject({ ledger_index: closed, meta: { TransactionResult: "tesSUCCESS" } });
    // The journal of the open ledger is empty again once the close took everything.
    expect(readFileSync(join(dir, "sandbox-open.log"), "utf8")).toBe("");
  } finally {
    ledger.shutdown();
  }
  // Nothing is applied twice on the next start.
  const again = new SandboxLedger({ ...options, log: memoryLogger() });
  try {
    expect(again.openTransactions).toHaveLength(0);
    expect(again.accountRoot(Wallet.fromSeed(seed).address, "current")!.Sequence).toBe(s + 4);
  } finally {
    again.shutdown();
  }
});
