import { Iou, Rational } from "../iou";
import { accountKey, ammKey, lpTokenCurrency, pseudoAccountAddress } from "../keys";
import type { ApplyView, Entry } from "../view";
import type { TxHandler } from "./context";
import {
  FEES,
  LSF,
  addXrp,
  balanceOf,
  iouAvailable,
  isPositive,
  isXrp,
  lineBalance,
  newLine,
  parseAmount,
  readAccount,
  readLine,
  reserveFor,
  setLineBalance,
  settleLine,
  transferIou,
  type IouAmount,
} from "./common";

/** AMM trading fees are in units of 1/100,000 (1000 = 1%). */
const FEE_UNIT = 100_000n;
const MAX_TRADING_FEE = 1000;

/** An XRP/IOU pool as the engine trades against it. */
export interface Pool {
  amm: Entry;
  account: string;
  xrp: bigint;
  iou: Iou;
  currency: string;
  issuer: string;
  tradingFee: number;
}

export function readPool(view: ApplyView, currency: string, issuer: string): Pool | undefined {
  const amm = view.read(ammKey({ currency: "XRP" }, { currency, issuer }));
  if (!amm) return undefined;
  const account = amm.Account as string;
  const root = view.read(accountKey(account))!;
  const line = readLine(view, account, issuer, currency);
  return { amm, account, xrp: balanceOf(root), iou: line ? lineBalance(line, account) : Iou.ZERO, currency, issuer, tradingFee: amm.TradingFee ?? 0 };
}

/** Output for a given input (rippled's swapAssetIn): out = poolOut * in(1-f) / (poolIn + in(1-f)), rounded down. */
export function swapIn(poolIn: Rational, poolOut: Rational, amountIn: Rational, tradingFee: number): Rational {
  const net = amountIn.mul(new Rational(FEE_UNIT - BigInt(tradingFee), FEE_UNIT));
  return poolOut.mul(net).div(poolIn.add(net));
}

/** Input needed for a given output (rippled's swapAssetOut): in = poolIn * out / ((poolOut - out)(1-f)), rounded up. */
export function swapOut(poolIn: Rational, poolOut: Rational, amountOut: Rational, tradingFee: number): Rational {
  return poolIn.mul(amountOut).div(poolOut.sub(amountOut).mul(new Rational(FEE_UNIT - BigInt(tradingFee), FEE_UNIT)));
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  // Newton's method from a power of two above the root decreases monotonically to floor(sqrt(n)).
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** Initial LP tokens: sqrt(amount1 * amount2), XRP counted in drops as rippled does. */
export function initialLpTokens(drops: bigint, iou: Iou): Iou {
  const product = iou.toRational().mul(Rational.of(drops));
  // sqrt(n/d) = sqrt(n*d*10^(2k)) / (d*10^k), with k chosen for 18 significant digits.
  const scale = 10n ** 20n;
  const root = isqrt(product.n * product.d * scale * scale);
  return new Rational(root, product.d * scale).toIou("down");
}

export const ammCreate: TxHandler = {
  minimumFee: FEES.reserveIncrement,
  preflight(tx) {
    const a = parseAmount(tx.Amount);
    const b = parseAmount(tx.Amount2);
    if (!a || !b || !isPositive(a) || !isPositive(b)) return "temBAD_AMOUNT";
    if (isXrp(a) === isXrp(b)) return "temDISABLED"; // this sandbox pools XRP against one IOU only
    const fee = tx.TradingFee ?? 0;
    if (!Number.isInteger(fee) || fee < 0 || fee > MAX_TRADING_FEE) return "temBAD_FEE";
    return undefined;
  },
  preclaim(ctx) {
    const iou = (isXrp(parseAmount(ctx.tx.Amount)!) ? parseAmount(ctx.tx.Amount2) : parseAmount(ctx.tx.Amount)) as IouAmount;
    const issuer = readAccount(ctx.view, iou.issuer);
    if (issuer && ((issuer.Flags ?? 0) & LSF.defaultRipple) === 0) return "terNO_RIPPLE";
    return undefined;
  },
  apply(ctx) {
    const { view, tx, account } = ctx;
    const a = parseAmount(tx.Amount)!;
    const b = parseAmount(tx.Amount2)!;
    const xrp = (isXrp(a) ? a : b) as { xrp: bigint };
    const iou = (isXrp(a) ? b : a) as IouAmount;
    const key = ammKey({ currency: "XRP" }, iou);
    if (view.exists(key)) return "tecDUPLICATE";
    if (!readAccount(view, iou.issuer)) return "tecNO_ISSUER";
    const creator = readAccount(view, account)!;
    if (balanceOf(creator) - reserveFor(creator.OwnerCount ?? 0) < xrp.xrp) return "tecUNFUNDED_AMM";
    const available = iouAvailable(view, account, iou.currency, iou.issuer);
    if (available !== "unlimited" && available.lt(iou.iou)) return "tecUNFUNDED_AMM";
    if (ctx.priorBalance < reserveFor((creator.OwnerCount ?? 0) + 1)) return "tecINSUF_RESERVE_LINE";

    const ammAccount = pseudoAccountAddress(ctx.parentHash, key, (address) => view.exists(accountKey(address)));
    view.insert({
      LedgerEntryType: "AccountRoot",
      index: accountKey(ammAccount),
      Account: ammAccount,
      AMMID: key,
      Balance: "0",
      Flags: LSF.disableMaster | LSF.defaultRipple | LSF.depositAuth,
      OwnerCount: 1, // the AMM object itself
      Sequence: 0,
    });
    addXrp(view, account, -xrp.xrp);
    addXrp(view, ammAccount, xrp.xrp);
    // The pool's line holds the deposit from the start (a zero line at default would not be kept).
    const poolLine = newLine(view, ammAccount, iou.issuer, iou.currency, Iou.ZERO, false);
    setLineBalance(poolLine, ammAccount, iou.iou);
    settleLine(view, poolLine, false);
    if (account !== iou.issuer) transferIou(view, account, iou.issuer, iou.currency, iou.issuer, iou.iou);

    const lpCurrency = lpTokenCurrency("XRP", iou.currency);
    const tokens = initialLpTokens(xrp.xrp, iou.iou);
    const lpLine = newLine(view, account, ammAccount, lpCurrency, Iou.ZERO, false);
    setLineBalance(lpLine, account, tokens);
    settleLine(view, lpLine, false);

    const tradingFee = tx.TradingFee ?? 0;
    const lpToken = { currency: lpCurrency, issuer: ammAccount, value: tokens.toString() };
    view.insert({
      LedgerEntryType: "AMM",
      index: key,
      Account: ammAccount,
      Asset: { currency: "XRP" },
      Asset2: { currency: iou.currency, issuer: iou.issuer },
      AuctionSlot: { Account: account, DiscountedFee: Math.floor(tradingFee / 10), Expiration: ctx.parentCloseTime + 86_400, Price: { ...lpToken, value: "0" } },
      Flags: 0,
      LPTokenBalance: lpToken,
      OwnerNode: "0",
      TradingFee: tradingFee,
      VoteSlots: [{ VoteEntry: { Account: account, TradingFee: tradingFee, VoteWeight: 100_000 } }],
    });
    return "tesSUCCESS";
  },
};
