/**
 * rippled's `Number` (libxrpl basics/Number) with its 16-digit mantissa, the arithmetic the
 * ledger uses for AMM swaps: every operation keeps 16 significant digits and rounds in an
 * explicit mode (rippled sets a thread-wide mode; here each call names it). Reproducing it
 * digit for digit is what lets a quote equal the ledger's own execution: exact fractions
 * rounded once would differ from rippled in the last digit.
 */

export type RoundingMode = "to_nearest" | "towards_zero" | "downward" | "upward";

const MIN_MANTISSA = 10n ** 15n;
const MAX_MANTISSA = 10n ** 16n - 1n;
const MIN_EXPONENT = -32768;
const MAX_EXPONENT = 32768;
const GUARD_TOP = 10n ** 15n;
const HALF = 5n * GUARD_TOP;

/**
 * The digits shifted off the end of a mantissa (rippled's Guard): the first 16 kept exactly,
 * any further non-zero digit remembered as a sticky bit, plus the sign of the shifted value.
 */
class Guard {
  private digits = 0n; // 16 digits as a fraction: the first dropped digit is the most significant
  private sticky = false;
  negative = false;

  push(d: bigint): void {
    this.sticky ||= this.digits % 10n !== 0n;
    this.digits = this.digits / 10n + d * GUARD_TOP;
  }

  pop(): bigint {
    const d = this.digits / GUARD_TOP;
    this.digits = (this.digits % GUARD_TOP) * 10n;
    return d;
  }

  /** 1: round the magnitude up; -1: keep it; 0: exactly half (to_nearest ties to even). */
  round(mode: RoundingMode): number {
    const nonZero = this.digits > 0n || this.sticky;
    switch (mode) {
      case "towards_zero":
        return -1;
      case "downward":
        return this.negative && nonZero ? 1 : -1;
      case "upward":
        return !this.negative && nonZero ? 1 : -1;
      default:
        if (this.digits > HALF) return 1;
        if (this.digits < HALF) return -1;
        return this.sticky ? 1 : 0;
    }
  }
}

/** A value mantissa x 10^exponent; the mantissa is 0 or within [10^15, 10^16). */
export class RNumber {
  /** Use `of`, `parse` or the arithmetic; this takes an already normalised triple. */
  constructor(
    readonly negative: boolean,
    readonly mantissa: bigint,
    readonly exponent: number,
  ) {}

  static readonly ZERO = new RNumber(false, 0n, MIN_EXPONENT);

  /** An integer (drops, a fee in 1/100,000) or mantissa x 10^exponent, normalised in `mode`. */
  static of(value: bigint | number, exponent = 0, mode: RoundingMode = "to_nearest"): RNumber {
    const v = BigInt(value);
    return normalize(v < 0n, v < 0n ? -v : v, exponent, mode);
  }

  /** A ledger IOU value (rippled's STAmount text: "118500000", "11790.59", "1e-7"), exact. */
  static parse(text: string): RNumber {
    const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
    if (!m || (m[2] === "" && (m[3] ?? "") === "")) throw new RangeError(`not a number: "${text}"`);
    const [, sign, whole, frac = "", exp = "0"] = m;
    const digits = BigInt((whole || "0") + frac);
    return normalize(sign === "-", digits, Number(exp) - frac.length, "to_nearest");
  }

  isZero(): boolean {
    return this.mantissa === 0n;
  }

  signum(): number {
    return this.isZero() ? 0 : this.negative ? -1 : 1;
  }

  neg(): RNumber {
    return this.isZero() ? this : new RNumber(!this.negative, this.mantissa, this.exponent);
  }

  add(y: RNumber, mode: RoundingMode): RNumber {
    if (y.isZero()) return this;
    if (this.isZero()) return y;
    if (this.negative !== y.negative && this.mantissa === y.mantissa && this.exponent === y.exponent) return RNumber.ZERO;
    let [xn, xm, xe] = [this.negative, this.mantissa, this.exponent];
    let [yn, ym, ye] = [y.negative, y.mantissa, y.exponent];
    const g = new Guard();
    // Align exponents: the smaller operand's low digits go to the guard.
    if (xe < ye) {
      g.negative = xn;
      while (xe < ye) {
        g.push(xm % 10n);
        xm /= 10n;
        xe++;
      }
    } else if (xe > ye) {
      g.negative = yn;
      while (xe > ye) {
        g.push(ym % 10n);
        ym /= 10n;
        ye++;
      }
    }
    if (xn === yn) {
      xm += ym;
      if (xm > MAX_MANTISSA) {
        g.push(xm % 10n);
        xm /= 10n;
        xe++;
      }
      [xm, xe] = roundUp(g, xm, xe, mode);
    } else {
      if (xm > ym) xm -= ym;
      else {
        xm = ym - xm;
        xe = ye;
        xn = yn;
      }
      while (xm < MIN_MANTISSA && xm !== 0n) {
        xm = xm * 10n - g.pop();
        xe--;
      }
      [xm, xe] = roundDown(g, xm, xe, mode);
    }
    return normalize(xn, xm, xe, mode);
  }

