import type { TerCode } from "../codes";
import { Iou, Rational } from "../iou";
import type { TxContext, TxHandler } from "./context";
import { hasOnlyFlags } from "./context";
import { cross, fundsOf, isDeepFrozen, isFrozenFor, issueOf, valueOf } from "./book";
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
      [code, delivered] = throughBooks(ctx, amount, sendMax, partial, deliverMin);
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
  // A frozen line may only pay back to the issuer; a deep-frozen one may not receive either.
  const issue = { currency, issuer };
  if ((destination !== issuer && isFrozenFor(view, account, issue)) || isDeepFrozen(view, destination, issue)) return ["tecPATH_DRY", amount];
  const limit = minIou([amount.iou, sendMax?.iou ?? "unlimited", iouAvailable(view, account, currency, issuer), capacity]);
  const deliver = limit === "unlimited" ? amount.iou : limit;
  if (deliver.signum() <= 0) return ["tecPATH_DRY", amount];
  if (deliver.lt(amount.iou) && (!partial || (deliverMin && deliver.lt(deliverMin.iou)))) return ["tecPATH_PARTIAL", amount];
  transferIou(view, account, destination, currency, issuer, deliver);
  return ["tesSUCCESS", { iou: deliver, currency, issuer }];
}

/**
 * A cross-currency payment: the order book from SendMax's issue to Amount's
 * and the XRP/IOU pool, best price first (see book.ts), from the sender's
 * funds to the destination's trust line.
 */
function throughBooks(ctx: TxContext, amount: Amount, sendMax: Amount, partial: boolean, deliverMin: Amount | undefined): [TerCode, Amount] {
  const { view, account } = ctx;
  const destination: string = ctx.tx.Destination;
  if (!readAccount(view, destination)) return ["tecNO_DST", amount];
  const pays = issueOf(ctx.tx.SendMax);
  const gets = issueOf(ctx.tx.Amount);
  if (isDeepFrozen(view, account, pays) || isDeepFrozen(view, destination, gets)) return ["tecPATH_DRY", amount];
  if (!isXrp(sendMax) && account !== sendMax.issuer && !issuerRipples(view, account, sendMax.currency, sendMax.issuer)) return ["tecPATH_DRY", amount];
  let target = valueOf(ctx.tx.Amount);
  if (!isXrp(amount)) {
    const room = iouCapacity(view, destination, amount.currency, amount.issuer);
    if (room === "no-line") return ["tecPATH_DRY", amount];
    if (destination !== amount.issuer && !issuerRipples(view, destination, amount.currency, amount.issuer)) return ["tecPATH_DRY", amount];
    if (room !== "unlimited" && room.toRational().compare(target) < 0) target = room.toRational();
  }
  const funds = isXrp(sendMax) ? Rational.of(spendableXrp(ctx, account)) : fundsOf(view, account, pays);
  const cap = valueOf(ctx.tx.SendMax);
  const maxIn = funds === "unlimited" || cap.compare(funds) <= 0 ? cap : funds;
  const { got } = cross(ctx, { pays, gets, payer: account, receiver: destination, maxIn, maxOut: target });
  if (got.compare(Rational.of(0)) <= 0) return ["tecPATH_DRY", amount];
  const full = valueOf(ctx.tx.Amount);
  if (got.compare(full) < 0) {
    if (!partial) return ["tecPATH_PARTIAL", amount];
    if (deliverMin && got.compare(valueOf(ctx.tx.DeliverMin)) < 0) return ["tecPATH_PARTIAL", amount];
  }
  const delivered: Amount = isXrp(amount) ? { xrp: got.toInteger("down") } : { iou: got.toIou("down"), currency: amount.currency, issuer: amount.issuer };
  return ["tesSUCCESS", delivered];
}
