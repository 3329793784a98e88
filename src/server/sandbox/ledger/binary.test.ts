import { describe, expect, test } from "bun:test";
import { Wallet, decode, encode, encodeForSigning, multisign, type SubmittableTransaction } from "xrpl";
import { decodeFast, encodeFast, encodeForSigningFast } from "./binary";

const alice = Wallet.generate();
const bob = Wallet.generate();
const base = { Account: alice.address, Fee: "12", Sequence: 7, LastLedgerSequence: 90, Flags: 0 };
const USD = { currency: "USD", issuer: bob.address, value: "12.5" };

/** Transactions with every field kind the fast paths read or hand back to the codec. */
const samples: Record<string, unknown>[] = [
  { ...base, TransactionType: "Payment", Destination: bob.address, Amount: "1000000", DestinationTag: 42, Memos: [{ Memo: { MemoData: "CAFE", MemoType: "74657374" } }] },
  { ...base, TransactionType: "Payment", Destination: bob.address, Amount: USD, SendMax: "5000000", Flags: 0x00020000, Paths: [[{ currency: "USD", issuer: bob.address }]] },
  { ...base, TransactionType: "TrustSet", LimitAmount: { currency: "0158415500000000C1F76FF6ECB0BAC600000000", issuer: bob.address, value: "1e-20" }, QualityIn: 990_000_000 },
  { ...base, TransactionType: "NFTokenMint", NFTokenTaxon: 3, URI: "68747470733A2F2F", TransferFee: 500, Flags: 8 },
  { ...base, TransactionType: "OfferCreate", TakerGets: "-0", TakerPays: { currency: "EUR", issuer: bob.address, value: "-3" } },
  { ...base, TransactionType: "AMMDeposit", Asset: { currency: "XRP" }, Asset2: { currency: "USD", issuer: bob.address }, Amount: "100", Flags: 0x00080000 },
  { ...base, TransactionType: "NFTokenCancelOffer", NFTokenOffers: ["A".repeat(64), "B".repeat(64)] },
];

describe("fast serializer", () => {
  test.each(samples.map((s) => [s.TransactionType as string, s]))("%s: the codec's bytes, signing data and JSON", (_name, tx) => {
    const signed = alice.sign(tx as unknown as SubmittableTransaction);
    const json = decode(signed.tx_blob) as Record<string, unknown>;
    expect(encodeFast(json)).toBe(signed.tx_blob);
    expect(encodeForSigningFast(json)).toBe(encodeForSigning(json as never));
    expect(decodeFast(signed.tx_blob)).toEqual(json);
  });

  test("a multi-signed blob decodes as the codec decodes it", () => {
    const tx = { ...base, TransactionType: "AccountSet", SigningPubKey: "" } as unknown as SubmittableTransaction;
    const blob = multisign([bob.sign(tx, true).tx_blob, Wallet.generate().sign(tx, true).tx_blob]);
    expect(decodeFast(blob)).toEqual(decode(blob) as Record<string, unknown>);
    expect(encodeFast(decode(blob) as Record<string, unknown>)).toBe(encode(decode(blob) as never));
  });

  test("truncated or unknown bytes fall back to the codec, which throws as before", () => {
    const blob = alice.sign({ ...base, TransactionType: "AccountSet" } as unknown as SubmittableTransaction).tx_blob;
    expect(() => decodeFast(blob.slice(0, 20))).toThrow();
  });
});
