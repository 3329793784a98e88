import { describe, expect, test } from "bun:test";
import definitions from "ripple-binary-codec/dist/enums/definitions.json";
import { TER } from "./codes";
import { Iou, Rational } from "./iou";
import { ammKey, ledgerHeaderHash, lpTokenCurrency, nftokenId, scrambleTaxon } from "./keys";
import { initialLpTokens, swapIn, swapOut } from "./apply/amm";
import { Wallet, hashes, parseNFTokenID } from "xrpl";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryLogger } from "../../platform/log";
import { SandboxLedger } from "./ledger";
import { transactionId } from "./shamap";
import { validatedStreamMessage, validatedStreamText } from "./format";

describe("result codes", () => {
  test("every TER value matches rippled's (ripple-binary-codec definitions)", () => {
    const known = definitions.TRANSACTION_RESULTS as Record<string, number>;
    for (const [name, value] of Object.entries(TER)) expect([name, known[name]]).toEqual([name, value]);
  });
});

describe("IOU values", () => {
  test("print as rippled's STAmount::getText does", () => {
    expect(Iou.parse("1185").toString()).toBe("1185");
    expect(Iou.parse("0.000001").toString()).toBe("0.000001");
    expect(Iou.parse("-12.50").toString()).toBe("-12.5");
    expect(Iou.parse("10000000000").toString()).toBe("10000000000");
    expect(Iou.parse("100000000000").toString()).toBe("1000000000000000e-4"); // exponent above -5: scientific
    expect(Iou.parse("1e-30").toString()).toBe("1000000000000000e-45");
    expect(Iou.parse("0").toString()).toBe("0");
  });

  test("keep 16 significant digits and add exactly within them", () => {
    expect(Iou.parse("0.1").add(Iou.parse("0.2")).toString()).toBe("0.3");
    expect(Iou.parse("123456789.123456789").toString()).toBe("123456789.1234567");
    expect(Iou.parse("500").sub(Iou.parse("123.456789")).toString()).toBe("376.543211");
    expect(Iou.parse("1").compare(Iou.parse("0.9999999999999999"))).toBe(1);
  });

  test("rationals round down or up to 16 digits", () => {
    expect(new Rational(2n, 3n).toIou("down").toString()).toBe("0.6666666666666666");
    expect(new Rational(2n, 3n).toIou("up").toString()).toBe("0.6666666666666667");
    expect(new Rational(7n, 2n).toInteger("up")).toBe(4n);
    expect(new Rational(7n, 2n).toInteger("down")).toBe(3n);
  });
});

describe("AMM math", () => {
  test("swapIn and swapOut are inverse up to rounding, and the fee favours the pool", () => {
    const x = Rational.of(100_000_000_000n);
    const y = Iou.parse("118500000").toRational();
    const out = swapIn(x, y, Rational.of(1_000_000n), 500);
    expect(out.toIou("down").toString()).toBe("1179.06326832048");
    const back = swapOut(x, y, out, 500);
    expect(back.toInteger("up")).toBe(1_000_000n);
    expect(swapIn(x, y, Rational.of(1_000_000n), 0).compare(out)).toBe(1);
  });

  test("initial LP tokens are sqrt(amount1 * amount2) with XRP in drops", () => {
    expect(initialLpTokens(100n, Iou.parse("400"))).toEqual(Iou.parse("200"));
  });
});

