import type { TerCode } from "../codes";
import { Iou, Rational } from "../iou";
import type { TxContext, TxHandler } from "./context";
import { hasOnlyFlags } from "./context";
import { readPool, swapIn, swapOut, type Pool } from "./amm";
import {
  FEES,
  LSF,
  type Amount,
  type IouAmount,
  addXrp,
  amountJson,
  balanceOf,
  iouAvailable,
  iouCapacity,
  isPositive,
  isXrp,
  issuerRipples,
  newAccountRoot,
  parseAmount,
  readAccount,
  reserveFor,
  sameIssue,
  transferIou,
} from "./common";

const TF_NO_RIPPLE_DIRECT = 0x00010000;
const TF_PARTIAL_PAYMENT = 0x00020000;
const TF_LIMIT_QUALITY = 0x00040000;

function minIou(values: (Iou | "unlimited")[]): Iou | "unlimited" {
  let result: Iou | "unlimited" = "unlimited";
  for (const v of values) if (v !== "unlimited" && (result === "unlimited" || v.lt(result))) result = v;
  return result;
}

/** XRP an account can spend now without going under its reserve. */
function spendableXrp(ctx: TxContext, address: string): bigint {
  const root = readAccount(ctx.view, address)!;
  const free = balanceOf(root) - reserveFor(root.OwnerCount ?? 0);
  return free > 0n ? free : 0n;
}

export const payment: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, TF_NO_RIPPLE_DIRECT | TF_PARTIAL_PAYMENT | TF_LIMIT_QUALITY)) return "temINVALID_FLAG";
    const amount = parseAmount(tx.Amount);
    if (!amount || !isPositive(amount)) return "temBAD_AMOUNT";
    if (!tx.Destination) return "temDST_NEEDED";
    const partial = ((tx.Flags ?? 0) & TF_PARTIAL_PAYMENT) !== 0;
    const sendMax = tx.SendMax === undefined ? undefined : parseAmount(tx.SendMax);
    if (tx.SendMax !== undefined && (!sendMax || !isPositive(sendMax))) return "temBAD_AMOUNT";
    const xrpDirect = isXrp(amount) && (!sendMax || isXrp(sendMax));
    if (xrpDirect) {
      if (sendMax) return "temBAD_SEND_XRP_MAX";
      if (partial) return "temBAD_SEND_XRP_PARTIAL";
      if (tx.Paths) return "temBAD_SEND_XRP_PATHS";
    }
    if (tx.Destination === tx.Account && (!sendMax || sameIssue(sendMax, amount))) return "temREDUNDANT";
    if (tx.DeliverMin !== undefined) {
      const deliverMin = parseAmount(tx.DeliverMin);
      if (!partial || !deliverMin || !isPositive(deliverMin) || !sameIssue(deliverMin, amount)) return "temBAD_AMOUNT";
      const over = isXrp(deliverMin) ? deliverMin.xrp > (amount as { xrp: bigint }).xrp : deliverMin.iou.gt((amount as IouAmount).iou);
      if (over) return "temBAD_AMOUNT";
    }
    return undefined;
  },

  preclaim(ctx) {
    const partial = ((ctx.tx.Flags ?? 0) & TF_PARTIAL_PAYMENT) !== 0;
    if (!readAccount(ctx.view, ctx.tx.Destination) && partial && isXrp(parseAmount(ctx.tx.Amount)!)) return "telNO_DST_PARTIAL";
    return undefined;
  },

  apply(ctx) {
    const { view, tx, account } = ctx;
    const amount = parseAmount(tx.Amount)!;
    const sendMax = tx.SendMax === undefined ? undefined : parseAmount(tx.SendMax)!;
    const partial = ((tx.Flags ?? 0) & TF_PARTIAL_PAYMENT) !== 0;
    const deliverMin = tx.DeliverMin === undefined ? undefined : parseAmount(tx.DeliverMin)!;
    const destination: string = tx.Destination;

    const dst = readAccount(view, destination);
    if (!dst) {
      if (!isXrp(amount)) return "tecNO_DST";
      if (amount.xrp < FEES.reserveBase) return "tecNO_DST_INSUF_XRP";
    } else if (((dst.Flags ?? 0) & LSF.requireDestTag) !== 0 && tx.DestinationTag === undefined) {
      return "tecDST_TAG_NEEDED";
    }

    let delivered: Amount;
    let code: TerCode;
    if (isXrp(amount) && (!sendMax || isXrp(sendMax))) {
      // rippled: the sender must keep max(reserve, fee) after the amount, measured before the fee.
      const root = readAccount(view, account)!;
      const reserve = reserveFor(root.OwnerCount ?? 0);
      const fee = BigInt(tx.Fee);
      if (ctx.priorBalance < amount.xrp + (reserve > fee ? reserve : fee)) return "tecUNFUNDED_PAYMENT";
      addXrp(view, account, -amount.xrp);
      if (dst) addXrp(view, destination, amount.xrp);
      else view.insert(newAccountRoot(destination, amount.xrp, ctx.ledgerIndex));
      delivered = amount;
      code = "tesSUCCESS";
    } else if (!sendMax || sameIssue(sendMax, amount)) {
      [code, delivered] = directIou(ctx, amount as IouAmount, sendMax as IouAmount | undefined, partial, deliverMin as IouAmount | undefined);
    } else {
      [code, delivered] = throughPool(ctx, amount, sendMax, partial, deliverMin);
    }
    if (code !== "tesSUCCESS") return code;
    if (partial) ctx.meta.DeliveredAmount = amountJson(delivered);
    ctx.meta.delivered_amount = amountJson(delivered);
    return code;
  },
};

