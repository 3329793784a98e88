import { isValidClassicAddress } from "xrpl";
import { ValidationError } from "../platform/errors";

/** Checks an address field; 400 naming `field` otherwise. */
export function parseAddress(value: unknown, field = "address"): string {
  if (typeof value !== "string" || !value.trim()) throw new ValidationError(field, `Field '${field}' is required: an XRPL address (r...)`);
  const address = value.trim();
  if (!isValidClassicAddress(address)) throw new ValidationError(field, `Field '${field}' is not an XRPL address: "${address.slice(0, 64)}"`);
  return address;
}
