import { Rational } from "../iou";
import type { TxHandler } from "./context";
import { hasOnlyFlags } from "./context";
import { LSF, type Amount, balanceOf, canSend, isPositive, isXrp, parseAmount, readAccount, reserveFor, sendAmount } from "./common";
import { findToken, isNftId, ownerTokens, removeOffer, tokenIssuer, tokenTransferFee, writeOwnerTokens } from "./nft";

/** The issuer's cut of a sale: TransferFee is in units of 1/100,000 of the price. */
function transferCut(amount: Amount, fee: number): Amount {
  if (isXrp(amount)) return { xrp: (amount.xrp * BigInt(fee)) / 100_000n };
  return { ...amount, iou: amount.iou.toRational().mul(new Rational(BigInt(fee), 100_000n)).toIou("down") };
}

function minus(a: Amount, b: Amount): Amount {
  if (isXrp(a) && isXrp(b)) return { xrp: a.xrp - b.xrp };
  if (!isXrp(a) && !isXrp(b)) return { ...a, iou: a.iou.sub(b.iou) };
  throw new Error("mixed amounts");
}

export const nftokenAcceptOffer: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, 0)) return "temINVALID_FLAG";
    const sell = tx.NFTokenSellOffer;
    const buy = tx.NFTokenBuyOffer;
    if (sell === undefined && buy === undefined) return "temMALFORMED";
    if (sell !== undefined && buy !== undefined) return "temDISABLED"; // brokered sales are not modelled
    if (tx.NFTokenBrokerFee !== undefined) return "temMALFORMED";
    if (!isNftId(sell ?? buy)) return "temMALFORMED";
    return undefined;
  },
  apply(ctx) {
    const { view, tx, account } = ctx;
    const sellMode = tx.NFTokenSellOffer !== undefined;
    const offer = view.read(((sellMode ? tx.NFTokenSellOffer : tx.NFTokenBuyOffer) as string).toUpperCase());
    if (!offer || offer.LedgerEntryType !== "NFTokenOffer") return "tecOBJECT_NOT_FOUND";
    if (offer.Expiration !== undefined && offer.Expiration <= ctx.parentCloseTime) return "tecEXPIRED";
    const isSellOffer = ((offer.Flags ?? 0) & LSF.sellNFToken) !== 0;
    if (isSellOffer !== sellMode) return "tecNFTOKEN_OFFER_TYPE_MISMATCH";
    if (offer.Owner === account) return "tecCANT_ACCEPT_OWN_NFTOKEN_OFFER";
    if (offer.Destination !== undefined && offer.Destination !== account) return "tecNO_PERMISSION";
    const id: string = offer.NFTokenID;
    const seller: string = sellMode ? offer.Owner : account;
    const buyer: string = sellMode ? account : offer.Owner;
    const token = findToken(view, seller, id);
    if (!token) return "tecNO_PERMISSION";

    const amount = parseAmount(offer.Amount)!;
    if (isPositive(amount)) {
      const failure = canSend(view, buyer, seller, amount, "tecINSUFFICIENT_FUNDS");
      if (failure) return failure;
      const issuer = tokenIssuer(id);
      const fee = tokenTransferFee(id);
      let toSeller = amount;
      if (fee > 0 && issuer !== seller && issuer !== buyer) {
        const cut = transferCut(amount, fee);
        if (isXrp(cut) ? cut.xrp > 0n : !cut.iou.isZero()) {
          const cutFailure = canSend(view, buyer, issuer, cut, "tecINSUFFICIENT_FUNDS");
          if (cutFailure) return cutFailure;
          sendAmount(view, buyer, issuer, cut);
          toSeller = minus(amount, cut);
        }
      }
      sendAmount(view, buyer, seller, toSeller);
    }

    removeOffer(view, offer);
    writeOwnerTokens(view, seller, ownerTokens(view, seller).filter((t) => t.NFTokenID !== id));
    const added = writeOwnerTokens(view, buyer, [...ownerTokens(view, buyer), token]);
    if (added > 0) {
      const buyerRoot = readAccount(view, buyer)!;
      const buyerBalance = buyer === account ? ctx.priorBalance : balanceOf(buyerRoot);
      if (buyerBalance < reserveFor(buyerRoot.OwnerCount)) return "tecINSUFFICIENT_RESERVE";
    }
    ctx.meta.nftoken_id = id;
    return "tesSUCCESS";
  },
};

