import definitions from "ripple-binary-codec/dist/enums/definitions.json";
import { decode, decodeAccountID, encode, encodeAccountID, encodeForSigning } from "xrpl";
import { Iou } from "./iou";
import { lengthPrefix } from "./shamap";

/**
 * A fast serializer for the common ledger types (transactions, metadata and
 * ledger objects) with the binary codec's definitions. The codec tries every
 * account field as an X-address first and throws on each classic one, which
 * made it the largest cost of a submit; this writes the same bytes directly
 * and hands anything it does not know (paths, MPT amounts, bridges) back to
 * the codec. A unit test compares the two on every transaction and metadata.
 */

interface FieldDef {
  name: string;
  type: string;
  typeCode: number;
  nth: number;
  vl: boolean;
  serialized: boolean;
  signing: boolean;
  header: Buffer;
  order: number;
}

class Unsupported extends Error {}

const TYPES = definitions.TYPES as Record<string, number>;
const TX_TYPES = definitions.TRANSACTION_TYPES as Record<string, number>;
const ENTRY_TYPES = definitions.LEDGER_ENTRY_TYPES as Record<string, number>;
const RESULTS = definitions.TRANSACTION_RESULTS as Record<string, number>;

function fieldHeader(type: number, nth: number): Buffer {
  if (type < 16 && nth < 16) return Buffer.from([(type << 4) | nth]);
  if (type < 16) return Buffer.from([type << 4, nth]);
  if (nth < 16) return Buffer.from([nth, type]);
  return Buffer.from([0, type, nth]);
}

const FIELDS = new Map<string, FieldDef>();
for (const [name, f] of definitions.FIELDS as [string, { nth: number; isVLEncoded: boolean; isSerialized: boolean; isSigningField: boolean; type: string }][]) {
  const typeCode = TYPES[f.type]!;
  FIELDS.set(name, { name, type: f.type, typeCode, nth: f.nth, vl: f.isVLEncoded, serialized: f.isSerialized, signing: f.isSigningField, header: fieldHeader(typeCode, f.nth), order: (typeCode << 16) | f.nth });
}

const accountCache = new Map<string, Buffer>();
function accountBytes(address: string): Buffer {
  let bytes = accountCache.get(address);
  if (!bytes) {
    bytes = Buffer.from(decodeAccountID(address));
    if (accountCache.size > 100_000) accountCache.clear();
    accountCache.set(address, bytes);
  }
  return bytes;
}

// ---- encoding: fields are written into one growing buffer (a Buffer per field, joined by concat, cost more than the fields' values)

let out = Buffer.allocUnsafe(16_384);
let at = 0;

function room(n: number): void {
  if (at + n <= out.length) return;
  const bigger = Buffer.allocUnsafe(Math.max(out.length * 2, at + n));
  out.copy(bigger, 0, 0, at);
  out = bigger;
}

function putByte(b: number): void {
  room(1);
  out[at++] = b;
}

function putBytes(bytes: Uint8Array): void {
  room(bytes.length);
  out.set(bytes, at);
  at += bytes.length;
}

/** A hex string's bytes (of `length` bytes when given). */
function putHex(value: unknown, length?: number): void {
  if (typeof value !== "string" || value.length % 2 !== 0) throw new Unsupported("hex");
  const n = value.length / 2;
  if (length !== undefined && n !== length) throw new Unsupported("hash length");
  room(n);
  if (out.write(value, at, n, "hex") !== n) throw new Unsupported("hex");
  at += n;
}

function putUint(value: number, bytes: number): void {
  if (!Number.isInteger(value) || value < 0) throw new Unsupported("uint");
  room(bytes);
  out.writeUIntBE(value, at, bytes);
  at += bytes;
}

function putCurrency(code: string): void {
  room(20);
  if (code === "XRP") {
    out.fill(0, at, at + 20);
    at += 20;
  } else if (/^[0-9A-Fa-f]{40}$/.test(code)) putHex(code, 20);
  else if (/^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/.test(code)) {
    out.fill(0, at, at + 20);
    out.write(code, at + 12, "ascii");
    at += 20;
  } else throw new Unsupported("currency");
}

