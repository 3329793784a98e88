import type { TerCode } from "../codes";
import { Rational } from "../iou";
import { accountKey, ammKey } from "../keys";
import type { Entry } from "../view";
import { readPool, type Pool } from "./amm";
import { fundsOf, isFrozenFor, issueOf, move, round, sqrt, valueOf, type Issue } from "./book";
import { lineBalance, parseAmount, readLine } from "./common";
import { hasOnlyFlags, type TxContext } from "./context";

/** AMMDeposit / AMMWithdraw sub-transaction flags (rippled's TxFlags.h). */
export const AMM_FLAGS = {
  lpToken: 0x00010000,
  withdrawAll: 0x00020000,
  oneAssetWithdrawAll: 0x00040000,
  singleAsset: 0x00080000,
  twoAsset: 0x00100000,
  oneAssetLPToken: 0x00200000,
  limitLPToken: 0x00400000,
  twoAssetIfEmpty: 0x00800000,
} as const;
const DEPOSIT_MASK = AMM_FLAGS.lpToken | AMM_FLAGS.singleAsset | AMM_FLAGS.twoAsset | AMM_FLAGS.oneAssetLPToken | AMM_FLAGS.limitLPToken | AMM_FLAGS.twoAssetIfEmpty;
const WITHDRAW_MASK = AMM_FLAGS.lpToken | AMM_FLAGS.withdrawAll | AMM_FLAGS.oneAssetWithdrawAll | AMM_FLAGS.singleAsset | AMM_FLAGS.twoAsset | AMM_FLAGS.oneAssetLPToken | AMM_FLAGS.limitLPToken;
const ZERO = Rational.of(0);
const ONE = Rational.of(1);
const FEE_UNIT = 100_000n;

/** The pool as deposit and withdraw see it: the asset named by Amount first. */
export interface PoolState {
  pool: Pool;
  amm: Entry;
  /** The asset the request names first (Amount's, or Asset's) and the other one. */
  issue1: Issue;
  issue2: Issue;
  balance1: Rational;
  balance2: Rational;
  lpIssue: Issue;
  lpBalance: Rational;
  tfee: number;
}

const fee = (tfee: number) => new Rational(BigInt(tfee), FEE_UNIT);
const feeMult = (tfee: number) => ONE.sub(fee(tfee));
const feeMultHalf = (tfee: number) => ONE.sub(new Rational(BigInt(tfee), 2n * FEE_UNIT));

/** Equation 3: LP tokens for a single-asset deposit b into balance B. */
export function lpTokensOut(B: Rational, b: Rational, T: Rational, tfee: number): Rational {
  const f1 = feeMult(tfee);
  const f2 = feeMultHalf(tfee).div(f1);
  const r = b.div(B);
  const c = sqrt(f2.mul(f2).add(r.div(f1))).sub(f2);
  return T.mul(r.sub(c)).div(ONE.add(c));
}

/** Equation 4: the single asset to deposit into balance B for t LP tokens. */
export function ammAssetIn(B: Rational, T: Rational, t: Rational, tfee: number): Rational {
  const f1 = feeMult(tfee);
  const f2 = feeMultHalf(tfee).div(f1);
  const t1 = t.div(T);
  const t2 = ONE.add(t1);
  const d = f2.sub(t1.div(t2));
  const a = ONE.div(t2.mul(t2));
  const b = Rational.of(2).mul(d).div(t2).sub(ONE.div(f1));
  const c = d.mul(d).sub(f2.mul(f2));
  const frac = b.mul(Rational.of(-1)).add(sqrt(b.mul(b).sub(Rational.of(4).mul(a).mul(c)))).div(Rational.of(2).mul(a));
  return B.mul(frac);
}

/** Equation 7: LP tokens to redeem for a single-asset withdrawal a from balance A. */
export function lpTokensIn(A: Rational, a: Rational, T: Rational, tfee: number): Rational {
  const fr = a.div(A);
  const f = fee(tfee);
  const c = fr.mul(f).add(Rational.of(2)).sub(f);
  return T.mul(c.sub(sqrt(c.mul(c).sub(Rational.of(4).mul(fr))))).div(Rational.of(2));
}

