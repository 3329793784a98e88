import { createHash } from "node:crypto";
import { decodeAccountID, encodeAccountID, hashes } from "xrpl";
import type { LedgerHeader } from "./state";

/**
 * Ledger object keys (rippled's keylets) and identifiers derived the way
 * rippled derives them, so indexes in metadata and RPC answers are real ones.
 */

export function sha512Half(hex: string): string {
  // Bun's native hasher: node:crypto's createHash builds a stream wrapper per call (keys are hashed on every account read).
  return new Bun.CryptoHasher("sha512").update(Buffer.from(hex, "hex")).digest("hex").slice(0, 64).toUpperCase();
}

/**
 * A ledger's hash, as rippled (and xrpl.js's hashLedgerHeader) makes it: SHA-512Half of "LWR\0" and
 * the header's fields in binary. Hashed natively (sha512Half): it runs at every close, idle or not.
 */
export function ledgerHeaderHash(h: Omit<LedgerHeader, "ledger_hash" | "tx_count">): string {
  const hex = (n: number | bigint, bytes: number) => n.toString(16).padStart(bytes * 2, "0");
  const times = hex(h.parent_close_time, 4) + hex(h.close_time, 4) + hex(h.close_time_resolution, 1) + hex(h.close_flags, 1);
  return sha512Half("4C575200" + hex(h.ledger_index, 4) + hex(BigInt(h.total_coins), 8) + h.parent_hash + h.transaction_hash + h.account_hash + times);
}

export function accountIdHex(address: string): string {
  return Buffer.from(decodeAccountID(address)).toString("hex").toUpperCase();
}

export function addressFromIdHex(hex: string): string {
  return encodeAccountID(Uint8Array.from(Buffer.from(hex, "hex")));
}

/** rippled orders the two sides of a trust line by their 20-byte account IDs. */
export function isLowAccount(a: string, b: string): boolean {
  return accountIdHex(a) < accountIdHex(b);
}

/** 160-bit currency code as hex: XRP is all zeros; 3-letter codes sit at bytes 12..14. */
export function currencyHex(currency: string): string {
  if (currency === "XRP") return "0".repeat(40);
  if (/^[0-9A-Fa-f]{40}$/.test(currency)) return currency.toUpperCase();
  return ("0".repeat(24) + Buffer.from(currency, "ascii").toString("hex") + "0".repeat(10)).toUpperCase();
}

const accountKeys = new Map<string, string>();
/** keylet::account, memoised: every transaction reads several account roots by address. */
export function accountKey(address: string): string {
  let key = accountKeys.get(address);
  if (!key) {
    key = hashes.hashAccountRoot(address);
    if (accountKeys.size > 100_000) accountKeys.clear();
    accountKeys.set(address, key);
  }
  return key;
}
export const trustLineKey = (a: string, b: string, currency: string) => hashes.hashTrustline(a, b, currency);

/** keylet::nftoffer: space 'q' (0x0071), owner, offer sequence. */
export function nftOfferKey(owner: string, sequence: number): string {
  return sha512Half("0071" + accountIdHex(owner) + sequence.toString(16).padStart(8, "0"));
}

/** NFTokenPage keys: owner's account ID then the low 96 bits of the highest token the page may hold. */
export function nftPageKey(owner: string, low96Hex: string): string {
  return accountIdHex(owner) + low96Hex.toUpperCase();
}
export const NFT_PAGE_MAX_LOW = "F".repeat(24);

export interface IssueRef {
  currency: string;
  issuer?: string;
}

function issueParts(issue: IssueRef): [string, string] {
  return [currencyHex(issue.currency), issue.currency === "XRP" ? "0".repeat(40) : accountIdHex(issue.issuer!)];
}

/** keylet::amm: space 'A' (0x0041) over the two issues in (currency, issuer) order. */
export function ammKey(a: IssueRef, b: IssueRef): string {
  const pa = issueParts(a);
  const pb = issueParts(b);
  const [min, max] = pa.join("") <= pb.join("") ? [pa, pb] : [pb, pa];
  return sha512Half("0041" + min[1] + min[0] + max[1] + max[0]);
}