const TWO_32 = 2 ** 32;

function putAmount(value: unknown): void {
  if (typeof value === "string") {
    if (!/^-?\d+$/.test(value)) throw new Unsupported("drops");
    room(8);
    // Up to 15 digits the drops are exact as a number (2^53 > 10^15); longer ones go through BigInt.
    if (value.length <= 15) {
      const drops = Number(value);
      const abs = Math.abs(drops);
      out.writeUInt32BE(Math.floor(abs / TWO_32) + (drops < 0 ? 0 : 0x40000000), at);
      out.writeUInt32BE(abs % TWO_32, at + 4);
    } else {
      const drops = BigInt(value);
      out.writeBigUInt64BE(drops < 0n ? -drops : drops | 0x4000000000000000n, at);
    }
    at += 8;
    return;
  }
  const { currency, issuer, value: v } = (value ?? {}) as Record<string, string>;
  if (typeof currency !== "string" || typeof issuer !== "string" || typeof v !== "string") throw new Unsupported("amount");
  const iou = Iou.parse(v);
  let bits = 0x8000000000000000n;
  if (!iou.isZero()) {
    const mantissa = iou.mantissa < 0n ? -iou.mantissa : iou.mantissa;
    bits |= (iou.isNegative() ? 0n : 0x4000000000000000n) | (BigInt(iou.exponent + 97) << 54n) | mantissa;
  }
  room(8);
  out.writeBigUInt64BE(bits, at);
  at += 8;
  putCurrency(currency);
  putBytes(accountBytes(issuer));
}

/** The byte length of a variable-length field's value, written before it. */
function vlLength(f: FieldDef, value: unknown): number {
  switch (f.type) {
    case "Blob":
      if (typeof value !== "string" || value.length % 2 !== 0) throw new Unsupported("hex");
      return value.length / 2;
    case "AccountID":
      return 20;
    case "Vector256":
      if (!Array.isArray(value)) throw new Unsupported("vector");
      return 32 * value.length;
    default:
      throw new Unsupported(f.type);
  }
}

function putValue(f: FieldDef, value: unknown): void {
  switch (f.type) {
    case "UInt8":
      return putUint(f.name === "TransactionResult" && typeof value === "string" ? RESULTS[value]! : (value as number), 1);
    case "UInt16": {
      const table = f.name === "TransactionType" ? TX_TYPES : f.name === "LedgerEntryType" ? ENTRY_TYPES : undefined;
      return putUint(table && typeof value === "string" ? table[value]! : (value as number), 2);
    }
    case "UInt32":
      return putUint(value as number, 4);
    case "UInt64":
      return putHex(String(value).padStart(16, "0"), 8);
    case "Hash128":
      return putHex(value, 16);
    case "Hash160":
      return putHex(value, 20);
    case "Hash192":
      return putHex(value, 24);
    case "Hash256":
      return putHex(value, 32);
    case "Amount":
      return putAmount(value);
    case "Blob":
      return putHex(value);
    case "AccountID":
      return putBytes(accountBytes(value as string));
    case "Currency":
      return putCurrency(value as string);
    case "Issue": {
      const { currency, issuer } = value as Record<string, string>;
      putCurrency(currency === "XRP" ? "XRP" : currency!);
      if (currency !== "XRP") putBytes(accountBytes(issuer!));
      return;
    }
    case "Vector256":
      for (const h of value as unknown[]) putHex(h, 32);
      return;
    case "STObject":
      // As in the codec, only the top level drops non-signing fields.
      putObject(value as Record<string, unknown>, false);
      return putByte(0xe1);
    case "STArray": {
      if (!Array.isArray(value)) throw new Unsupported("array");
      for (const item of value) {
        const [name, inner] = Object.entries(item as Record<string, unknown>)[0] ?? [];
        const def = name ? FIELDS.get(name) : undefined;
        if (!def || def.type !== "STObject") throw new Unsupported("array item");
        putBytes(def.header);
        putObject(inner as Record<string, unknown>, false);
        putByte(0xe1);
      }
      return putByte(0xf1);
    }
    default:
      throw new Unsupported(f.type);
  }
}

