/**
 * Exact decimal arithmetic for issued-currency (IOU) values, kept the way
 * rippled's STAmount keeps them: a 16-digit mantissa and a power-of-ten
 * exponent, so balances round exactly where rippled's would (never floats).
 */

const MIN_MANTISSA = 10n ** 15n;
const MAX_MANTISSA = 10n ** 16n - 1n;
const MIN_EXPONENT = -96;
const MAX_EXPONENT = 80;

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

function digits(n: bigint): number {
  return (n < 0n ? -n : n).toString().length;
}

/** Towards zero, away from zero, or to the nearest (rippled Number's default mode). */
export type Rounding = "down" | "up" | "nearest";

/** An IOU value: mantissa x 10^exponent, normalised; zero is (0, -100) as in rippled. */
export class Iou {
  private constructor(
    readonly mantissa: bigint,
    readonly exponent: number,
  ) {}

  static readonly ZERO = new Iou(0n, -100);

  /** Normalises any (mantissa, exponent) to 16 digits, rounding towards zero or away from it. */
  static of(mantissa: bigint, exponent: number, rounding: Rounding = "down"): Iou {
    if (mantissa === 0n) return Iou.ZERO;
    const negative = mantissa < 0n;
    let m = negative ? -mantissa : mantissa;
    let e = exponent;
    while (m < MIN_MANTISSA) {
      m *= 10n;
      e -= 1;
    }
    if (m > MAX_MANTISSA) {
      const drop = digits(m) - 16;
      const div = pow10(drop);
      const rest = m % div;
      m /= div;
      e += drop;
      // Rounding "up" means away from zero in magnitude, which is what a cost rounded against the payer needs.
      if (rounding === "up" && rest !== 0n) m += 1n;
      if (rounding === "nearest" && rest * 2n >= div) m += 1n;
      if (m > MAX_MANTISSA) {
        m /= 10n;
        e += 1;
      }
    }
    if (e < MIN_EXPONENT) return Iou.ZERO; // underflow: rippled rounds tiny values to zero
    if (e > MAX_EXPONENT) throw new RangeError("IOU value overflow");
    return new Iou(negative ? -m : m, e);
  }

  /** Parses rippled's textual forms ("12.5", "-3", "1185e-3", "1.5E10"); throws on anything else. */
  static parse(text: string): Iou {
    const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
    if (!match || (match[2] === "" && (match[3] ?? "") === "")) throw new Error(`Invalid IOU value "${text}"`);
    const [, sign, int, frac = "", exp = "0"] = match;
    const m = BigInt((int || "0") + frac) * (sign === "-" ? -1n : 1n);
    // Accept more than 16 digits as rippled does, truncating to the mantissa's precision.
    return Iou.of(m, Number(exp) - frac.length);
  }

  isZero(): boolean {
    return this.mantissa === 0n;
  }
  isNegative(): boolean {
    return this.mantissa < 0n;
  }
  signum(): number {
    return this.mantissa === 0n ? 0 : this.mantissa < 0n ? -1 : 1;
  }
  negate(): Iou {
    return this.isZero() ? this : new Iou(-this.mantissa, this.exponent);
  }
  abs(): Iou {
    return this.isNegative() ? this.negate() : this;
  }

  add(other: Iou): Iou {
    if (this.isZero()) return other;
    if (other.isZero()) return this;
    const e = Math.min(this.exponent, other.exponent);
    const a = this.mantissa * pow10(this.exponent - e);
    const b = other.mantissa * pow10(other.exponent - e);
    return Iou.of(a + b, e);
  }
  sub(other: Iou): Iou {
    return this.add(other.negate());
  }
  compare(other: Iou): number {
    return this.sub(other).signum();
  }
  lt(other: Iou): boolean {
    return this.compare(other) < 0;
  }
  gt(other: Iou): boolean {
    return this.compare(other) > 0;
  }
  min(other: Iou): Iou {
    return this.compare(other) <= 0 ? this : other;
  }

  /** The exact value as a rational, for AMM and fee arithmetic. */
  toRational(): Rational {
    return this.exponent >= 0
      ? new Rational(this.mantissa * pow10(this.exponent), 1n)
      : new Rational(this.mantissa, pow10(-this.exponent));
  }

  /** rippled's STAmount::getText: plain decimals, scientific outside exponents -25..-5. */
  toString(): string {
    if (this.isZero()) return "0";
    const negative = this.mantissa < 0n;
    const raw = (negative ? -this.mantissa : this.mantissa).toString();
    const sign = negative ? "-" : "";
    if (this.exponent !== 0 && (this.exponent < -25 || this.exponent > -5)) return `${sign}${raw}e${this.exponent}`;
    if (this.exponent === 0) return sign + raw;
    const pointAt = raw.length + this.exponent;
    const padded = pointAt <= 0 ? "0".repeat(1 - pointAt) + raw : raw;
    const at = padded.length + this.exponent;
    const intPart = padded.slice(0, at) || "0";
    const fracPart = padded.slice(at).replace(/0+$/, "");
    return sign + (fracPart ? `${intPart}.${fracPart}` : intPart);
  }
}

/** An exact fraction; only used inside a calculation, then rounded once to drops or to an Iou. */
export class Rational {
  readonly n: bigint;
  readonly d: bigint;
  constructor(n: bigint, d: bigint) {
    if (d === 0n) throw new RangeError("division by zero");
    if (d < 0n) {
      n = -n;
      d = -d;
    }
    this.n = n;
    this.d = d;
  }
  static of(n: bigint | number): Rational {
    return new Rational(BigInt(n), 1n);
  }
  add(o: Rational): Rational {
    return new Rational(this.n * o.d + o.n * this.d, this.d * o.d);
  }
  sub(o: Rational): Rational {
    return new Rational(this.n * o.d - o.n * this.d, this.d * o.d);
  }
  mul(o: Rational): Rational {
    return new Rational(this.n * o.n, this.d * o.d);
  }
  div(o: Rational): Rational {
    return new Rational(this.n * o.d, this.d * o.n);
  }
  compare(o: Rational): number {
    const diff = this.n * o.d - o.n * this.d;
    return diff === 0n ? 0 : diff < 0n ? -1 : 1;
  }
  /** Whole units (drops), rounded down or up. */
  toInteger(rounding: Rounding): bigint {
    const q = this.n / this.d;
    const exact = q * this.d === this.n;
    if (exact) return q;
    if (rounding === "nearest") {
      const twice = 2n * (this.n - q * this.d);
      const abs = twice < 0n ? -twice : twice;
      return abs >= this.d ? (this.n >= 0n ? q + 1n : q - 1n) : q;
    }
    if (this.n >= 0n) return rounding === "up" ? q + 1n : q;
    return rounding === "up" ? q - 1n : q;
  }
  /** A 16-digit Iou, rounded down or up in magnitude. */
  toIou(rounding: Rounding): Iou {
    if (this.n === 0n) return Iou.ZERO;
    const negative = this.n < 0n;
    const n = negative ? -this.n : this.n;
    // Scale so the integer quotient has at least 17 digits, then let Iou.of round the excess.
    let e = digits(n) - digits(this.d) - 18;
    const scaledN = e < 0 ? n * pow10(-e) : n;
    const scaledD = e > 0 ? this.d * pow10(e) : this.d;
    let q = scaledN / scaledD;
    const exact = q * scaledD === scaledN;
    // Keep an inexact remainder visible to the final rounding by appending a non-zero digit.
    if (!exact) {
      q = q * 10n + 1n;
      e -= 1;
    }
    const iou = Iou.of(q, e, rounding);
    return negative ? iou.negate() : iou;
  }
}