/** ammLPTCurrency: 0x03 then the first 19 bytes of SHA-512Half(min currency, max currency). */
export function lpTokenCurrency(a: string, b: string): string {
  const [x, y] = [currencyHex(a), currencyHex(b)].sort();
  return ("03" + sha512Half(x + y).slice(0, 38)).toUpperCase();
}

/** pseudoAccountAddress: RIPEMD-160(SHA-256(SHA-512Half(i, parent ledger hash, owner key))) for the first unused i. */
export function pseudoAccountAddress(parentHash: string, ownerKey: string, exists: (address: string) => boolean): string {
  for (let i = 0; i < 256; i++) {
    const h = sha512Half(i.toString(16).padStart(4, "0") + parentHash + ownerKey);
    const sha = createHash("sha256").update(Buffer.from(h, "hex")).digest();
    const id = createHash("ripemd160").update(sha).digest();
    const address = encodeAccountID(Uint8Array.from(id));
    if (!exists(address)) return address;
  }
  throw new Error("no free pseudo-account address");
}

/** XLS-20 taxon scrambling (a linear congruential generator on the token sequence). */
export function scrambleTaxon(taxon: number, sequence: number): number {
  const mask = (384160001n * BigInt(sequence) + 2459n) % 4294967296n;
  return Number((BigInt(taxon) ^ mask) & 0xffffffffn);
}

/** NFTokenID layout: flags(16) transfer fee(16) issuer(160) scrambled taxon(32) sequence(32). */
export function nftokenId(flags: number, transferFee: number, issuer: string, taxon: number, sequence: number): string {
  const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");
  return (hex(flags & 0xffff, 4) + hex(transferFee, 4) + accountIdHex(issuer) + hex(scrambleTaxon(taxon, sequence), 8) + hex(sequence, 8)).toUpperCase();
}

/** The genesis account rippled creates from the "masterpassphrase" seed; the sandbox faucet pays from it. */
export const GENESIS_SEED = "snoPBrXtMeMyMHUVTgbuqAfg1SUTb";
/**
 * GENESIS_SEED's secp256k1 key pair, as Wallet.fromSeed derives it (keys.test.ts derives it again
 * and compares): deriving it took about a quarter of every start-up's CPU (a pure-JS scalar
 * multiplication), for a well-known pair that never changes.
 */
export const GENESIS_KEYS = {
  publicKey: "0330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD020",
  privateKey: "001ACAAEDECE405B2A958212629E16F2EB46B153EEE94CDD350FDEFF52795525B7",
  address: "rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh",
} as const;
/** ACCOUNT_ONE: the placeholder issuer in a RippleState's Balance field. */
export const ACCOUNT_ONE = "rrrrrrrrrrrrrrrrrrrrBZbvji";

/** keylet::offer: space 'o' (0x006F), owner, offer sequence. */
export function offerKey(owner: string, sequence: number): string {
  return sha512Half("006F" + accountIdHex(owner) + sequence.toString(16).padStart(8, "0"));
}

/** keylet::signers: space 'S' (0x0053), owner, signer list ID 0. */
export function signerListKey(owner: string): string {
  return sha512Half("0053" + accountIdHex(owner) + "00000000");
}

type JsonAmount = string | { currency: string; issuer?: string };

function issueOf(amount: JsonAmount): IssueRef {
  return typeof amount === "string" ? { currency: "XRP" } : amount.currency === "XRP" ? { currency: "XRP" } : amount;
}

/**
 * getBookBase: the directory key of an order book with quality 0, from the
 * issue the taker pays and the issue the taker gets (amounts or issues).
 */
export function bookBaseOf(takerPays: JsonAmount, takerGets: JsonAmount): string {
  const [pc, pi] = issueParts(issueOf(takerPays));
  const [gc, gi] = issueParts(issueOf(takerGets));
  return sha512Half("0042" + pc + gc + pi + gi).slice(0, 48) + "0".repeat(16);
}

/** keylet::quality: the book's base with its low 64 bits replaced by the offer's quality. */
export function bookDirectory(base: string, quality: bigint): string {
  return base.slice(0, 48) + quality.toString(16).toUpperCase().padStart(16, "0");
}
