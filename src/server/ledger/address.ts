import { isValidClassicAddress } from "xrpl";
import { ValidationError } from "../platform/errors";

/** Most addresses remembered as valid (a bound, not a tuning knob): past it the set starts over. */
const MAX_KNOWN = 10_000;
let known = new Set<string>();

/**
 * xrpl.js's isValidClassicAddress, remembering the addresses that passed: the check (base58 and a
 * double SHA-256 checksum, about 7 us) is a pure function of the text, and the API's reads check
 * the same few wallets over and over. Only valid addresses are kept, so made-up input fills nothing.
 */
export function isClassicAddress(address: string): boolean {
  if (known.has(address)) return true;
  if (!isValidClassicAddress(address)) return false;
  if (known.size >= MAX_KNOWN) known = new Set();
  known.add(address);
  return true;
}

/** Checks an address field; 400 naming `field` otherwise. */
export function parseAddress(value: unknown, field = "address"): string {
  if (typeof value !== "string" || !value.trim()) throw new ValidationError(field, `Field '${field}' is required: an XRPL address (r...)`);
  const address = value.trim();
  if (!isClassicAddress(address)) throw new ValidationError(field, `Field '${field}' is not an XRPL address: "${address.slice(0, 64)}"`);
  return address;
}
