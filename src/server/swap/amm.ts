import { RNumber } from "./number";

/**
 * rippled's AMM swap formulas (AMMHelpers.h, swapAssetIn / swapAssetOut with fixAMMv1_1):
 * constant product with the pool's trading fee, each step rounded in the pool's favour in
 * rippled's 16-digit Number. A single-path payment through the pool delivers exactly this
 * (AMMOffer::limitIn / limitOut use these functions when the pool is the only liquidity).
 */

/** Trading fees are in 1/100,000 (rippled's AUCTION_SLOT_FEE_SCALE_FACTOR): 500 = 0.5%. */
export const FEE_SCALE = 100_000;
/** rippled's largest trading fee (1%). */
export const MAX_TRADING_FEE = 1000;

/** One side of a pool or swap: XRP in drops (whole numbers) or an IOU value. */
export interface Side {
  value: RNumber;
  /** XRP amounts are whole drops; the result on this side is rounded to drops. */
  isXrp: boolean;
}

function fee(tradingFee: number): RNumber {
  if (!Number.isInteger(tradingFee) || tradingFee < 0 || tradingFee > MAX_TRADING_FEE) throw new RangeError(`trading fee out of range: ${tradingFee}`);
  return RNumber.of(tradingFee, 0, "upward").div(RNumber.of(FEE_SCALE), "upward");
}

const ONE = RNumber.of(1);

/** What the pool pays out for `assetIn` (swapAssetIn): rounded down, an XRP result to whole drops. */
export function swapAssetIn(poolIn: RNumber, poolOut: Side, assetIn: RNumber, tradingFee: number): RNumber {
  const numerator = poolIn.mul(poolOut.value, "upward");
  const f = fee(tradingFee);
  const denom = poolIn.add(assetIn.mul(ONE.sub(f, "downward"), "downward"), "downward");
  if (denom.signum() <= 0) return RNumber.ZERO;
  const ratio = numerator.div(denom, "upward");
  const out = poolOut.value.sub(ratio, "downward");
  if (out.signum() < 0) return RNumber.ZERO;
  return poolOut.isXrp ? RNumber.of(out.toInteger("downward")) : out;
}

/** What the pool takes in to pay `assetOut` (swapAssetOut): rounded up, an XRP cost to whole drops; null when the pool cannot pay it. */
export function swapAssetOut(poolIn: Side, poolOut: RNumber, assetOut: RNumber, tradingFee: number): RNumber | null {
  const numerator = poolIn.value.mul(poolOut, "upward");
  const denom = poolOut.sub(assetOut, "downward");
  if (denom.signum() <= 0) return null;
  const ratio = numerator.div(denom, "upward");
  const numerator2 = ratio.sub(poolIn.value, "upward");
  const feeMult = ONE.sub(fee(tradingFee), "downward");
  const needed = numerator2.div(feeMult, "upward");
  if (needed.signum() < 0) return RNumber.ZERO;
  return poolIn.isXrp ? RNumber.of(needed.toInteger("upward")) : needed;
}

/** An XRP/IOU pool as amm_info reports it. */
export interface XrpPool {
  drops: bigint;
  /** The pool's IOU balance as the ledger writes it ("118500000"). */
  iou: string;
  /** In 1/100,000. */
  tradingFee: number;
}

/** IOU out for `drops` in: the ledger's own result of an XRP -> IOU swap of `drops` through `pool`. */
export function iouForXrp(pool: XrpPool, drops: bigint): RNumber {
  return swapAssetIn(RNumber.of(pool.drops), { value: RNumber.parse(pool.iou), isXrp: false }, RNumber.of(drops), pool.tradingFee);
}

/** Drops in needed for `iou` out (null when the pool holds less). */
export function xrpForIou(pool: XrpPool, iou: RNumber): bigint | null {
  const needed = swapAssetOut({ value: RNumber.of(pool.drops), isXrp: true }, RNumber.parse(pool.iou), iou, pool.tradingFee);
  return needed === null ? null : needed.scaledDown(0);
}