/** An IOU payment in its own currency: issuing, redeeming, or holder to holder rippling through the issuer. */
function directIou(ctx: TxContext, amount: IouAmount, sendMax: IouAmount | undefined, partial: boolean, deliverMin: IouAmount | undefined): [TerCode, Amount] {
  const { view, account } = ctx;
  const destination: string = ctx.tx.Destination;
  const { currency, issuer } = amount;
  if (!readAccount(view, issuer)) return ["tecPATH_DRY", amount];
  const capacity = iouCapacity(view, destination, currency, issuer);
  if (capacity === "no-line") return ["tecPATH_DRY", amount];
  if (account !== issuer && destination !== issuer && (!issuerRipples(view, account, currency, issuer) || !issuerRipples(view, destination, currency, issuer))) {
    return ["tecPATH_DRY", amount];
  }
  const limit = minIou([amount.iou, sendMax?.iou ?? "unlimited", iouAvailable(view, account, currency, issuer), capacity]);
  const deliver = limit === "unlimited" ? amount.iou : limit;
  if (deliver.signum() <= 0) return ["tecPATH_DRY", amount];
  if (deliver.lt(amount.iou) && (!partial || (deliverMin && deliver.lt(deliverMin.iou)))) return ["tecPATH_PARTIAL", amount];
  transferIou(view, account, destination, currency, issuer, deliver);
  return ["tesSUCCESS", { iou: deliver, currency, issuer }];
}

/**
 * A cross-currency payment (XRP <-> IOU) through the XRP/IOU AMM pool,
 * constant product with the pool's trading fee, as rippled's AMM liquidity
 * step does when the pool is the only offer on the path.
 */
