import { EngineInputError } from "./errors";

/** Micro-VVX in one VVX: VVX amounts are whole numbers of micro-VVX (10^-6), never floats. */
export const MICRO_PER_VVX = 1_000_000n;
/** Drops in one XRP. */
export const DROPS_PER_XRP = 1_000_000n;

/** An amount of XRP as a person writes it, read: drops (truncated past 6 decimals) and what was off. */
export interface XrpReading {
  drops: bigint;
  /** Written with a minus sign ("-5", "-0"). */
  negative: boolean;
  /** No digit past the 6th decimal was cut. */
  exact: boolean;
  /** Decimals as written ("2.50" has 2). */
  decimals: number;
}

/**
 * Reads an XRP amount given as a number or decimal text ("10", " 2.5 ", 2.5, "-1"); undefined for
 * anything else (exponents, "1.", ".5", "1,5", NaN). The one parser of XRP input: each caller
 * applies its own range and texts (a bet's 1-100 XRP, a swap's balance).
 */
export function readXrp(value: unknown): XrpReading | undefined {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign, whole, frac = ""] = m;
  const drops = BigInt(whole!) * DROPS_PER_XRP + BigInt(frac.slice(0, 6).padEnd(6, "0"));
  return { drops: sign ? -drops : drops, negative: !!sign, exact: !/[1-9]/.test(frac.slice(6)), decimals: frac.length };
}

/** Drops as an XRP number for the spec's display fields (bets and payouts: exact below 2^53 drops). */
export const dropsToXrpNumber = (drops: bigint | null | undefined): number => Number(drops ?? 0n) / 1e6;

/** The same factor as a plain number, for micro-VVX kept in INTEGER columns (exact below 2^53). */
export const MICRO_PER_VVX_NUMBER = Number(MICRO_PER_VVX);

/** Micro-VVX (a whole number) as a VVX number for display fields: 1750500000 -> 1750.5. */
export function microToVvxNumber(micro: number | bigint): number {
  return Number(micro) / MICRO_PER_VVX_NUMBER;
}

/** Whole VVX to micro-VVX as a plain number (for INTEGER columns and comparisons with them). */
export function vvxToMicroNumber(vvx: number): number {
  if (!Number.isSafeInteger(vvx)) throw new EngineInputError("vvx", `must be a whole number of VVX, got ${vvx}`);
  const micro = vvx * MICRO_PER_VVX_NUMBER;
  if (!Number.isSafeInteger(micro)) throw new EngineInputError("vvx", `is too large: ${vvx}`);
  return micro;
}

/** Whole VVX (a safe integer or bigint) to micro-VVX. */
export function vvxToMicro(vvx: number | bigint): bigint {
  if (typeof vvx === "number" && !Number.isSafeInteger(vvx)) {
    throw new EngineInputError("vvx", `must be a whole number of VVX, got ${vvx}`);
  }
  return BigInt(vvx) * MICRO_PER_VVX;
}

/** Micro-VVX as VVX text with up to 6 decimals, trailing zeros dropped: 1120000000n -> "1120". */
export function formatMicroVvx(micro: bigint): string {
  // Amounts within a double's exact integers (9e9 VVX) are formatted with number arithmetic, exact
  // there (% and a division by 1e6 of a multiple of 1e6), which the API's reads call many times each.
  if (micro <= MAX_EXACT && micro >= -MAX_EXACT) return formatExact(Number(micro));
  const sign = micro < 0n ? "-" : "";
  const abs = micro < 0n ? -micro : micro;
  const whole = abs / MICRO_PER_VVX;
  const fraction = (abs % MICRO_PER_VVX).toString().padStart(6, "0").replace(/0+$/, "");
  return `${sign}${whole}${fraction ? "." + fraction : ""}`;
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Decimal text with en-US thousands separators: "11789.576937" -> "11,789.576937" (what
 * toLocaleString("en-US") prints for the whole part, without loading ICU's number formatter).
 */
export function groupThousands(text: string): string {
  const [whole, frac] = text.split(".");
  return whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (frac ? `.${frac}` : "");
}

function formatExact(micro: number): string {
  const sign = micro < 0 ? "-" : "";
  const abs = Math.abs(micro);
  let fraction = abs % 1_000_000;
  const whole = (abs - fraction) / 1_000_000;
  if (fraction === 0) return `${sign}${whole}`;
  let digits = 6;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  const text = String(fraction);
  return `${sign}${whole}.${"00000".slice(0, digits - text.length)}${text}`;
}

/** A win of `multipleHundredths` / 100 times a stake, floored to whole units (drops): what every game pays. */
export function multiplyFloor(amount: bigint, multipleHundredths: number): bigint {
  if (!Number.isInteger(multipleHundredths) || multipleHundredths < 0) throw new RangeError(`multiple ${multipleHundredths} must be whole hundredths`);
  return (amount * BigInt(multipleHundredths)) / 100n;
}
