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

function currencyBytes(code: string): Buffer {
  if (code === "XRP") return Buffer.alloc(20);
  if (/^[0-9A-Fa-f]{40}$/.test(code)) return Buffer.from(code, "hex");
  if (!/^[A-Za-z0-9?!@#$%^&*<>(){}[\]|]{3}$/.test(code)) throw new Unsupported("currency");
  const out = Buffer.alloc(20);
  out.write(code, 12, "ascii");
  return out;
}

function hexBytes(value: unknown, length?: number): Buffer {
  if (typeof value !== "string" || value.length % 2 !== 0 || !/^[0-9A-Fa-f]*$/.test(value)) throw new Unsupported("hex");
  const bytes = Buffer.from(value, "hex");
  if (length !== undefined && bytes.length !== length) throw new Unsupported("hash length");
  return bytes;
}

function uint(value: number, bytes: number): Buffer {
  if (!Number.isInteger(value) || value < 0) throw new Unsupported("uint");
  const out = Buffer.alloc(bytes);
  out.writeUIntBE(value, 0, bytes);
  return out;
}

function amountBytes(value: unknown): Buffer {
  if (typeof value === "string") {
    if (!/^-?\d+$/.test(value)) throw new Unsupported("drops");
    const drops = BigInt(value);
    const out = Buffer.alloc(8);
    out.writeBigUInt64BE(drops < 0n ? -drops : drops | 0x4000000000000000n);
    return out;
  }
  const { currency, issuer, value: v } = (value ?? {}) as Record<string, string>;
  if (typeof currency !== "string" || typeof issuer !== "string" || typeof v !== "string") throw new Unsupported("amount");
  const iou = Iou.parse(v);
  let bits = 0x8000000000000000n;
  if (!iou.isZero()) {
    const mantissa = iou.mantissa < 0n ? -iou.mantissa : iou.mantissa;
    bits |= (iou.isNegative() ? 0n : 0x4000000000000000n) | (BigInt(iou.exponent + 97) << 54n) | mantissa;
  }
  const head = Buffer.alloc(8);
  head.writeBigUInt64BE(bits);
  return Buffer.concat([head, currencyBytes(currency), accountBytes(issuer)]);
}

function valueBytes(f: FieldDef, value: unknown): Buffer {
  switch (f.type) {
    case "UInt8":
      return uint(f.name === "TransactionResult" && typeof value === "string" ? RESULTS[value]! : (value as number), 1);
    case "UInt16": {
      const table = f.name === "TransactionType" ? TX_TYPES : f.name === "LedgerEntryType" ? ENTRY_TYPES : undefined;
      return uint(table && typeof value === "string" ? table[value]! : (value as number), 2);
    }
    case "UInt32":
      return uint(value as number, 4);
    case "UInt64":
      return hexBytes(String(value).padStart(16, "0"), 8);
    case "Hash128":
      return hexBytes(value, 16);
    case "Hash160":
      return hexBytes(value, 20);
    case "Hash192":
      return hexBytes(value, 24);
    case "Hash256":
      return hexBytes(value, 32);
    case "Amount":
      return amountBytes(value);
    case "Blob":
      return hexBytes(value);
    case "AccountID":
      return accountBytes(value as string);
    case "Currency":
      return currencyBytes(value as string);
    case "Issue": {
      const { currency, issuer } = value as Record<string, string>;
      return currency === "XRP" ? Buffer.alloc(20) : Buffer.concat([currencyBytes(currency!), accountBytes(issuer!)]);
    }
    case "Vector256":
      if (!Array.isArray(value)) throw new Unsupported("vector");
      return Buffer.concat(value.map((h) => hexBytes(h, 32)));
    case "STObject":
      // As in the codec, only the top level drops non-signing fields.
      return Buffer.concat([objectBytes(value as Record<string, unknown>, false), Buffer.from([0xe1])]);
    case "STArray": {
      if (!Array.isArray(value)) throw new Unsupported("array");
      const parts: Buffer[] = [];
      for (const item of value) {
        const [name, inner] = Object.entries(item as Record<string, unknown>)[0] ?? [];
        const def = name ? FIELDS.get(name) : undefined;
        if (!def || def.type !== "STObject") throw new Unsupported("array item");
        parts.push(def.header, objectBytes(inner as Record<string, unknown>, false), Buffer.from([0xe1]));
      }
      parts.push(Buffer.from([0xf1]));
      return Buffer.concat(parts);
    }
    default:
      throw new Unsupported(f.type);
  }
}

function objectBytes(obj: Record<string, unknown>, signingOnly: boolean): Buffer {
  const fields: FieldDef[] = [];
  for (const key of Object.keys(obj)) {
    if (obj[key] === undefined) continue;
    const def = FIELDS.get(key);
    if (!def) throw new Unsupported(`field ${key}`);
    if (!def.serialized || (signingOnly && !def.signing)) continue;
    fields.push(def);
  }
  fields.sort((a, b) => a.order - b.order);
  const parts: Buffer[] = [];
  for (const def of fields) {
    const bytes = valueBytes(def, obj[def.name]);
    parts.push(def.header);
    if (def.vl) parts.push(lengthPrefix(bytes.length));
    parts.push(bytes);
  }
  return Buffer.concat(parts);
}

/** The binary form of a transaction, metadata or ledger object, as ripple-binary-codec's encode gives it. */
export function encodeFast(obj: Record<string, unknown>): string {
  try {
    return objectBytes(obj, false).toString("hex").toUpperCase();
  } catch (err) {
    if (err instanceof Unsupported) return encode(obj as never);
    throw err;
  }
}

const SIGNING_PREFIX = Buffer.from("53545800", "hex");

/** The data a single signature covers (prefix STX\0 and the signing fields), as the codec's encodeForSigning gives it. */
export function encodeForSigningFast(tx: Record<string, unknown>): string {
  try {
    return Buffer.concat([SIGNING_PREFIX, objectBytes(tx, true)]).toString("hex").toUpperCase();
  } catch (err) {
    if (err instanceof Unsupported) return encodeForSigning(tx as never);
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

function take(buf: Buffer, pos: { at: number }, n: number): Buffer {
  if (pos.at + n > buf.length) throw new Unsupported("short");
  const bytes = buf.subarray(pos.at, pos.at + n);
  pos.at += n;
  return bytes;
}

function readValue(buf: Buffer, pos: { at: number }, def: FieldDef): unknown {
  switch (def.type) {
    case "UInt8":
      if (def.name === "TransactionResult") throw new Unsupported("result");
      return take(buf, pos, 1).readUInt8(0);
    case "UInt16": {
      const v = take(buf, pos, 2).readUInt16BE(0);
      if (def.name === "TransactionType") return TX_TYPE_NAMES.get(v) ?? v;
      if (def.name === "LedgerEntryType") throw new Unsupported("entry type");
      return v;
    }
    case "UInt32":
      return take(buf, pos, 4).readUInt32BE(0);
    case "Hash128":
    case "Hash160":
    case "Hash256":
      return take(buf, pos, def.type === "Hash128" ? 16 : def.type === "Hash160" ? 20 : 32).toString("hex").toUpperCase();
    case "Amount": {
      const head = buf[pos.at]!;
      if (head & 0x80 || head & 0x20) throw new Unsupported("issued or MPT amount"); // the codec formats IOU values
      const raw = take(buf, pos, 8).readBigUInt64BE(0);
      const drops = raw & 0x3fffffffffffffffn;
      return (raw & 0x4000000000000000n ? drops : -drops).toString();
    }
    case "Blob":
      return take(buf, pos, readLength(buf, pos)).toString("hex").toUpperCase();
    case "AccountID": {
      const n = readLength(buf, pos);
      if (n !== 20) throw new Unsupported("account length");
      return addressOf(take(buf, pos, 20));
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
