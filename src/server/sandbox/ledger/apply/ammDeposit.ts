import type { TerCode } from "../codes";
import { Rational } from "../iou";
import { sqrt as sqrtOf, valueOf } from "./book";
import { AMM_FLAGS, ammAssetIn, ammPreflight, lpTokensOut, poolState, round, settle, type PoolState } from "./ammLiquidity";
import type { TxContext, TxHandler } from "./context";

const ZERO = Rational.of(0);

function lpRound(s: PoolState, value: Rational): Rational {
  return round(s.lpIssue, value, "nearest");
}

/** Proportional deposit for LPTokenOut tokens; Amount/Amount2 are minimums. */
function equalByTokens(ctx: TxContext, s: PoolState): TerCode {
  const tokens = lpRound(s, valueOf(ctx.tx.LPTokenOut));
  const frac = tokens.div(s.lpBalance);
  const a = round(s.issue1, s.balance1.mul(frac), "nearest");
  const b = round(s.issue2, s.balance2.mul(frac), "nearest");
  if (ctx.tx.Amount !== undefined && a.compare(valueOf(ctx.tx.Amount)) < 0) return "tecAMM_FAILED";
  if (ctx.tx.Amount2 !== undefined && b.compare(valueOf(ctx.tx.Amount2)) < 0) return "tecAMM_FAILED";
  return settle(ctx, s, a, b, tokens, true);
}

/** Both assets up to Amount and Amount2, in the pool's proportion (equalDepositLimit). */
function equalLimit(ctx: TxContext, s: PoolState): TerCode {
  const amount = valueOf(ctx.tx.Amount);
  const amount2 = valueOf(ctx.tx.Amount2);
  let frac = amount.div(s.balance1);
  let a = amount;
  let b = round(s.issue2, s.balance2.mul(frac), "nearest");
  if (b.compare(amount2) > 0) {
    frac = amount2.div(s.balance2);
    b = amount2;
    a = round(s.issue1, s.balance1.mul(frac), "nearest");
    if (a.compare(amount) > 0) return "tecAMM_FAILED";
  }
  const tokens = lpRound(s, s.lpBalance.mul(frac));
  if (tokens.compare(ZERO) <= 0) return "tecAMM_FAILED";
  if (ctx.tx.LPTokenOut !== undefined && tokens.compare(valueOf(ctx.tx.LPTokenOut)) < 0) return "tecAMM_FAILED";
  return settle(ctx, s, a, b, tokens, true);
}

/** One asset, Amount of it, for the tokens equation 3 gives (LPTokenOut is a minimum). */
function single(ctx: TxContext, s: PoolState): TerCode {
  const amount = valueOf(ctx.tx.Amount);
  const tokens = lpRound(s, lpTokensOut(s.balance1, amount, s.lpBalance, s.tfee));
  if (tokens.compare(ZERO) <= 0) return "tecAMM_FAILED";
  if (ctx.tx.LPTokenOut !== undefined && tokens.compare(valueOf(ctx.tx.LPTokenOut)) < 0) return "tecAMM_FAILED";
  return settle(ctx, s, amount, ZERO, tokens, true);
}

/** One asset for exactly LPTokenOut tokens (equation 4), at most Amount of it. */
function singleByTokens(ctx: TxContext, s: PoolState): TerCode {
  const tokens = lpRound(s, valueOf(ctx.tx.LPTokenOut));
  const amount = round(s.issue1, ammAssetIn(s.balance1, s.lpBalance, tokens, s.tfee), "nearest");
  if (amount.compare(valueOf(ctx.tx.Amount)) > 0) return "tecAMM_FAILED";
  return settle(ctx, s, amount, ZERO, tokens, true);
}

