import type { TerCode } from "../codes";
import { Rational } from "../iou";
import { valueOf } from "./book";
import { AMM_FLAGS, ammAssetOut, ammPreflight, lpHeld, lpTokensIn, poolState, round, settle, type PoolState } from "./ammLiquidity";
import type { TxContext, TxHandler } from "./context";

const ZERO = Rational.of(0);

/** Final checks of every withdrawal (rippled's AMMWithdraw::withdraw), then the transfers. */
function withdraw(ctx: TxContext, s: PoolState, amount1: Rational, amount2: Rational, tokens: Rational): TerCode {
  const held = lpHeld(ctx, s);
  if (tokens.compare(ZERO) <= 0 || tokens.compare(held) > 0) return "tecAMM_INVALID_TOKENS";
  const all = tokens.compare(s.lpBalance) >= 0;
  const takesSide1 = amount1.compare(s.balance1) >= 0;
  const takesSide2 = amount2.compare(s.balance2) >= 0;
  if (!all && (takesSide1 || takesSide2)) return "tecAMM_BALANCE"; // one side of the pool cannot be emptied alone
  if (amount1.compare(s.balance1) > 0 || amount2.compare(s.balance2) > 0) return "tecAMM_BALANCE";
  return settle(ctx, s, amount1, amount2, tokens, false);
}

/** Proportional withdrawal for `tokens` LP tokens (tfLPToken, tfWithdrawAll). */
function equalByTokens(ctx: TxContext, s: PoolState, tokens: Rational): TerCode {
  if (tokens.compare(s.lpBalance) >= 0) return withdraw(ctx, s, s.balance1, s.balance2, s.lpBalance);
  const frac = tokens.div(s.lpBalance);
  const a = round(s.issue1, s.balance1.mul(frac), "nearest");
  const b = round(s.issue2, s.balance2.mul(frac), "nearest");
  if (a.compare(ZERO) <= 0 || b.compare(ZERO) <= 0) return "tecAMM_FAILED";
  return withdraw(ctx, s, a, b, tokens);
}

/** Both assets up to Amount and Amount2, in the pool's proportion (equalWithdrawLimit). */
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
  }
  return withdraw(ctx, s, a, b, round(s.lpIssue, s.lpBalance.mul(frac), "nearest"));
}

/** One asset for LP tokens (equation 8): all the account's tokens, or LPTokenIn with Amount as a minimum. */
function singleByTokens(ctx: TxContext, s: PoolState, tokens: Rational): TerCode {
  const out = round(s.issue1, ammAssetOut(s.balance1, s.lpBalance, tokens, s.tfee), "nearest");
  const min = valueOf(ctx.tx.Amount);
  if (min.compare(ZERO) > 0 && out.compare(min) < 0) return "tecAMM_FAILED";
  return withdraw(ctx, s, out, ZERO, tokens);
}

/** Amount of one asset for the tokens equation 7 gives. */
function single(ctx: TxContext, s: PoolState): TerCode {
  const amount = valueOf(ctx.tx.Amount);
  if (amount.compare(s.balance1) >= 0) return "tecAMM_BALANCE";
  const tokens = round(s.lpIssue, lpTokensIn(s.balance1, amount, s.lpBalance, s.tfee), "nearest");
  if (tokens.compare(ZERO) <= 0) return "tecAMM_FAILED";
  return withdraw(ctx, s, amount, ZERO, tokens);
}

/** One asset with an effective price floor EPrice (LP tokens per asset): rippled's singleWithdrawEPrice. */
function singleByPrice(ctx: TxContext, s: PoolState): TerCode {
  const ePrice = valueOf(ctx.tx.EPrice);
  const f = new Rational(BigInt(s.tfee), 100_000n);
  const ae = s.balance1.mul(ePrice);
  const T = s.lpBalance;
  const tokens = round(s.lpIssue, T.mul(T.add(ae.mul(f.sub(Rational.of(2))))).div(T.mul(f).sub(ae)), "nearest");
  if (tokens.compare(ZERO) <= 0) return "tecAMM_FAILED";
  const out = round(s.issue1, tokens.div(ePrice), "nearest");
  const min = valueOf(ctx.tx.Amount);
  if (min.compare(ZERO) > 0 && out.compare(min) < 0) return "tecAMM_FAILED";
  return withdraw(ctx, s, out, ZERO, tokens);
}

export const ammWithdraw: TxHandler = {
  preflight(tx) {
    const bad = ammPreflight(tx, false);
    if (bad) return bad;
    const f = tx.Flags ?? 0;
    const has = (k: string) => tx[k] !== undefined;
    const ok =
      f & AMM_FLAGS.lpToken ? has("LPTokenIn") && !has("Amount") && !has("Amount2") && !has("EPrice")
      : f & AMM_FLAGS.withdrawAll ? !has("LPTokenIn") && !has("Amount") && !has("Amount2") && !has("EPrice")
      : f & (AMM_FLAGS.oneAssetWithdrawAll | AMM_FLAGS.singleAsset) ? has("Amount") && !has("LPTokenIn") && !has("Amount2") && !has("EPrice")
      : f & AMM_FLAGS.twoAsset ? has("Amount") && has("Amount2") && !has("LPTokenIn") && !has("EPrice")
      : f & AMM_FLAGS.oneAssetLPToken ? has("Amount") && has("LPTokenIn") && !has("Amount2") && !has("EPrice")
      : has("Amount") && has("EPrice") && !has("LPTokenIn") && !has("Amount2");
    return ok ? undefined : "temMALFORMED";
  },
  preclaim(ctx) {
    const s = poolState(ctx);
    return typeof s === "string" ? s : undefined;
  },
  apply(ctx) {
    const s = poolState(ctx);
    if (typeof s === "string") return "tecAMM_EMPTY";
    const f = ctx.tx.Flags ?? 0;
    const held = lpHeld(ctx, s);
    if (held.compare(ZERO) <= 0) return "tecAMM_BALANCE";
    const lpIn = ctx.tx.LPTokenIn;
    if (lpIn !== undefined && (lpIn.currency !== s.lpIssue.currency || lpIn.issuer !== s.lpIssue.issuer)) return "tecAMM_INVALID_TOKENS";
    if (lpIn !== undefined && valueOf(lpIn).compare(held) > 0) return "tecAMM_INVALID_TOKENS";
    if (f & AMM_FLAGS.lpToken) return equalByTokens(ctx, s, valueOf(lpIn));
    if (f & AMM_FLAGS.withdrawAll) return equalByTokens(ctx, s, held);
    if (f & AMM_FLAGS.oneAssetWithdrawAll) return singleByTokens(ctx, s, held);
    if (f & AMM_FLAGS.oneAssetLPToken) return singleByTokens(ctx, s, valueOf(lpIn));
    if (f & AMM_FLAGS.twoAsset) return equalLimit(ctx, s);
    if (f & AMM_FLAGS.limitLPToken) return singleByPrice(ctx, s);
    return single(ctx, s);
  },
};