/** Equation 8: the single asset withdrawn from balance A for t LP tokens. */
export function ammAssetOut(A: Rational, T: Rational, t: Rational, tfee: number): Rational {
  const f = fee(tfee);
  const t1 = t.div(T);
  return A.mul(t1.mul(t1).sub(t1.mul(Rational.of(2).sub(f)))).div(t1.mul(f).sub(ONE));
}

/** The trading fee this account pays: the auction slot holder's discounted fee while the slot lasts. */
function tradingFeeFor(amm: Entry, account: string, now: number): number {
  const slot = amm.AuctionSlot;
  if (slot && slot.Account === account && slot.Expiration > now) return slot.DiscountedFee ?? 0;
  return amm.TradingFee ?? 0;
}

/** Reads the pool named by Asset/Asset2, ordered by the transaction's Amount (when it names the second asset). */
export function poolState(ctx: TxContext): PoolState | TerCode {
  const a = issueOf(ctx.tx.Asset);
  const b = issueOf(ctx.tx.Asset2);
  if ((a.currency === "XRP") === (b.currency === "XRP")) return "terNO_AMM";
  const iou = (a.currency === "XRP" ? b : a) as { currency: string; issuer: string };
  const pool = readPool(ctx.view, iou.currency, iou.issuer);
  const amm = ctx.view.read(ammKey(a, b));
  if (!pool || !amm) return "terNO_AMM";
  const xrpFirst = ctx.tx.Amount === undefined ? a.currency === "XRP" : typeof ctx.tx.Amount === "string";
  const xrpSide = { issue: { currency: "XRP" } as Issue, balance: Rational.of(pool.xrp) };
  const iouSide = { issue: iou as Issue, balance: pool.iou.toRational() };
  const [first, second] = xrpFirst ? [xrpSide, iouSide] : [iouSide, xrpSide];
  const lp = amm.LPTokenBalance;
  return {
    pool,
    amm,
    issue1: first.issue,
    issue2: second.issue,
    balance1: first.balance,
    balance2: second.balance,
    lpIssue: { currency: lp.currency, issuer: lp.issuer },
    lpBalance: valueOf(lp),
    tfee: tradingFeeFor(amm, ctx.account, ctx.parentCloseTime),
  };
}

/** LP tokens an account holds in this pool. */
export function lpHeld(ctx: TxContext, s: PoolState): Rational {
  const line = readLine(ctx.view, ctx.account, s.lpIssue.issuer!, s.lpIssue.currency);
  return line ? lineBalance(line, ctx.account).toRational() : ZERO;
}

/** Checks the flags and fields of a deposit or withdrawal (rippled's preflight), returning the sub-transaction flag. */
export function ammPreflight(tx: Record<string, any>, deposit: boolean): TerCode | undefined {
  const mask = deposit ? DEPOSIT_MASK : WITHDRAW_MASK;
  if (!hasOnlyFlags(tx, mask)) return "temINVALID_FLAG";
  const sub = (tx.Flags ?? 0) & mask;
  if (sub === 0 || (sub & (sub - 1)) !== 0) return "temMALFORMED";
  const a = issueOf(tx.Asset);
  const b = issueOf(tx.Asset2);
  if (!tx.Asset || !tx.Asset2 || (a.currency === b.currency && a.issuer === b.issuer)) return "temBAD_AMM_TOKENS";
  for (const field of ["Amount", "Amount2", "EPrice", deposit ? "LPTokenOut" : "LPTokenIn"]) {
    if (tx[field] === undefined) continue;
    const parsed = parseAmount(tx[field]);
    if (!parsed) return "temBAD_AMOUNT";
    const value = valueOf(tx[field]);
    if (value.compare(ZERO) < 0 || (value.compare(ZERO) === 0 && !(field === "Amount" && sub & (AMM_FLAGS.oneAssetLPToken | AMM_FLAGS.limitLPToken | AMM_FLAGS.oneAssetWithdrawAll)))) {
      return field.startsWith("LPToken") ? "temBAD_AMM_TOKENS" : "temBAD_AMOUNT";
    }
  }
  if (tx.Amount !== undefined && tx.Amount2 !== undefined) {
    const x = issueOf(tx.Amount);
    const y = issueOf(tx.Amount2);
    if (x.currency === y.currency && x.issuer === y.issuer) return "temBAD_AMM_TOKENS";
  }
  return undefined;
}

