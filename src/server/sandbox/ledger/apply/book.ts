import { Iou, Rational } from "../iou";
import { bookBaseOf, bookDirectory } from "../keys";
import type { ApplyView, Entry } from "../view";
import { readPool, swapIn, swapOut, type Pool } from "./amm";
import type { TxContext } from "./context";
import { LSF, addXrp, adjustOwnerCount, balanceOf, iouAvailable, newLine, readAccount, readLine, reserveFor, setLineBalance, settleLine, transferIou } from "./common";

/** A currency and its issuer; XRP has none. */
export type Issue = { currency: "XRP"; issuer?: undefined } | { currency: string; issuer: string };

export const XRP: Issue = { currency: "XRP" };
const ZERO = Rational.of(0);

export function issueOf(json: unknown): Issue {
  if (typeof json === "string") return XRP;
  const { currency, issuer } = json as { currency: string; issuer?: string };
  return currency === "XRP" || issuer === undefined ? XRP : { currency, issuer };
}

export function isXrpIssue(issue: Issue): boolean {
  return issue.currency === "XRP";
}

/** A JSON amount's value as a Rational: drops for XRP, the decimal value for an IOU. */
export function valueOf(json: unknown): Rational {
  return typeof json === "string" ? Rational.of(BigInt(json)) : Iou.parse((json as { value: string }).value).toRational();
}

/** Rounds a value of `issue` to what the ledger can hold (whole drops, or 16 significant digits), down or up. */
export function round(issue: Issue, value: Rational, rounding: "down" | "up" | "nearest"): Rational {
  return isXrpIssue(issue) ? Rational.of(value.toInteger(rounding)) : value.toIou(rounding).toRational();
}

export function amountJson(issue: Issue, value: Rational): string | { currency: string; issuer: string; value: string } {
  return isXrpIssue(issue) ? value.toInteger("down").toString() : { currency: issue.currency, issuer: issue.issuer!, value: value.toIou("down").toString() };
}

/** rippled's getRate: the offer's quality TakerPays / TakerGets as a 64-bit number (exponent + 100 in the top byte, 16-digit mantissa). */
export function qualityBits(takerPays: unknown, takerGets: unknown): bigint {
  const ratio = valueOf(takerPays).div(valueOf(takerGets)).toIou("down");
  if (ratio.isZero()) return 0n;
  return (BigInt(ratio.exponent + 100) << 56n) | ratio.mantissa;
}

export function bookDirectoryOf(takerPays: unknown, takerGets: unknown): string {
  return bookDirectory(bookBaseOf(takerPays as never, takerGets as never), qualityBits(takerPays, takerGets));
}

/** What an account can deliver of an issue now: XRP above its reserve, its IOU balance, or unlimited for the issuer. */
export function fundsOf(view: ApplyView, account: string, issue: Issue): Rational | "unlimited" {
  if (isXrpIssue(issue)) {
    const root = readAccount(view, account);
    if (!root) return ZERO;
    const free = balanceOf(root) - reserveFor(root.OwnerCount ?? 0);
    return Rational.of(free > 0n ? free : 0n);
  }
  if (isFrozenFor(view, account, issue)) return ZERO;
  const available = iouAvailable(view, account, issue.currency, issue.issuer!);
  return available === "unlimited" ? "unlimited" : available.toRational();
}

/** Whether either side froze the account's line for this issue (rippled's isFrozen for a holder). */
export function isFrozenFor(view: ApplyView, account: string, issue: Issue): boolean {
  if (isXrpIssue(issue) || account === issue.issuer) return false;
  const line = readLine(view, account, issue.issuer!, issue.currency);
  if (!line) return false;
  return ((line.Flags ?? 0) & (LSF.lowFreeze | LSF.highFreeze)) !== 0;
}

/** Whether the line is deep frozen on either side (DeepFreeze: the holder may neither send nor receive). */
export function isDeepFrozen(view: ApplyView, account: string, issue: Issue): boolean {
  if (isXrpIssue(issue) || account === issue.issuer) return false;
  const line = readLine(view, account, issue.issuer!, issue.currency);
  return !!line && ((line.Flags ?? 0) & (LSF.lowDeepFreeze | LSF.highDeepFreeze)) !== 0;
}

/** Moves a value of an issue between accounts, opening the receiver's trust line when it has none (as offer crossing does). */
export function move(view: ApplyView, from: string, to: string, issue: Issue, value: Rational): void {
  if (value.compare(ZERO) <= 0 || from === to) return;
  if (isXrpIssue(issue)) {
    const drops = value.toInteger("down");
    addXrp(view, from, -drops);
    addXrp(view, to, drops);
    return;
  }
  const iou = value.toIou("down");
  if (to === issue.issuer || readLine(view, to, issue.issuer!, issue.currency)) {
    transferIou(view, from, to, issue.currency, issue.issuer!, iou);
    return;
  }
  // The receiver has no line yet: the value leaves the sender through the issuer and opens the receiver's line.
  transferIou(view, from, issue.issuer!, issue.currency, issue.issuer!, iou);
  // rippled's trustCreate for a receiver: its side gets NoRipple unless the account has DefaultRipple.
  const holderNoRipple = ((readAccount(view, to)?.Flags ?? 0) & LSF.defaultRipple) === 0;
  const line = newLine(view, to, issue.issuer!, issue.currency, Iou.ZERO, holderNoRipple);
  setLineBalance(line, to, iou);
  settleLine(view, line, false);
}