/** One asset with an effective price cap EPrice (asset per LP token), up to Amount when it is not zero. */
function singleByPrice(ctx: TxContext, s: PoolState): TerCode {
  const amount = valueOf(ctx.tx.Amount);
  const ePrice = valueOf(ctx.tx.EPrice);
  if (amount.compare(ZERO) > 0) {
    const tokens = lpRound(s, lpTokensOut(s.balance1, amount, s.lpBalance, s.tfee));
    if (tokens.compare(ZERO) <= 0) return "tecAMM_FAILED";
    if (amount.div(tokens).compare(ePrice) <= 0) return settle(ctx, s, amount, ZERO, tokens, true);
  }
  // rippled's singleDepositEPrice: solve equation 3 with b/t = EPrice for b.
  const f1 = Rational.of(1).sub(new Rational(BigInt(s.tfee), 100_000n));
  const f2 = Rational.of(1).sub(new Rational(BigInt(s.tfee), 200_000n)).div(f1);
  const c = f1.mul(s.balance1).div(ePrice.mul(s.lpBalance));
  const d = f1.add(c.mul(f2)).sub(c);
  const a1 = c.mul(c);
  const b1 = c.mul(c).mul(f2).mul(f2).add(Rational.of(2).mul(c)).sub(d.mul(d));
  const c1 = Rational.of(2).mul(c).mul(f2).mul(f2).add(Rational.of(1)).sub(Rational.of(2).mul(d).mul(f2));
  const r = b1.mul(Rational.of(-1)).add(sqrtOf(b1.mul(b1).add(Rational.of(4).mul(a1).mul(c1)))).div(Rational.of(2).mul(a1));
  const deposit = round(s.issue1, f1.mul(s.balance1).mul(r), "nearest");
  if (deposit.compare(ZERO) <= 0) return "tecAMM_FAILED";
  const tokens = lpRound(s, deposit.div(ePrice));
  if (tokens.compare(ZERO) <= 0) return "tecAMM_FAILED";
  return settle(ctx, s, deposit, ZERO, tokens, true);
}


export const ammDeposit: TxHandler = {
  preflight(tx) {
    const bad = ammPreflight(tx, true);
    if (bad) return bad;
    const f = tx.Flags ?? 0;
    const has = (k: string) => tx[k] !== undefined;
    const ok =
      f & AMM_FLAGS.lpToken ? has("LPTokenOut") && !has("EPrice") && has("Amount") === has("Amount2") && !has("TradingFee")
      : f & AMM_FLAGS.singleAsset ? has("Amount") && !has("Amount2") && !has("EPrice") && !has("TradingFee")
      : f & AMM_FLAGS.twoAsset ? has("Amount") && has("Amount2") && !has("EPrice") && !has("TradingFee")
      : f & AMM_FLAGS.oneAssetLPToken ? has("Amount") && has("LPTokenOut") && !has("Amount2") && !has("EPrice") && !has("TradingFee")
      : f & AMM_FLAGS.limitLPToken ? has("Amount") && has("EPrice") && !has("LPTokenOut") && !has("Amount2") && !has("TradingFee")
      : has("Amount") && has("Amount2") && !has("EPrice") && !has("LPTokenOut");
    return ok ? undefined : "temMALFORMED";
  },
  preclaim(ctx) {
    const s = poolState(ctx);
    return typeof s === "string" ? s : undefined;
  },
  apply(ctx) {
    const s = poolState(ctx);
    if (typeof s === "string") return "tecAMM_EMPTY"; // preclaim found the pool; nothing in between removes it
    const f = ctx.tx.Flags ?? 0;
    // The sandbox deletes an AMM whose last LP leaves, so a pool that exists is never empty.
    if (f & AMM_FLAGS.twoAssetIfEmpty) return "tecAMM_NOT_EMPTY";
    if (ctx.tx.LPTokenOut !== undefined && (ctx.tx.LPTokenOut.currency !== s.lpIssue.currency || ctx.tx.LPTokenOut.issuer !== s.lpIssue.issuer)) return "tecAMM_INVALID_TOKENS";
    if (f & AMM_FLAGS.lpToken) return equalByTokens(ctx, s);
    if (f & AMM_FLAGS.twoAsset) return equalLimit(ctx, s);
    if (f & AMM_FLAGS.oneAssetLPToken) return singleByTokens(ctx, s);
    if (f & AMM_FLAGS.limitLPToken) return singleByPrice(ctx, s);
    return single(ctx, s);
  },
};