/**
 * adjustLPTokens: the tokens the pool's LP balance really moves by at 16
 * significant digits (rounded down), as rippled computes before fixAMMv1_3.
 */
export function adjustLPTokens(T: Rational, t: Rational, deposit: boolean): Rational {
  if (deposit) return T.add(t).toIou("down").toRational().sub(T).toIou("down").toRational();
  return t.sub(T).toIou("up").toRational().add(T).toIou("down").toRational();
}

/** adjustAmountsByLPTokens (fixAMMv1_1 rounding): when the balance absorbs fewer tokens, the assets shrink to match. */
function adjustAmounts(s: PoolState, amount1: Rational, amount2: Rational, tokens: Rational, deposit: boolean, single: boolean): [Rational, Rational, Rational] {
  const actual = adjustLPTokens(s.lpBalance, tokens, deposit);
  if (actual.compare(ZERO) <= 0) return [ZERO, ZERO, ZERO];
  if (actual.compare(tokens) >= 0) return [amount1, amount2, tokens];
  if (!single) {
    const fr = actual.div(tokens);
    return [round(s.issue1, amount1.mul(fr), "nearest"), round(s.issue2, amount2.mul(fr), "nearest"), actual];
  }
  const a = deposit ? ammAssetIn(s.balance1, s.lpBalance, actual, s.tfee) : ammAssetOut(s.balance1, s.lpBalance, actual, s.tfee);
  return [round(s.issue1, a, "nearest"), ZERO, actual];
}

/** Moves the assets and LP tokens of a deposit (positive) or withdrawal, then the pool's LPTokenBalance. */
export function settle(ctx: TxContext, s: PoolState, rawAmount1: Rational, rawAmount2: Rational, rawTokens: Rational, deposit: boolean): TerCode {
  const single = rawAmount2.compare(ZERO) === 0;
  const [amount1, amount2, tokens] = adjustAmounts(s, rawAmount1, rawAmount2, rawTokens, deposit, single);
  if (tokens.compare(ZERO) <= 0) return "tecAMM_INVALID_TOKENS";
  const pool = s.pool.account;
  const lp = ctx.account;
  for (const [issue, value] of [[s.issue1, amount1], [s.issue2, amount2]] as const) {
    if (value.compare(ZERO) <= 0) continue;
    if (deposit) {
      if (isFrozenFor(ctx.view, lp, issue)) return "tecFROZEN";
      const funds = fundsOf(ctx.view, lp, issue);
      if (funds !== "unlimited" && funds.compare(value) < 0) return "tecUNFUNDED_AMM";
      move(ctx.view, lp, pool, issue, value);
    } else move(ctx.view, pool, lp, issue, value);
  }
  if (deposit) move(ctx.view, pool, lp, s.lpIssue, tokens);
  else move(ctx.view, lp, pool, s.lpIssue, tokens);
  const balance = deposit ? s.lpBalance.add(tokens) : s.lpBalance.sub(tokens);
  const amm = ctx.view.read(s.amm.index)!;
  amm.LPTokenBalance = { ...amm.LPTokenBalance, value: balance.toIou("down").toString() };
  if (balance.compare(ZERO) <= 0) deleteEmptyPool(ctx, s);
  else ctx.view.update(amm);
  return "tesSUCCESS";
}

/** The last LP left: the AMM, its account and its (now empty) trust lines go, as rippled's deleteAMMAccount does. */
function deleteEmptyPool(ctx: TxContext, s: PoolState): void {
  const iou = (s.issue1.currency === "XRP" ? s.issue2 : s.issue1) as { currency: string; issuer: string };
  const line = readLine(ctx.view, s.pool.account, iou.issuer, iou.currency);
  if (line) ctx.view.erase(line);
  const amm = ctx.view.read(s.amm.index);
  if (amm) ctx.view.erase(amm);
  const root = ctx.view.read(accountKey(s.pool.account));
  if (root) ctx.view.erase(root);
}

export { round };