  sub(y: RNumber, mode: RoundingMode): RNumber {
    return this.add(y.neg(), mode);
  }

  mul(y: RNumber, mode: RoundingMode): RNumber {
    if (this.isZero() || y.isZero()) return RNumber.ZERO;
    let zm = this.mantissa * y.mantissa;
    let ze = this.exponent + y.exponent;
    const zn = this.negative !== y.negative;
    const g = new Guard();
    g.negative = zn;
    while (zm > MAX_MANTISSA) {
      g.push(zm % 10n);
      zm /= 10n;
      ze++;
    }
    [zm, ze] = roundUp(g, zm, ze, mode);
    return normalize(zn, zm, ze, mode);
  }

  /** rippled's 16-digit division: the quotient of mantissa x 10^17 by the divisor, truncated, then rounded in `mode`. */
  div(y: RNumber, mode: RoundingMode): RNumber {
    if (y.isZero()) throw new RangeError("Number: divide by 0");
    if (this.isZero()) return RNumber.ZERO;
    const zm = (this.mantissa * 10n ** 17n) / y.mantissa;
    return normalize(this.negative !== y.negative, zm, this.exponent - y.exponent - 17, mode);
  }

  /** Whole units (drops), rounded in `mode` (rippled's `operator rep()`). */
  toInteger(mode: RoundingMode): bigint {
    if (this.isZero()) return 0n;
    let drops = this.mantissa;
    let offset = this.exponent;
    const g = new Guard();
    g.negative = this.negative;
    while (offset < 0) {
      g.push(drops % 10n);
      drops /= 10n;
      offset++;
    }
    for (; offset > 0; offset--) drops *= 10n;
    const r = g.round(mode);
    if (r === 1 || (r === 0 && drops % 2n === 1n)) drops++;
    return this.negative ? -drops : drops;
  }

  compare(y: RNumber): number {
    return this.sub(y, "to_nearest").signum();
  }

  /** Decimal text without exponent ("11790.5903271236"); exact. */
  toString(): string {
    if (this.isZero()) return "0";
    const sign = this.negative ? "-" : "";
    const raw = this.mantissa.toString();
    if (this.exponent >= 0) return sign + raw + "0".repeat(this.exponent);
    const padded = raw.padStart(-this.exponent + 1, "0");
    const at = padded.length + this.exponent;
    const frac = padded.slice(at).replace(/0+$/, "");
    return sign + padded.slice(0, at) + (frac ? `.${frac}` : "");
  }

  /** The value scaled by 10^scale, rounded towards zero (micro-units: scale 6). */
  scaledDown(scale: number): bigint {
    const e = this.exponent + scale;
    const magnitude = e >= 0 ? this.mantissa * 10n ** BigInt(e) : this.mantissa / 10n ** BigInt(-e);
    return this.negative ? -magnitude : magnitude;
  }
}

/**
 * rippled's rounding after an add or multiply: bump the magnitude when the guard says so. The
 * guard keeps the sign it was given (rippled's, including an add of equal exponents leaving it positive).
 */
function roundUp(g: Guard, m: bigint, e: number, mode: RoundingMode): [bigint, number] {
  const r = g.round(mode);
  if (r === 1 || (r === 0 && m % 2n === 1n)) {
    m++;
    if (m > MAX_MANTISSA) {
      m /= 10n;
      e++;
    }
  }
  return [m, e];
}

/** rippled's rounding after a subtraction: the guard holds the smaller operand's digits still to subtract, with its sign. */
function roundDown(g: Guard, m: bigint, e: number, mode: RoundingMode): [bigint, number] {
  const r = g.round(mode);
  if (r === 1 || (r === 0 && m % 2n === 1n)) {
    m--;
    if (m < MIN_MANTISSA && m !== 0n) {
      m *= 10n;
      e--;
    }
  }
  return [m, e];
}

/** rippled's normalize: scale into [10^15, 10^16), rounding dropped digits in `mode`. */
function normalize(negative: boolean, m: bigint, e: number, mode: RoundingMode): RNumber {
  if (m === 0n) return RNumber.ZERO;
  while (m < MIN_MANTISSA && e > MIN_EXPONENT) {
    m *= 10n;
    e--;
  }
  const g = new Guard();
  g.negative = negative;
  while (m > MAX_MANTISSA) {
    if (e >= MAX_EXPONENT) throw new RangeError("Number overflow");
    g.push(m % 10n);
    m /= 10n;
    e++;
  }
  if (e < MIN_EXPONENT || m < MIN_MANTISSA) return RNumber.ZERO;
  const r = g.round(mode);
  if (r === 1 || (r === 0 && m % 2n === 1n)) {
    m++;
    if (m > MAX_MANTISSA) {
      m /= 10n;
      e++;
    }
  }
  if (e > MAX_EXPONENT) throw new RangeError("Number overflow");
  return new RNumber(negative, m, e);
}
