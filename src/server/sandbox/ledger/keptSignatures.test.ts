import { afterEach, describe, expect, spyOn, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Wallet } from "xrpl";
import { createLogger } from "../../platform/log";
import { KEPT_SIGNATURES, type KeptSignatures } from "./faucet";
import { SandboxLedger } from "./ledger";

const global = globalThis as { [KEPT_SIGNATURES]?: KeptSignatures };
const dirs: string[] = [];

/** A fresh sandbox ledger's genesis with `kept` in place: its state hash and how many transactions were signed. */
function genesis(kept: KeptSignatures | undefined, currency = "VVX") {
  const dir = mkdtempSync(join(tmpdir(), "vvx-kept-"));
  dirs.push(dir);
  // What was there before is put back (scripts/test.sh preloads the genesis's signatures; its workers keep globals).
  const before = global[KEPT_SIGNATURES];
  global[KEPT_SIGNATURES] = kept;
  const sign = spyOn(Wallet.prototype, "sign");
  try {
    const ledger = new SandboxLedger({ dataDir: dir, seed: "vvx-sandbox", ledgerMs: 1000, currency, log: createLogger(true) });
    const state = { accountHash: ledger.lastClosed.account_hash, index: ledger.validatedIndex, signed: sign.mock.calls.length };
    ledger.shutdown();
    return state;
  } finally {
    sign.mockRestore();
    global[KEPT_SIGNATURES] = before;
  }
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the sandbox genesis's kept signatures (what the binary carries)", () => {
  test("a genesis with the kept blobs signs nothing and ends in the same state as one that signs", () => {
    const kept: KeptSignatures = { blobs: {}, record: true };
    const signing = genesis(kept);
    expect(signing.signed).toBe(9);
    expect(Object.keys(kept.blobs)).toHaveLength(9);
    const reusing = genesis({ blobs: kept.blobs });
    expect(reusing).toEqual({ ...signing, signed: 0 });
    expect(genesis(undefined)).toEqual(signing);
  });

  test("a blob is used only for the very transaction it signs: with another currency the 5 that name it are signed again", () => {
    const kept: KeptSignatures = { blobs: {}, record: true };
    const vvx = genesis(kept);
    const other = genesis({ blobs: kept.blobs }, "USD");
    expect(other.signed).toBe(5);
    expect(other).toEqual({ ...genesis(undefined, "USD"), signed: 5 });
    expect(other.accountHash).not.toBe(vvx.accountHash);
  });
});