export interface CrossRequest {
  /** The issue the taker pays and the one it receives. */
  pays: Issue;
  gets: Issue;
  payer: string;
  receiver: string;
  /** Caps on what is paid and received (undefined: no cap). */
  maxIn?: Rational;
  maxOut?: Rational;
  /** The worst price (paid per received) the taker accepts; `strict` excludes that price itself (passive offers). */
  limitQuality?: Rational;
  strict?: boolean;
}

export interface CrossResult {
  paid: Rational;
  got: Rational;
}

function qualityOf(offer: Entry): Rational {
  return valueOf(offer.TakerPays).div(valueOf(offer.TakerGets));
}

function removeOffer(view: ApplyView, offer: Entry): void {
  view.erase(offer);
  adjustOwnerCount(view, offer.Account, -1);
}

/** The next offer worth taking in the book: expired and unfunded offers met on the way are removed, as rippled does. */
function nextOffer(ctx: TxContext, req: CrossRequest, keys: string[], cursor: { i: number }): { offer: Entry; funds: Rational | "unlimited" } | undefined {
  for (; cursor.i < keys.length; cursor.i++) {
    const offer = ctx.view.read(keys[cursor.i]!);
    if (!offer) continue;
    if (offer.Account === req.payer) continue; // the sandbox does not cross an account's own offers
    if (offer.Expiration !== undefined && offer.Expiration <= ctx.parentCloseTime) {
      removeOffer(ctx.view, offer);
      continue;
    }
    const funds = fundsOf(ctx.view, offer.Account, req.gets);
    if (funds !== "unlimited" && funds.compare(ZERO) <= 0) {
      removeOffer(ctx.view, offer);
      continue;
    }
    return { offer, funds };
  }
  return undefined;
}

/** The pool for this pair if there is one (the sandbox pools XRP against one IOU). */
function poolFor(view: ApplyView, pays: Issue, gets: Issue): Pool | undefined {
  if (isXrpIssue(pays) === isXrpIssue(gets)) return undefined;
  const iou = (isXrpIssue(pays) ? gets : pays) as { currency: string; issuer: string };
  return readPool(view, iou.currency, iou.issuer);
}

function poolSides(pool: Pool, pays: Issue): { poolIn: Rational; poolOut: Rational; fee: number } {
  const xrp = Rational.of(pool.xrp);
  const iou = pool.iou.toRational();
  return isXrpIssue(pays) ? { poolIn: xrp, poolOut: iou, fee: pool.tradingFee } : { poolIn: iou, poolOut: xrp, fee: pool.tradingFee };
}

/** The pool's marginal price (paid per received, fee included). */
function spotPrice(poolIn: Rational, poolOut: Rational, fee: number): Rational {
  return poolIn.div(poolOut.mul(new Rational(100_000n - BigInt(fee), 100_000n)));
}

/** Output that moves the pool's marginal price up to `quality` (ignoring the fee's small growth of the product). */
function outUntilPrice(poolIn: Rational, poolOut: Rational, fee: number, quality: Rational): Rational {
  const k = poolIn.mul(poolOut);
  const target = quality.mul(new Rational(100_000n - BigInt(fee), 100_000n));
  const newOut = sqrt(k.div(target));
  const out = poolOut.sub(newOut);
  return out.compare(ZERO) > 0 ? out : ZERO;
}

export function sqrt(r: Rational): Rational {
  if (r.n <= 0n) return ZERO;
  const scale = 10n ** 30n;
  const product = r.n * r.d * scale * scale;
  let x = 1n << BigInt(Math.ceil(product.toString(2).length / 2));
  for (;;) {
    const y = (x + product / x) >> 1n;
    if (y >= x) break;
    x = y;
  }
  return new Rational(x, r.d * scale);
}

function minOf(...values: (Rational | undefined)[]): Rational | undefined {
  let m: Rational | undefined;
  for (const v of values) if (v && (!m || v.compare(m) < 0)) m = v;
  return m;
}

/**
 * Crosses the order book and the AMM from `pays` to `gets`, best price
 * first as rippled's payment engine does for a single book: each step takes
 * the better of the best offer and the pool (the pool only until its price
 * reaches the next offer's), until the caps, the limit price or the
 * liquidity run out.
 */
