import type { TerCode } from "../codes";
import { nftOfferKey, nftokenId } from "../keys";
import type { TxContext, TxHandler } from "./context";
import { hasOnlyFlags } from "./context";
import { LSF, adjustOwnerCount, isXrp, parseAmount, readAccount, reserveFor } from "./common";
import { NFT_FLAGS, ownerTokens, writeOwnerTokens } from "./nft";

const MAX_TRANSFER_FEE = 50_000;

export const nftokenMint: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, NFT_FLAGS.burnable | NFT_FLAGS.onlyXRP | NFT_FLAGS.transferable)) return "temINVALID_FLAG";
    if (!Number.isInteger(tx.NFTokenTaxon) || tx.NFTokenTaxon < 0) return "temMALFORMED";
    const fee = tx.TransferFee ?? 0;
    if (fee > MAX_TRANSFER_FEE) return "temBAD_NFTOKEN_TRANSFER_FEE";
    if (fee > 0 && !((tx.Flags ?? 0) & NFT_FLAGS.transferable)) return "temMALFORMED";
    if (tx.Issuer === tx.Account) return "temMALFORMED";
    if (tx.URI !== undefined && (typeof tx.URI !== "string" || tx.URI.length === 0 || tx.URI.length > 512)) return "temMALFORMED";
    // Mint and offer (fixNFTokenMintOffer): Destination and Expiration only with an Amount.
    if (tx.Amount === undefined) return tx.Destination !== undefined || tx.Expiration !== undefined ? "temMALFORMED" : undefined;
    const amount = parseAmount(tx.Amount);
    if (!amount || (isXrp(amount) ? amount.xrp < 0n : amount.iou.signum() < 0)) return "temBAD_AMOUNT";
    if (!isXrp(amount) && (tx.Flags ?? 0) & NFT_FLAGS.onlyXRP) return "temBAD_AMOUNT";
    if (tx.Expiration === 0) return "temBAD_EXPIRATION";
    if (tx.Destination === tx.Account) return "temMALFORMED";
    return undefined;
  },
  apply(ctx) {
    const { view, tx, account } = ctx;
    const issuerAddress: string = tx.Issuer ?? account;
    const issuer = readAccount(view, issuerAddress);
    if (!issuer) return "tecNO_ISSUER";
    if (issuerAddress !== account && issuer.NFTokenMinter !== account) return "tecNO_PERMISSION";
    // fixNFTokenRemint: token sequences start at the issuer's account sequence when it first mints.
    const first: number = issuer.FirstNFTokenSequence ?? (issuerAddress === account ? tx.Sequence : issuer.Sequence);
    const minted: number = issuer.MintedNFTokens ?? 0;
    const sequence = first + minted;
    if (sequence > 0xffffffff) return "tecMAX_SEQUENCE_REACHED";
    issuer.FirstNFTokenSequence = first;
    issuer.MintedNFTokens = minted + 1;
    view.update(issuer);

    const id = nftokenId((tx.Flags ?? 0) & 0xffff, tx.TransferFee ?? 0, issuerAddress, tx.NFTokenTaxon, sequence);
    const token = tx.URI ? { NFTokenID: id, URI: tx.URI } : { NFTokenID: id };
    const added = writeOwnerTokens(view, account, [...ownerTokens(view, account), token]);
    if (added > 0 && ctx.priorBalance < reserveFor(readAccount(view, account)!.OwnerCount)) return "tecINSUFFICIENT_RESERVE";
    ctx.meta.nftoken_id = id;
    return tx.Amount === undefined ? "tesSUCCESS" : mintOffer(ctx, id);
  },
};

/** The sell offer NFTokenMint creates with Amount (as NFTokenCreateOffer would, from the minter). */
function mintOffer(ctx: TxContext, id: string): TerCode {
  const { view, tx, account } = ctx;
  if (tx.Expiration !== undefined && tx.Expiration <= ctx.parentCloseTime) return "tecEXPIRED";
  if (tx.Destination !== undefined && !readAccount(view, tx.Destination)) return "tecNO_DST";
  const amount = parseAmount(tx.Amount)!;
  if (!isXrp(amount) && !readAccount(view, amount.issuer)) return "tecNO_ISSUER";
  const root = readAccount(view, account)!;
  if (ctx.priorBalance < reserveFor((root.OwnerCount ?? 0) + 1)) return "tecINSUFFICIENT_RESERVE";
  const key = nftOfferKey(account, tx.Sequence);
  view.insert({
    LedgerEntryType: "NFTokenOffer",
    index: key,
    Amount: tx.Amount,
    Flags: LSF.sellNFToken,
    NFTokenID: id,
    NFTokenOfferNode: "0",
    Owner: account,
    OwnerNode: "0",
    ...(tx.Destination !== undefined ? { Destination: tx.Destination } : {}),
    ...(tx.Expiration !== undefined ? { Expiration: tx.Expiration } : {}),
  });
  adjustOwnerCount(view, account, 1);
  ctx.meta.offer_id = key;
  return "tesSUCCESS";
}