function putObject(obj: Record<string, unknown>, signingOnly: boolean): void {
  const fields: FieldDef[] = [];
  for (const key of Object.keys(obj)) {
    if (obj[key] === undefined) continue;
    const def = FIELDS.get(key);
    if (!def) throw new Unsupported(`field ${key}`);
    if (!def.serialized || (signingOnly && !def.signing)) continue;
    fields.push(def);
  }
  fields.sort((a, b) => a.order - b.order);
  for (const def of fields) {
    const value = obj[def.name];
    putBytes(def.header);
    if (def.vl) putBytes(lengthPrefix(vlLength(def, value)));
    putValue(def, value);
  }
}

/** Writes `obj` after `prefix`; the bytes stay valid until the next encode. */
function encodeInto(obj: Record<string, unknown>, signingOnly: boolean, prefix?: Uint8Array): Buffer {
  at = 0;
  if (prefix) putBytes(prefix);
  putObject(obj, signingOnly);
  return out.subarray(0, at);
}

/** The binary form of a transaction, metadata or ledger object, as ripple-binary-codec's encode gives it. */
export function encodeFast(obj: Record<string, unknown>): string {
  return encodeFastBytes(obj).toString("hex").toUpperCase();
}

/** encodeFast's bytes, in a Buffer of their own. */
export function encodeFastBytes(obj: Record<string, unknown>): Buffer {
  try {
    return Buffer.from(encodeInto(obj, false));
  } catch (err) {
    if (err instanceof Unsupported) return Buffer.from(encode(obj as never), "hex");
    throw err;
  }
}

const SIGNING_PREFIX = Buffer.from("53545800", "hex");

/** The data a single signature covers (prefix STX\0 and the signing fields), as the codec's encodeForSigning gives it. */
export function encodeForSigningFast(tx: Record<string, unknown>): string {
  return encodeForSigningBytes(tx).toString("hex").toUpperCase();
}

/** encodeForSigningFast's bytes, in a Buffer of their own (what a verifier takes, without a trip through hex). */
export function encodeForSigningBytes(tx: Record<string, unknown>): Buffer<ArrayBuffer> {
  try {
    return Buffer.from(encodeInto(tx, true, SIGNING_PREFIX));
  } catch (err) {
    if (err instanceof Unsupported) return Buffer.from(encodeForSigning(tx as never), "hex");
    throw err;
  }
}

// ---- decoding -------------------------------------------------------------------

const BY_CODE = new Map<number, FieldDef>();
for (const def of FIELDS.values()) if (def.serialized) BY_CODE.set(def.order, def);
const TX_TYPE_NAMES = new Map(Object.entries(TX_TYPES).map(([name, code]) => [code, name]));
const addressCache = new Map<string, string>();

function addressOf(bytes: Buffer): string {
  const hex = bytes.toString("hex");
  let address = addressCache.get(hex);
  if (!address) {
    address = encodeAccountID(Uint8Array.from(bytes));
    if (addressCache.size > 100_000) addressCache.clear();
    addressCache.set(hex, address);
  }
  return address;
}

/** Reads fields until `end` (or an object end marker), as the codec's STObject does. */
function readObject(buf: Buffer, pos: { at: number }, end: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  while (pos.at < end) {
    const b = buf[pos.at++]!;
    let type = b >> 4;
    let nth = b & 0x0f;
    if (type === 0) type = buf[pos.at++]!;
    if (nth === 0) nth = buf[pos.at++]!;
    if (type === 14 && nth === 1) return out; // ObjectEndMarker
    const def = BY_CODE.get((type << 16) | nth);
    if (!def) throw new Unsupported(`field ${type}/${nth}`);
    out[def.name] = readValue(buf, pos, def);
  }
  return out;
}

