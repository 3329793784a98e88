import type { ClipboardEvent } from "react";
import { nftNameOfTokenId } from "../../engine";
import { copyWithToast } from "../lib/clipboard";

/**
 * Hex digits of a token id shown, from its end: an XLS-20 id starts with the flags, fee and issuer that every
 * NFT of the platform shares; its last 12 digits (part of the scrambled taxon and the sequence) differ.
 */
const SHOWN_DIGITS = 12;

/** "…9E0000000C": the part of a token id that tells NFTs apart. */
export const tokenIdTail = (id: string) => `…${id.slice(-SHOWN_DIGITS)}`;

/** A token id as its distinctive end, the whole id on hover, on Copy and when the shown text is copied. */
export function TokenId({ id }: { id: string }) {
  const copyWhole = (e: ClipboardEvent) => {
    e.clipboardData.setData("text/plain", id);
    e.preventDefault();
  };
  return (
    <span className="token-id">
      <code title={id} onCopy={copyWhole} data-testid="token-id">
        {tokenIdTail(id)}
      </code>
      <CopyButton text={id} copied="Token ID Copied" label="Copy the full token ID" />
    </span>
  );
}

/** A small 'Copy' button that copies `text` and toasts `copied`. */
export function CopyButton({ text, copied, label }: { text: string; copied: string; label: string }) {
  return (
    <button type="button" className="copy-link" onClick={() => void copyWithToast(text, copied)} aria-label={label}>
      Copy
    </button>
  );
}

/** "Genesis NFT #3 (…9E0000000C Copy)" once the token exists, "Genesis NFT" before (or for a taxon of no tier). */
export function NftLabel({ tierName, tokenId }: { tierName: string; tokenId: string | null | undefined }) {
  if (!tokenId) return <>{tierName} NFT</>;
  const name = nftNameOfTokenId(tokenId);
  return (
    <>
      <strong>{name === "Unknown NFT" ? `${tierName} NFT` : name}</strong>{" "}
      <span className="token-id">
        (<TokenId id={tokenId} />)
      </span>
    </>
  );
}
