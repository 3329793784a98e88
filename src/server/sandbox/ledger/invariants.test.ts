import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Wallet, decode, encode, encodeForSigning, type SubmittableTransaction } from "xrpl";
import { decodeFast, encodeFast, encodeForSigningFast } from "./binary";
import { binaryMeta } from "./format";
import { memoryLogger } from "../../platform/log";
import { LSF } from "./apply/common";
import { isApplied } from "./codes";
import { SandboxLedger } from "./ledger";
import type { Entry } from "./view";

/** A small deterministic PRNG (mulberry32) so a failing run can be replayed. */
function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** rippled's invariants, checked over the whole state: XRP is conserved and every owner count matches what the account owns. */
function checkInvariants(ledger: SandboxLedger, entries: Entry[]) {
  const roots = entries.filter((e) => e.LedgerEntryType === "AccountRoot");
  const xrp = roots.reduce((sum, r) => sum + BigInt(r.Balance), 0n);
  expect(xrp.toString()).toBe(ledger.lastClosed.total_coins);
  for (const root of roots) {
    expect(BigInt(root.Balance) >= 0n).toBe(true);
    const owned = ledger.ownedEntries(root.Account, "validated");
    let count = 0;
    for (const e of owned) {
      if (e.LedgerEntryType === "RippleState") {
        const low = e.LowLimit.issuer === root.Account;
        if (e.Flags & (low ? LSF.lowReserve : LSF.highReserve)) count++;
      } else if (["NFTokenOffer", "NFTokenPage", "AMM", "Offer"].includes(e.LedgerEntryType)) count++;
    }
    expect([root.Account, root.OwnerCount ?? 0]).toEqual([root.Account, count]);
  }
}

/** An offer on either side of the XRP/VVX book (crossing the pool and other offers at times), or a cancel. */
function dexTx(rand: () => number, pick: <T>(xs: T[]) => T, vvx: (v: number) => unknown, sequence: number): Record<string, unknown> {
  if (rand() < 0.2) return { TransactionType: "OfferCancel", OfferSequence: Math.max(1, sequence - 1 - Math.floor(rand() * 5)) };
  const drops = String(Math.floor(rand() * 3_000_000) + 1);
  const tokens = vvx(Math.round(rand() * 500000) / 100 + 0.01);
  const flags = pick([0, 0, 0x00020000, 0x00080000, 0x00010000]);
  return rand() < 0.5 ? { TransactionType: "OfferCreate", TakerGets: drops, TakerPays: tokens, Flags: flags } : { TransactionType: "OfferCreate", TakerGets: tokens, TakerPays: drops, Flags: flags };
}

