import type { Amount, IssuedCurrencyAmount } from "xrpl";

// Money is never a float: XRP in drops, VVX (and any issued currency) in micro-units (10^-6), both bigint.

/** Largest amount stored exactly in an SQLite INTEGER read back as a JS number. */
export const MAX_STORED_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

/** The VVX token: its currency code (3 characters or 40 hex digits) and issuing account. */
export interface Token {
  currency: string;
  issuer: string;
}

/** A delivered or requested amount, classified: XRP in drops, VVX in micro-units, anything else kept as text. */
export type LedgerAmount =
  | { kind: "XRP"; drops: bigint }
  | { kind: "VVX"; microVvx: bigint; value: string; currency: string; issuer: string }
  | { kind: "other"; value: string; currency: string; issuer: string };

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * Scales a decimal string (rippled writes "12.5", "1e-7", "12345e-20") by 10^scale.
 * Returns the result truncated toward zero and whether it was exact.
 */
export function scaleDecimal(value: string, scale: number): { scaled: bigint; exact: boolean } {
  const m = DECIMAL.exec(value.trim());
  if (!m || (m[2] === "" && (m[3] ?? "") === "")) throw new RangeError(`not a decimal number: "${value}"`);
  const [, sign, whole, frac = "", exp = "0"] = m;
  const mantissa = BigInt((whole || "0") + frac);
  const shift = Number(exp) - frac.length + scale;
  let scaled: bigint;
  let exact = true;
  if (shift >= 0) scaled = mantissa * 10n ** BigInt(shift);
  else {
    const div = 10n ** BigInt(-shift);
    scaled = mantissa / div;
    exact = mantissa % div === 0n;
  }
  return { scaled: sign === "-" ? -scaled : scaled, exact };
}

/** Writes `units / 10^scale` as a plain decimal string without trailing zeros ("12.5", "0.000001", "3"). */
export function unscaleDecimal(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  return (negative ? "-" : "") + whole + (frac ? "." + frac : "");
}

/** Parses a drops string as rippled sends it ("1000000"); throws on anything else. */
export function parseDrops(drops: string): bigint {
  if (!/^\d+$/.test(drops)) throw new RangeError(`not an amount of drops: "${drops}"`);
  return BigInt(drops);
}

/** XRP decimal text ("1.5") to drops; throws when it has more than 6 decimals. */
export function dropsFromXrp(xrp: string): bigint {
  const { scaled, exact } = scaleDecimal(xrp, 6);
  if (!exact) throw new RangeError(`XRP amount has more than 6 decimals: "${xrp}"`);
  return scaled;
}

/** Drops to XRP decimal text. */
export function xrpFromDrops(drops: bigint): string {
  return unscaleDecimal(drops, 6);
}

/** An issued-currency value ("12.345678", "1e-3") to micro-units, truncated toward zero (exact says whether nothing was cut). */
export function microFromValue(value: string): { micro: bigint; exact: boolean } {
  const { scaled, exact } = scaleDecimal(value, 6);
  return { micro: scaled, exact };
}

/** Micro-units to the value string of an issued-currency amount. */
export function valueFromMicro(micro: bigint): string {
  return unscaleDecimal(micro, 6);
}

/** The ledger form of an XRP amount: a drops string. */
export function xrpAmount(drops: bigint): string {
  if (drops < 0n) throw new RangeError("an XRP amount cannot be negative");
  return drops.toString();
}

/** The ledger form of a VVX amount. */
export function vvxAmount(microVvx: bigint, token: Token): IssuedCurrencyAmount {
  if (microVvx < 0n) throw new RangeError("a VVX amount cannot be negative");
  return { currency: token.currency, issuer: token.issuer, value: valueFromMicro(microVvx) };
}

/** A currency code in its 160-bit hex form, so "VVX" and its 40-hex spelling compare equal. */
export function currencyHex(code: string): string {
  if (/^[0-9A-Fa-f]{40}$/.test(code)) return code.toUpperCase();
  if (code.length !== 3) throw new RangeError(`not a currency code: "${code}"`);
  const ascii = [...code].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
  return ("00".repeat(12) + ascii + "00".repeat(5)).toUpperCase();
}

/** Whether two currency codes name the same currency. */
export function sameCurrency(a: string, b: string): boolean {
  if (a === "XRP" || b === "XRP") return a === b;
  try {
    return currencyHex(a) === currencyHex(b);
  } catch {
    return false;
  }
}

/** Classifies a ledger amount (Amount, delivered_amount ...) against the VVX token. */
export function classifyAmount(amount: Amount, vvx: Token): LedgerAmount {
  if (typeof amount === "string") return { kind: "XRP", drops: parseDrops(amount) };
  if (!("issuer" in amount) || !amount.issuer) throw new RangeError(`unsupported amount: ${JSON.stringify(amount)}`);
  if (sameCurrency(amount.currency, vvx.currency) && amount.issuer === vvx.issuer) {
    return { kind: "VVX", microVvx: microFromValue(amount.value).micro, value: amount.value, currency: amount.currency, issuer: amount.issuer };
  }
  return { kind: "other", value: amount.value, currency: amount.currency, issuer: amount.issuer };
}

/** `value - micro/10^6` exactly, as a decimal string (for the excess of an issued-currency overpayment). */
export function subtractMicro(value: string, micro: bigint): string {
  for (let scale = 6; scale <= 120; scale++) {
    const { scaled, exact } = scaleDecimal(value, scale);
    if (exact) return unscaleDecimal(scaled - micro * 10n ** BigInt(scale - 6), scale);
  }
  throw new RangeError(`value out of range: "${value}"`);
}