function throughPool(ctx: TxContext, amount: Amount, sendMax: Amount, partial: boolean, deliverMin: Amount | undefined): [TerCode, Amount] {
  const { view, account } = ctx;
  const destination: string = ctx.tx.Destination;
  if (isXrp(amount) === isXrp(sendMax)) return ["tecPATH_DRY", amount]; // IOU -> other IOU needs order books
  const iouSide = (isXrp(amount) ? sendMax : amount) as IouAmount;
  const pool = readPool(view, iouSide.currency, iouSide.issuer);
  if (!pool) return ["tecPATH_DRY", amount];
  if (!readAccount(view, destination)) return ["tecNO_DST", amount];

  const xrpToIou = !isXrp(amount);
  const poolIn = xrpToIou ? Rational.of(pool.xrp) : pool.iou.toRational();
  const poolOut = xrpToIou ? pool.iou.toRational() : Rational.of(pool.xrp);

  // How much the sender may put in: SendMax capped by what it holds.
  let maxIn: Rational;
  if (xrpToIou) {
    const spendable = spendableXrp(ctx, account);
    const cap = (sendMax as { xrp: bigint }).xrp;
    maxIn = Rational.of(spendable < cap ? spendable : cap);
  } else {
    if (account !== pool.issuer && !issuerRipples(view, account, pool.currency, pool.issuer)) return ["tecPATH_DRY", amount];
    const available = iouAvailable(view, account, pool.currency, pool.issuer);
    const cap = (sendMax as IouAmount).iou;
    maxIn = (available === "unlimited" ? cap : cap.min(available)).toRational();
  }

  // How much the destination may receive: Amount capped by its trust line room.
  let target: Rational = xrpToIou ? (amount as IouAmount).iou.toRational() : Rational.of((amount as { xrp: bigint }).xrp);
  if (xrpToIou) {
    const room = iouCapacity(view, destination, pool.currency, pool.issuer);
    if (room === "no-line") return ["tecPATH_DRY", amount];
    if (destination !== pool.issuer && !issuerRipples(view, destination, pool.currency, pool.issuer)) return ["tecPATH_DRY", amount];
    if (room !== "unlimited" && room.toRational().compare(target) < 0) target = room.toRational();
  }
  if (target.compare(poolOut) >= 0) target = poolOut.mul(new Rational(999_999n, 1_000_000n)); // a pool never empties

  const roundOut = (r: Rational): Rational => (xrpToIou ? r.toIou("down").toRational() : Rational.of(r.toInteger("down")));
  const roundIn = (r: Rational): Rational => (xrpToIou ? Rational.of(r.toInteger("up")) : r.toIou("up").toRational());

  let out = roundOut(target);
  let cost = roundIn(swapOut(poolIn, poolOut, out, pool.tradingFee));
  if (cost.compare(maxIn) > 0) {
    out = roundOut(swapIn(poolIn, poolOut, maxIn, pool.tradingFee));
    cost = roundIn(swapOut(poolIn, poolOut, out, pool.tradingFee));
  }
  if (out.compare(Rational.of(0)) <= 0) return ["tecPATH_DRY", amount];
  const full = xrpToIou ? (amount as IouAmount).iou.toRational() : Rational.of((amount as { xrp: bigint }).xrp);
  if (out.compare(full) < 0) {
    if (!partial) return ["tecPATH_PARTIAL", amount];
    const min = deliverMin ? (isXrp(deliverMin) ? Rational.of(deliverMin.xrp) : deliverMin.iou.toRational()) : undefined;
    if (min && out.compare(min) < 0) return ["tecPATH_PARTIAL", amount];
  }
  return ["tesSUCCESS", settleSwap(ctx, pool, xrpToIou, cost, out)];
}

function settleSwap(ctx: TxContext, pool: Pool, xrpToIou: boolean, cost: Rational, out: Rational): Amount {
  const { view, account } = ctx;
  const destination: string = ctx.tx.Destination;
  if (xrpToIou) {
    const drops = cost.toInteger("up");
    const iou = out.toIou("down");
    addXrp(view, account, -drops);
    addXrp(view, pool.account, drops);
    transferIou(view, pool.account, destination, pool.currency, pool.issuer, iou);
    return { iou, currency: pool.currency, issuer: pool.issuer };
  }
  const iou = cost.toIou("up");
  const drops = out.toInteger("down");
  transferIou(view, account, pool.account, pool.currency, pool.issuer, iou);
  addXrp(view, pool.account, -drops);
  addXrp(view, destination, drops);
  return { xrp: drops };
}
