import { readXrp } from "../../engine/money";
import { unscaleDecimal, xrpFromDrops } from "../ledger/amounts";
import { ValidationError } from "../platform/errors";
import { FEE_SCALE, iouForXrp } from "./amm";
import { RNumber } from "./number";
import { IMPACT_REFUSED_PPM, IMPACT_WARNING_PPM, MAX_SWAP_DROPS, SLIPPAGE_PERCENT } from "./model";
import type { PoolSnapshot } from "./pool";

/** A quote for swapping `drops` of XRP into VVX through the pool, as the ledger would execute it now. */
export interface SwapQuote {
  drops: bigint;
  /** The ledger's result rounded down to micro-VVX: the Payment's Amount. */
  microVvx: bigint;
  /** The ledger's result as rippled computes it (16 significant digits). */
  exactVvx: string;
  /** DeliverMin: (100 - slippage)% of microVvx, rounded down. */
  minimumMicroVvx: bigint;
  /** Price impact in millionths (fee excluded), rounded up. */
  impactPpm: bigint;
  snapshot: PoolSnapshot;
}

/**
 * Parses the XRP amount of a quote or swap: a positive decimal with at most 6 decimals; 400
 * naming `field` otherwise. Returns drops.
 */
export function parseXrpAmount(value: unknown, field = "xrpAmount"): bigint {
  if (value === undefined || value === null || value === "") throw new ValidationError(field, `Field '${field}' is required: an XRP amount above 0`);
  if (typeof value !== "string" && typeof value !== "number") throw new ValidationError(field, `Field '${field}' must be an XRP amount written as a number`);
  const xrp = readXrp(value);
  if (!xrp || xrp.negative) throw new ValidationError(field, `Field '${field}' must be a positive XRP amount such as 10 or 2.5`);
  const { drops: scaled, exact } = xrp;
  if (!exact) throw new ValidationError(field, `Field '${field}' has more than 6 decimals (the smallest XRP unit is 0.000001)`);
  if (scaled <= 0n) throw new ValidationError(field, `Field '${field}' must be above 0`);
  if (scaled > MAX_SWAP_DROPS) throw new ValidationError(field, `Field '${field}' is above the XRP in existence`);
  return scaled;
}

/** Rounds `n / d` up to a whole number. */
function ceilDiv(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/** A non-negative value as an exact fraction n/d. */
function fraction(value: RNumber): { n: bigint; d: bigint } {
  return value.exponent >= 0 ? { n: value.mantissa * 10n ** BigInt(value.exponent), d: 1n } : { n: value.mantissa, d: 10n ** BigInt(-value.exponent) };
}

/** What every quote against one snapshot shares, worked out once per snapshot (once per ledger close). */
interface SnapshotFacts {
  poolVvx: { n: bigint; d: bigint };
  view: {
    spotRate: string;
    networkFee: string;
    networkFeeDrops: string;
    poolXrp: string;
    poolVvx: string;
    tradingFee: string;
    tradingFeeUnits: number;
    ledgerIndex: number;
  };
}
const factsBySnapshot = new WeakMap<PoolSnapshot, SnapshotFacts>();

function snapshotFacts(snapshot: PoolSnapshot): SnapshotFacts {
  let facts = factsBySnapshot.get(snapshot);
  if (facts) return facts;
  const { pool } = snapshot;
  const poolVvx = fraction(RNumber.parse(pool.iou));
  const spotMicro = (poolVvx.n * 1_000_000n * 1_000_000n) / (poolVvx.d * pool.drops);
  facts = {
    poolVvx,
    view: {
      spotRate: unscaleDecimal(spotMicro, 6),
      networkFee: xrpFromDrops(snapshot.feeDrops),
      networkFeeDrops: snapshot.feeDrops.toString(),
      poolXrp: xrpFromDrops(pool.drops),
      poolVvx: pool.iou,
      tradingFee: unscaleDecimal(BigInt(pool.tradingFee), 3),
      tradingFeeUnits: pool.tradingFee,
      ledgerIndex: snapshot.ledgerIndex,
    },
  };
  factsBySnapshot.set(snapshot, facts);
  return facts;
}

/** The quote for `drops` against `snapshot` (pure: the same inputs give the same quote). */
export function quoteFor(snapshot: PoolSnapshot, drops: bigint): SwapQuote {
  const { pool } = snapshot;
  const out = iouForXrp(pool, drops);
  const microVvx = out.scaledDown(6);
  // Spot output (fee applied, no price move): net * poolVvx / poolDrops; impact = 1 - out / spot.
  const y = snapshotFacts(snapshot).poolVvx;
  const o = fraction(out);
  const net = drops * BigInt(FEE_SCALE - pool.tradingFee);
  // spot = net * y.n / (FEE_SCALE * y.d * poolDrops); out = o.n / o.d
  const spotN = net * y.n * o.d;
  const outN = o.n * BigInt(FEE_SCALE) * y.d * pool.drops;
  const impactPpm = spotN > outN ? ceilDiv((spotN - outN) * 1_000_000n, spotN) : 0n;
  return {
    drops,
    microVvx,
    exactVvx: out.toString(),
    minimumMicroVvx: (microVvx * BigInt(100 - SLIPPAGE_PERCENT)) / 100n,
    impactPpm,
    snapshot,
  };
}

/** Millionths as a percent with 2 decimals ("0.01"), rounded up so a warning is never understated. */
export function percentFromPpm(ppm: bigint): string {
  return unscaleDecimalFixed(ceilDiv(ppm, 100n), 2);
}

function unscaleDecimalFixed(units: bigint, decimals: number): string {
  const text = units.toString().padStart(decimals + 1, "0");
  return `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
}

/** VVX per XRP with 6 decimals (rounded down) for `microVvx` bought with `drops`. */
export function rateText(microVvx: bigint, drops: bigint): string {
  return drops > 0n ? unscaleDecimal((microVvx * 1_000_000n) / drops, 6) : "0";
}

/** The quote as the API returns it (the spec's quote fields and the pool behind them). */
export function quoteView(q: SwapQuote) {
  const { view } = snapshotFacts(q.snapshot);
  return {
    success: true as const,
    xrpAmount: xrpFromDrops(q.drops),
    drops: q.drops.toString(),
    vvxAmount: unscaleDecimal(q.microVvx, 6),
    microVvx: q.microVvx.toString(),
    exactVvx: q.exactVvx,
    exchangeRate: rateText(q.microVvx, q.drops),
    spotRate: view.spotRate,
    networkFee: view.networkFee,
    networkFeeDrops: view.networkFeeDrops,
    priceImpact: percentFromPpm(q.impactPpm),
    priceImpactWarning: q.impactPpm > BigInt(IMPACT_WARNING_PPM),
    priceImpactTooHigh: q.impactPpm > BigInt(IMPACT_REFUSED_PPM),
    minimumReceived: unscaleDecimal(q.minimumMicroVvx, 6),
    slippagePercent: SLIPPAGE_PERCENT,
    poolXrp: view.poolXrp,
    poolVvx: view.poolVvx,
    tradingFee: view.tradingFee,
    tradingFeeUnits: view.tradingFeeUnits,
    ledgerIndex: view.ledgerIndex,
  };
}
