import type { TerCode } from "../codes";
import { Rational } from "../iou";
import { offerKey } from "../keys";
import { bookDirectoryOf, cross, fundsOf, isDeepFrozen, issueOf, round, amountJson, valueOf } from "./book";
import { LSF, adjustOwnerCount, isPositive, isXrp, parseAmount, readAccount, reserveFor, sameIssue } from "./common";
import { hasOnlyFlags, type TxContext, type TxHandler } from "./context";

const TF_PASSIVE = 0x00010000;
const TF_IMMEDIATE_OR_CANCEL = 0x00020000;
const TF_FILL_OR_KILL = 0x00040000;
const TF_SELL = 0x00080000;
const ZERO = Rational.of(0);

/** Deletes one of the account's offers by sequence (OfferCancel, or OfferCreate's OfferSequence); a missing one is fine. */
function cancelOffer(ctx: TxContext, sequence: number): void {
  const offer = ctx.view.read(offerKey(ctx.account, sequence));
  if (!offer || offer.LedgerEntryType !== "Offer") return;
  ctx.view.erase(offer);
  adjustOwnerCount(ctx.view, ctx.account, -1);
}

export const offerCancel: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, 0)) return "temINVALID_FLAG";
    if (!Number.isInteger(tx.OfferSequence) || tx.OfferSequence <= 0) return "temBAD_SEQUENCE";
    return undefined;
  },
  apply(ctx) {
    cancelOffer(ctx, ctx.tx.OfferSequence);
    return "tesSUCCESS";
  },
};

export const offerCreate: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, TF_PASSIVE | TF_IMMEDIATE_OR_CANCEL | TF_FILL_OR_KILL | TF_SELL)) return "temINVALID_FLAG";
    const flags = tx.Flags ?? 0;
    if (flags & TF_IMMEDIATE_OR_CANCEL && flags & TF_FILL_OR_KILL) return "temINVALID_FLAG";
    if (tx.Expiration === 0) return "temBAD_EXPIRATION";
    if (tx.OfferSequence !== undefined && (!Number.isInteger(tx.OfferSequence) || tx.OfferSequence <= 0 || tx.OfferSequence >= tx.Sequence)) return "temBAD_SEQUENCE";
    const pays = parseAmount(tx.TakerPays);
    const gets = parseAmount(tx.TakerGets);
    if (!pays || !gets || !isPositive(pays) || !isPositive(gets)) return "temBAD_OFFER";
    if (isXrp(pays) && isXrp(gets)) return "temBAD_OFFER";
    if (sameIssue(pays, gets)) return "temREDUNDANT";
    return undefined;
  },
  apply(ctx) {
    const { tx, view, account } = ctx;
    const flags = tx.Flags ?? 0;
    const paysIssue = issueOf(tx.TakerPays);
    const getsIssue = issueOf(tx.TakerGets);
    if (tx.OfferSequence !== undefined) cancelOffer(ctx, tx.OfferSequence);
    if (tx.Expiration !== undefined && tx.Expiration <= ctx.parentCloseTime) return "tecEXPIRED";
    for (const issue of [paysIssue, getsIssue]) if (issue.issuer && !readAccount(view, issue.issuer)) return "tecNO_ISSUER";
    if (isDeepFrozen(view, account, paysIssue) || isDeepFrozen(view, account, getsIssue)) return "tecFROZEN";
    const funds = fundsOf(view, account, getsIssue);
    if (funds !== "unlimited" && funds.compare(ZERO) <= 0) return "tecUNFUNDED_OFFER";

    const takerPays = valueOf(tx.TakerPays);
    const takerGets = valueOf(tx.TakerGets);
    const sell = (flags & TF_SELL) !== 0;
    const maxIn = funds === "unlimited" || takerGets.compare(funds) <= 0 ? takerGets : funds;
    // Cross the opposite book: the account pays what its offer gives and receives what its offer asks.
    const crossed = cross(ctx, {
      pays: getsIssue,
      gets: paysIssue,
      payer: account,
      receiver: account,
      maxIn,
      maxOut: sell ? undefined : takerPays,
      limitQuality: takerGets.div(takerPays),
      strict: (flags & TF_PASSIVE) !== 0,
    });
    return place(ctx, { takerPays, takerGets, sell, crossed, paysIssue, getsIssue });
  },
};

/** After crossing: kill, fill or put the rest of the offer on the books (rippled's OfferCreate::applyGuts). */
function place(
  ctx: TxContext,
  o: { takerPays: Rational; takerGets: Rational; sell: boolean; crossed: { paid: Rational; got: Rational }; paysIssue: ReturnType<typeof issueOf>; getsIssue: ReturnType<typeof issueOf> },
): TerCode {
  const { tx, view, account } = ctx;
  const flags = tx.Flags ?? 0;
  const leftGets = o.takerGets.sub(o.crossed.paid);
  // The rest keeps the offer's own price; a sell offer keeps selling what it has left.
  const leftPays = o.sell ? round(o.paysIssue, leftGets.mul(o.takerPays).div(o.takerGets), "down") : o.takerPays.sub(o.crossed.got);
  const restGets = o.sell ? leftGets : round(o.getsIssue, leftPays.mul(o.takerGets).div(o.takerPays), "down");
  const filled = leftPays.compare(ZERO) <= 0 || restGets.compare(ZERO) <= 0;
  if (flags & TF_FILL_OR_KILL && !filled) return "tecKILLED";
  if (filled) return "tesSUCCESS";
  if (flags & TF_IMMEDIATE_OR_CANCEL) return o.crossed.got.compare(ZERO) > 0 ? "tesSUCCESS" : "tecKILLED";
  const root = readAccount(view, account)!;
  if (ctx.priorBalance < reserveFor((root.OwnerCount ?? 0) + 1)) return o.crossed.got.compare(ZERO) > 0 ? "tesSUCCESS" : "tecINSUF_RESERVE_OFFER";
  const pays = amountJson(o.paysIssue, leftPays);
  const gets = amountJson(o.getsIssue, restGets);
  view.insert({
    LedgerEntryType: "Offer",
    index: offerKey(account, tx.Sequence),
    Account: account,
    BookDirectory: bookDirectoryOf(pays, gets),
    BookNode: "0",
    Flags: (flags & TF_PASSIVE ? LSF.passive : 0) | (flags & TF_SELL ? LSF.sell : 0),
    OwnerNode: "0",
    Sequence: tx.Sequence,
    TakerGets: gets,
    TakerPays: pays,
    ...(tx.Expiration !== undefined ? { Expiration: tx.Expiration } : {}),
  });
  adjustOwnerCount(view, account, 1);
  return "tesSUCCESS";
}