test("random transactions keep XRP conserved and owner counts exact", async () => {
  const dir = mkdtempSync(join(tmpdir(), "vvx-ledger-fuzz-"));
  const ledger = new SandboxLedger({ dataDir: dir, seed: "fuzz", ledgerMs: 1000, currency: "VVX", log: memoryLogger() });
  const rand = prng(20261122);
  const pick = <T,>(xs: T[]): T => xs[Math.floor(rand() * xs.length)]!;
  try {
    const issuer = ledger.wallets.issuer.address;
    const wallets: Wallet[] = [];
    for (let i = 0; i < 6; i++) wallets.push(Wallet.fromSeed((await ledger.createAccount({ xrp: 20 + i * 5, vvx: i % 2 ? 100 : undefined })).seed));
    const nfts: string[] = [];
    const root0 = (w: Wallet) => ledger.accountRoot(w.address, "current")!.Sequence as number;
    const offers: string[] = [];
    const results = new Map<string, number>();
    for (let step = 0; step < 600; step++) {
      const w = pick(wallets);
      const other = pick(wallets.filter((x) => x !== w));
      const vvx = (v: number) => ({ currency: "VVX", issuer, value: v.toFixed(2) });
      const r = rand();
      let tx: Record<string, unknown>;
      if (r < 0.2) tx = { TransactionType: "Payment", Destination: other.address, Amount: String(Math.floor(rand() * 30_000_000)) };
      else if (r < 0.35) tx = { TransactionType: "Payment", Destination: other.address, Amount: vvx(Math.round(rand() * 8000) / 100), ...(rand() < 0.3 ? { Flags: 0x00020000 } : {}) };
      else if (r < 0.45) tx = { TransactionType: "Payment", Destination: pick([w.address, other.address]), Amount: vvx(Math.round(rand() * 500000) / 100), SendMax: String(Math.floor(rand() * 5_000_000) + 1), Flags: 0x00020000 };
      else if (r < 0.5) tx = { TransactionType: "Payment", Destination: other.address, Amount: String(Math.floor(rand() * 3_000_000) + 1), SendMax: vvx(Math.round(rand() * 5000) / 100 + 1) };
      else if (r < 0.58) tx = { TransactionType: "TrustSet", LimitAmount: vvx(pick([0, 0, 1000, 50])) };
      else if (r < 0.68) tx = { TransactionType: "NFTokenMint", NFTokenTaxon: Math.floor(rand() * 5), Flags: pick([8, 9, 0]) };
      else if (r < 0.78 && nfts.length) tx = { TransactionType: "NFTokenCreateOffer", NFTokenID: pick(nfts), Amount: String(Math.floor(rand() * 3) * 1_000_000), Flags: 1, ...(rand() < 0.5 ? { Destination: other.address } : {}) };
      else if (r < 0.86 && offers.length) tx = { TransactionType: "NFTokenAcceptOffer", NFTokenSellOffer: pick(offers) };
      else if (r < 0.9 && offers.length) tx = { TransactionType: "NFTokenCancelOffer", NFTokenOffers: [pick(offers)] };
      else if (r < 0.94 && nfts.length) tx = { TransactionType: "NFTokenBurn", NFTokenID: pick(nfts) };
      else if (r < 0.96) tx = dexTx(rand, pick, vvx, root0(w));
      else if (r < 0.975) tx = { TransactionType: "AMMDeposit", Asset: { currency: "XRP" }, Asset2: { currency: "VVX", issuer }, Amount: String(Math.floor(rand() * 2_000_000) + 1), Flags: 0x00080000 };
      else if (r < 0.985) tx = { TransactionType: "AMMWithdraw", Asset: { currency: "XRP" }, Asset2: { currency: "VVX", issuer }, Flags: 0x00020000 };
      else tx = rand() < 0.5 ? { TransactionType: "AccountSet", SetFlag: pick([1, 8]) } : { TransactionType: "AccountSet", ClearFlag: 1 };
      const root = ledger.accountRoot(w.address, "current")!;
      const signed = w.sign({ Account: w.address, Fee: "10", Sequence: root.Sequence, Flags: 0, ...tx } as unknown as SubmittableTransaction);
      const out = ledger.submit(signed.tx_blob);
      results.set(out.result, (results.get(out.result) ?? 0) + 1);
      if (out.result === "tesSUCCESS") {
        const meta = ledger.openTx(out.hash)!.meta;
        if (typeof meta.nftoken_id === "string" && tx.TransactionType === "NFTokenMint") nfts.push(meta.nftoken_id);
        if (typeof meta.offer_id === "string") offers.push(meta.offer_id);
      }
      expect([out.result, isApplied(out.result) || out.result.startsWith("tem") || out.result.startsWith("tel") || out.result === "tefNFTOKEN_IS_NOT_TRANSFERABLE"]).toEqual([out.result, true]);
      if (step % 25 === 24) {
        ledger.close();
        checkInvariants(ledger, [...ledger.store.loadEntries()]);
      }
    }
    ledger.close();
    checkInvariants(ledger, [...ledger.store.loadEntries()]);
    // The fast serializer writes exactly the codec's bytes for every transaction, metadata and object of the run.
    for (let i = ledger.firstIndex; i <= ledger.validatedIndex; i++) {
      for (const t of ledger.store.ledgerTxs(i)) {
        expect(encodeFast(t.tx_json)).toBe(t.tx_blob);
        expect(decodeFast(t.tx_blob)).toEqual(decode(t.tx_blob) as Record<string, unknown>);
        expect(encodeFast(binaryMeta(t.meta))).toBe(encode(binaryMeta(t.meta) as never));
        if (!t.tx_json.Signers) expect(encodeForSigningFast(t.tx_json)).toBe(encodeForSigning(t.tx_json as never));
      }
    }
    for (const { index: _i, ...fields } of ledger.store.loadEntries()) expect(encodeFast(fields)).toBe(encode(fields as never));
    expect(results.get("tesSUCCESS")).toBeGreaterThan(100);
    // The run exercised successes and failures alike.
    expect(results.get("tesSUCCESS")).toBeGreaterThan(100);
    expect([...results.keys()].filter((k) => k.startsWith("tec")).length).toBeGreaterThan(2);
  } finally {
    ledger.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
