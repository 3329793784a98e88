import type { TxHandler } from "./context";
import { hasOnlyFlags } from "./context";
import { readAccount } from "./common";
import { NFT_FLAGS, findToken, isNftId, ownerTokens, removeOffer, tokenFlags, tokenIssuer, writeOwnerTokens } from "./nft";

export const nftokenBurn: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, 0)) return "temINVALID_FLAG";
    if (!isNftId(tx.NFTokenID)) return "temMALFORMED";
    return undefined;
  },
  apply(ctx) {
    const { view, tx, account } = ctx;
    const id = (tx.NFTokenID as string).toUpperCase();
    const owner: string = tx.Owner ?? account;
    if (!findToken(view, owner, id)) return "tecNO_ENTRY";
    const issuer = tokenIssuer(id);
    if (owner !== account && !(issuer === account && tokenFlags(id) & NFT_FLAGS.burnable)) return "tecNO_PERMISSION";
    writeOwnerTokens(view, owner, ownerTokens(view, owner).filter((t) => t.NFTokenID !== id));
    const issuerRoot = readAccount(view, issuer);
    if (issuerRoot) {
      issuerRoot.BurnedNFTokens = (issuerRoot.BurnedNFTokens ?? 0) + 1;
      view.update(issuerRoot);
    }
    // Offers for a burnt token can never be accepted: rippled removes them with the token.
    for (const key of ctx.offersFor(id)) {
      const offer = view.read(key);
      if (offer) removeOffer(view, offer);
    }
    return "tesSUCCESS";
  },
};
