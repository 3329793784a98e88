import { nftOfferKey } from "../keys";
import type { TxHandler } from "./context";
import { hasOnlyFlags } from "./context";
import { LSF, adjustOwnerCount, balanceOf, iouAvailable, isXrp, parseAmount, readAccount, readLine, reserveFor } from "./common";
import { NFT_FLAGS, findToken, isNftId, tokenFlags, tokenIssuer } from "./nft";

export const nftokenCreateOffer: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, LSF.sellNFToken)) return "temINVALID_FLAG";
    if (!isNftId(tx.NFTokenID)) return "temMALFORMED";
    const amount = parseAmount(tx.Amount);
    if (!amount) return "temBAD_AMOUNT";
    const sell = ((tx.Flags ?? 0) & LSF.sellNFToken) !== 0;
    const value = isXrp(amount) ? Number(amount.xrp) : amount.iou.signum();
    if (value < 0 || (!sell && value === 0)) return "temBAD_AMOUNT";
    if (!isXrp(amount) && tokenFlags(tx.NFTokenID) & NFT_FLAGS.onlyXRP) return "temBAD_AMOUNT";
    if (sell && tx.Owner !== undefined) return "temMALFORMED";
    if (!sell && (tx.Owner === undefined || tx.Owner === tx.Account)) return "temMALFORMED";
    if (tx.Destination === tx.Account) return "temMALFORMED";
    if (tx.Expiration === 0) return "temBAD_EXPIRATION";
    return undefined;
  },
  preclaim(ctx) {
    const { tx, account } = ctx;
    const id: string = tx.NFTokenID;
    const issuer = tokenIssuer(id);
    const sell = ((tx.Flags ?? 0) & LSF.sellNFToken) !== 0;
    if (!(tokenFlags(id) & NFT_FLAGS.transferable) && account !== issuer && (sell ? tx.Destination !== issuer : tx.Owner !== issuer)) {
      return "tefNFTOKEN_IS_NOT_TRANSFERABLE";
    }
    return undefined;
  },
  apply(ctx) {
    const { view, tx, account } = ctx;
    const id = (tx.NFTokenID as string).toUpperCase();
    const sell = ((tx.Flags ?? 0) & LSF.sellNFToken) !== 0;
    if (tx.Expiration !== undefined && tx.Expiration <= ctx.parentCloseTime) return "tecEXPIRED";
    if (!findToken(view, sell ? account : tx.Owner, id)) return "tecNO_ENTRY";
    if (tx.Destination !== undefined && !readAccount(view, tx.Destination)) return "tecNO_DST";
    const amount = parseAmount(tx.Amount)!;
    if (!isXrp(amount)) {
      if (!readAccount(view, amount.issuer)) return "tecNO_ISSUER";
      // A seller must be able to receive the IOU it asks for.
      if (sell && account !== amount.issuer && !readLine(view, account, amount.issuer, amount.currency)) return "tecNO_LINE";
    }
    if (!sell) {
      const buyer = readAccount(view, account)!;
      const funded = isXrp(amount)
        ? balanceOf(buyer) - reserveFor(buyer.OwnerCount ?? 0) >= amount.xrp
        : (() => {
            const available = iouAvailable(view, account, amount.currency, amount.issuer);
            return available === "unlimited" || !available.lt(amount.iou);
          })();
      if (!funded) return "tecUNFUNDED_OFFER";
    }
    const root = readAccount(view, account)!;
    if (ctx.priorBalance < reserveFor((root.OwnerCount ?? 0) + 1)) return "tecINSUFFICIENT_RESERVE";
    const key = nftOfferKey(account, tx.Sequence);
    const offer: Record<string, unknown> = {
      LedgerEntryType: "NFTokenOffer",
      index: key,
      Amount: tx.Amount,
      Flags: sell ? LSF.sellNFToken : 0,
      NFTokenID: id,
      NFTokenOfferNode: "0",
      Owner: account,
      OwnerNode: "0",
    };
    if (tx.Destination !== undefined) offer.Destination = tx.Destination;
    if (tx.Expiration !== undefined) offer.Expiration = tx.Expiration;
    view.insert(offer as never);
    adjustOwnerCount(view, account, 1);
    ctx.meta.offer_id = key;
    return "tesSUCCESS";
  },
};