export function cross(ctx: TxContext, req: CrossRequest): CrossResult {
  const keys = ctx.bookOffers(bookBaseOf(amountJson(req.pays, ZERO) as never, amountJson(req.gets, ZERO) as never));
  const cursor = { i: 0 };
  let paid = ZERO;
  let got = ZERO;
  for (let guard = 0; guard < 1000; guard++) {
    const roomIn = req.maxIn?.sub(paid);
    const roomOut = req.maxOut?.sub(got);
    if ((roomIn && roomIn.compare(ZERO) <= 0) || (roomOut && roomOut.compare(ZERO) <= 0)) break;
    const best = nextOffer(ctx, req, keys, cursor);
    const pool = poolFor(ctx.view, req.pays, req.gets);
    const offerQuality = best ? qualityOf(best.offer) : undefined;
    const sides = pool ? poolSides(pool, req.pays) : undefined;
    const poolPrice = sides ? spotPrice(sides.poolIn, sides.poolOut, sides.fee) : undefined;
    const usePool = sides && poolPrice && (!offerQuality || poolPrice.compare(offerQuality) < 0);
    const quality = usePool ? poolPrice! : offerQuality;
    if (!quality) break;
    if (req.limitQuality && (req.strict ? quality.compare(req.limitQuality) >= 0 : quality.compare(req.limitQuality) > 0)) break;
    let step = usePool ? takeFromPool(ctx, req, pool!, sides!, offerQuality, roomIn, roomOut) : undefined;
    // The pool's step rounds to nothing at this price: the offer is next, if it is within the limit.
    if (!step && best && !(req.limitQuality && (req.strict ? offerQuality!.compare(req.limitQuality) >= 0 : offerQuality!.compare(req.limitQuality) > 0))) {
      step = takeOffer(ctx, req, best.offer, best.funds, roomIn, roomOut);
    }
    if (!step) break;
    paid = paid.add(step.paid);
    got = got.add(step.got);
  }
  return { paid, got };
}

function takeOffer(ctx: TxContext, req: CrossRequest, offer: Entry, funds: Rational | "unlimited", roomIn?: Rational, roomOut?: Rational): CrossResult | undefined {
  const quality = qualityOf(offer);
  const offerGets = valueOf(offer.TakerGets);
  const outCap = minOf(offerGets, funds === "unlimited" ? undefined : funds, roomOut, roomIn?.div(quality))!;
  let out = round(req.gets, outCap, "down");
  let pay = round(req.pays, out.mul(quality), "up");
  if (roomIn && pay.compare(roomIn) > 0) pay = roomIn;
  if (out.compare(ZERO) <= 0 || pay.compare(ZERO) <= 0) {
    removeOffer(ctx.view, offer); // a dust remainder cannot be taken: rippled removes such offers
    return { paid: ZERO, got: ZERO };
  }
  move(ctx.view, req.payer, offer.Account, req.pays, pay);
  move(ctx.view, offer.Account, req.receiver, req.gets, out);
  const current = ctx.view.read(offer.index)!;
  const leftGets = offerGets.sub(out);
  const leftPays = valueOf(offer.TakerPays).sub(pay);
  if (leftGets.compare(ZERO) <= 0 || leftPays.compare(ZERO) <= 0) removeOffer(ctx.view, current);
  else {
    current.TakerGets = amountJson(req.gets, leftGets);
    current.TakerPays = amountJson(req.pays, leftPays);
    ctx.view.update(current);
  }
  return { paid: pay, got: out };
}

function takeFromPool(
  ctx: TxContext,
  req: CrossRequest,
  pool: Pool,
  sides: { poolIn: Rational; poolOut: Rational; fee: number },
  nextQuality: Rational | undefined,
  roomIn?: Rational,
  roomOut?: Rational,
): CrossResult | undefined {
  const { poolIn, poolOut, fee } = sides;
  const priceCap = minOf(nextQuality, req.limitQuality);
  const byPrice = priceCap ? outUntilPrice(poolIn, poolOut, fee, priceCap) : undefined;
  const byIn = roomIn ? swapIn(poolIn, poolOut, roomIn, fee) : undefined;
  const nearlyAll = poolOut.mul(new Rational(999_999n, 1_000_000n)); // a pool never empties
  let out = round(req.gets, minOf(byPrice, byIn, roomOut, nearlyAll)!, "down");
  if (out.compare(ZERO) <= 0) return undefined;
  let pay = round(req.pays, swapOut(poolIn, poolOut, out, fee), "up");
  if (roomIn && pay.compare(roomIn) > 0) {
    out = round(req.gets, swapIn(poolIn, poolOut, roomIn, fee), "down");
    pay = round(req.pays, swapOut(poolIn, poolOut, out, fee), "up");
    if (out.compare(ZERO) <= 0 || pay.compare(roomIn) > 0) return undefined;
  }
  move(ctx.view, req.payer, pool.account, req.pays, pay);
  move(ctx.view, pool.account, req.receiver, req.gets, out);
  return { paid: pay, got: out };
}