function readLength(buf: Buffer, pos: { at: number }): number {
  const b1 = buf[pos.at++]!;
  if (b1 <= 192) return b1;
  const b2 = buf[pos.at++]!;
  if (b1 <= 240) return 193 + (b1 - 193) * 256 + b2;
  const b3 = buf[pos.at++]!;
  return 12481 + (b1 - 241) * 65536 + b2 * 256 + b3;
}

/** Moves past `n` bytes; returns where they start. */
function skip(buf: Buffer, pos: { at: number }, n: number): number {
  const start = pos.at;
  if (start + n > buf.length) throw new Unsupported("short");
  pos.at += n;
  return start;
}

function hexOf(buf: Buffer, pos: { at: number }, n: number): string {
  const start = skip(buf, pos, n);
  return buf.toString("hex", start, start + n).toUpperCase();
}

function readValue(buf: Buffer, pos: { at: number }, def: FieldDef): unknown {
  switch (def.type) {
    case "UInt8":
      if (def.name === "TransactionResult") throw new Unsupported("result");
      return buf[skip(buf, pos, 1)]!;
    case "UInt16": {
      const v = buf.readUInt16BE(skip(buf, pos, 2));
      if (def.name === "TransactionType") return TX_TYPE_NAMES.get(v) ?? v;
      if (def.name === "LedgerEntryType") throw new Unsupported("entry type");
      return v;
    }
    case "UInt32":
      return buf.readUInt32BE(skip(buf, pos, 4));
    case "Hash128":
    case "Hash160":
    case "Hash256":
      return hexOf(buf, pos, def.type === "Hash128" ? 16 : def.type === "Hash160" ? 20 : 32);
    case "Amount": {
      const head = buf[pos.at]!;
      if (head & 0x80 || head & 0x20) throw new Unsupported("issued or MPT amount"); // the codec formats IOU values
      const start = skip(buf, pos, 8);
      const high = buf.readUInt32BE(start) & 0x3fffffff;
      // Exact as a number below 2^53 drops (every real amount: 10^17 drops in all); larger ones through BigInt.
      const drops = high < 0x200000 ? String(high * 2 ** 32 + buf.readUInt32BE(start + 4)) : (buf.readBigUInt64BE(start) & 0x3fffffffffffffffn).toString();
      return head & 0x40 ? drops : (-BigInt(drops)).toString();
    }
    case "Blob":
      return hexOf(buf, pos, readLength(buf, pos));
    case "AccountID": {
      const n = readLength(buf, pos);
      if (n !== 20) throw new Unsupported("account length");
      const start = skip(buf, pos, 20);
      return addressOf(buf.subarray(start, start + 20));
    }
    case "STObject":
      return readObject(buf, pos, buf.length);
    case "STArray": {
      const items: unknown[] = [];
      for (;;) {
        const b = buf[pos.at]!;
        if (b === 0xf1) {
          pos.at++;
          return items;
        }
        pos.at++;
        const def2 = BY_CODE.get((14 << 16) | (b & 0x0f)) ?? undefined;
        if ((b >> 4) !== 14 || !def2) throw new Unsupported("array item");
        items.push({ [def2.name]: readObject(buf, pos, buf.length) });
      }
    }
    default:
      throw new Unsupported(def.type);
  }
}

/** A transaction blob as JSON, as the codec's decode gives it (the codec decodes what this does not know). */
export function decodeFast(hex: string): Record<string, unknown> {
  try {
    const buf = Buffer.from(hex, "hex");
    const pos = { at: 0 };
    const out = readObject(buf, pos, buf.length);
    if (pos.at !== buf.length) throw new Unsupported("trailing bytes");
    return out;
  } catch (err) {
    if (err instanceof Unsupported || err instanceof RangeError) return decode(hex) as Record<string, unknown>;
    throw err;
  }
}
