import type { TxHandler } from "./context";
import { hasOnlyFlags } from "./context";
import { removeOffer } from "./nft";

const MAX_OFFERS = 500;

export const nftokenCancelOffer: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, 0)) return "temINVALID_FLAG";
    const offers = tx.NFTokenOffers;
    if (!Array.isArray(offers) || offers.length === 0 || offers.length > MAX_OFFERS) return "temMALFORMED";
    if (new Set(offers.map((o: string) => o.toUpperCase())).size !== offers.length) return "temMALFORMED";
    return undefined;
  },
  apply(ctx) {
    const cancelled: string[] = [];
    for (const key of ctx.tx.NFTokenOffers as string[]) {
      const offer = ctx.view.read(key.toUpperCase());
      if (!offer) continue; // rippled skips offers that are already gone
      if (offer.LedgerEntryType !== "NFTokenOffer") return "tecNO_PERMISSION";
      const expired = offer.Expiration !== undefined && offer.Expiration <= ctx.parentCloseTime;
      if (offer.Owner !== ctx.account && offer.Destination !== ctx.account && !expired) return "tecNO_PERMISSION";
      removeOffer(ctx.view, offer);
      cancelled.push(offer.NFTokenID);
    }
    ctx.meta.nftoken_ids = [...new Set(cancelled)];
    return "tesSUCCESS";
  },
};