describe("identifiers", () => {
  test("NFTokenIDs follow XLS-20 and decode with xrpl.js", () => {
    const issuer = "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh";
    const id = nftokenId(8, 500, issuer, 1001, 12);
    expect(parseNFTokenID(id)).toMatchObject({ Flags: 8, TransferFee: 500, Issuer: issuer, Taxon: 1001, Sequence: 12 });
    expect(scrambleTaxon(scrambleTaxon(1001, 12), 12)).toBe(1001);
  });

  test("AMM keys do not depend on asset order; LP currencies start with 0x03", () => {
    const vvx = { currency: "VVX", issuer: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh" };
    expect(ammKey({ currency: "XRP" }, vvx)).toBe(ammKey(vvx, { currency: "XRP" }));
    expect(lpTokenCurrency("XRP", "VVX")).toMatch(/^03[0-9A-F]{38}$/);
  });
});

describe("ledger hashes", () => {
  test("a ledger header's hash (made natively at every close) is xrpl.js's hashLedgerHeader, for 500 random headers", () => {
    const hex = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex").toUpperCase();
    const u32 = () => crypto.getRandomValues(new Uint32Array(1))[0]!;
    for (let i = 0; i < 500; i++) {
      const header = {
        ledger_index: u32(),
        // Up to the XRP ever made (10^17 drops), the top of the uint64 field included.
        total_coins: (i === 0 ? 2n ** 64n - 1n : BigInt(u32()) * BigInt(u32()) + BigInt(i)).toString(),
        parent_hash: hex(),
        transaction_hash: hex(),
        account_hash: hex(),
        parent_close_time: u32(),
        close_time: u32(),
        close_time_resolution: i % 256,
        close_flags: i % 2,
      };
      expect(ledgerHeaderHash(header)).toBe(hashes.hashLedgerHeader(header as never));
    }
  });

  test("the genesis ledger's transaction tree hash is the one xrpl.js computes, and the header hash chains", () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-ledger-unit-"));
    const ledger = new SandboxLedger({ dataDir: dir, seed: "unit", ledgerMs: 1000, currency: "VVX", log: memoryLogger() });
    try {
      const header = ledger.store.ledger(2)!;
      const txs = ledger.store.ledgerTxs(2);
      expect(txs.map((t) => t.meta.TransactionResult)).toEqual(Array(9).fill("tesSUCCESS"));
      const { delivered_amount: _d, ...meta0 } = txs[0]!.meta;
      expect(meta0.TransactionIndex).toBe(0);
      const expected = hashes.hashTxTree(
        txs.map((t) => {
          const { delivered_amount: _x, ...meta } = t.meta;
          return { ...t.tx_json, metaData: meta } as never;
        }),
      );
      expect(header.transaction_hash).toBe(expected);
      for (const t of txs) expect(transactionId(t.tx_blob)).toBe(hashes.hashSignedTx(t.tx_blob));
      expect(header.parent_hash).toBe(ledger.store.ledger(1)!.ledger_hash);
      expect(hashes.hashLedgerHeader(header as never)).toBe(header.ledger_hash);
    } finally {
      ledger.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("stream text", () => {
  test("a validated transaction's stream text is the message's JSON, in API v1 and v2, for every transaction of the genesis ledgers", () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-ledger-unit-"));
    const ledger = new SandboxLedger({ dataDir: dir, seed: "unit", ledgerMs: 1000, currency: "VVX", log: memoryLogger() });
    try {
      const header = ledger.store.ledger(2)!;
      const txs = ledger.store.ledgerTxs(2);
      expect(txs.length).toBeGreaterThan(0);
      for (const tx of txs) {
        for (const v of [1, 2]) expect(validatedStreamText({ ...tx, metaText: JSON.stringify(tx.meta) }, header, v)).toBe(JSON.stringify(validatedStreamMessage(tx, header, v)));
      }
    } finally {
      ledger.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("shutdown", () => {
  test("a transaction still in the open ledger at shutdown is validated, and found after reopening", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vvx-ledger-unit-"));
    try {
      const first = new SandboxLedger({ dataDir: dir, seed: "unit", ledgerMs: 1000, currency: "VVX", log: memoryLogger() });
      const { seed } = await first.createAccount({ xrp: 50 });
      const wallet = Wallet.fromSeed(seed);
      const root = first.accountRoot(wallet.address, "current")!;
      const signed = wallet.sign({ TransactionType: "AccountSet", Account: wallet.address, Fee: "10", Sequence: root.Sequence, Flags: 0, SetFlag: 8 });
      expect(first.submit(signed.tx_blob).result).toBe("tesSUCCESS");
      const open = first.openIndex;
      first.shutdown();
      const second = new SandboxLedger({ dataDir: dir, seed: "unit", ledgerMs: 1000, currency: "VVX", log: memoryLogger() });
      expect(second.validatedIndex).toBe(open);
      expect(second.store.tx(signed.hash)?.meta.TransactionResult).toBe("tesSUCCESS");
      expect(second.accountRoot(wallet.address, "validated")!.Flags).toBe(0x00800000);
      second.shutdown();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
