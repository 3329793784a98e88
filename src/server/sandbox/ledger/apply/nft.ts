import { parseNFTokenID } from "xrpl";
import { NFT_PAGE_MAX_LOW, nftPageKey } from "../keys";
import type { ApplyView, Entry } from "../view";
import { adjustOwnerCount } from "./common";

/** NFToken flags inside the NFTokenID. */
export const NFT_FLAGS = { burnable: 0x0001, onlyXRP: 0x0002, trustLine: 0x0004, transferable: 0x0008 } as const;

/** rippled's page capacity. */
const PAGE_SIZE = 32;

export interface NFTokenRef {
  NFTokenID: string;
  URI?: string;
}

export const isNftId = (v: unknown): v is string => typeof v === "string" && /^[0-9A-Fa-f]{64}$/.test(v);

/** Walks an owner's NFTokenPage chain from the last page (key ...FFFF) through PreviousPageMin. */
export function ownerPages(view: ApplyView, owner: string): Entry[] {
  const pages: Entry[] = [];
  let key: string | undefined = nftPageKey(owner, NFT_PAGE_MAX_LOW);
  while (key) {
    const page = view.read(key);
    if (!page) break;
    pages.unshift(page);
    key = page.PreviousPageMin;
  }
  return pages;
}

export function ownerTokens(view: ApplyView, owner: string): NFTokenRef[] {
  return ownerPages(view, owner).flatMap((p) => (p.NFTokens as { NFToken: NFTokenRef }[]).map((t) => t.NFToken));
}

export function findToken(view: ApplyView, owner: string, id: string): NFTokenRef | undefined {
  return ownerTokens(view, owner).find((t) => t.NFTokenID === id.toUpperCase());
}

/** rippled orders tokens by their low 96 bits, then the whole ID, so pages cover contiguous key ranges. */
function tokenOrder(a: NFTokenRef, b: NFTokenRef): number {
  const ka = a.NFTokenID.slice(40) + a.NFTokenID;
  const kb = b.NFTokenID.slice(40) + b.NFTokenID;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/**
 * Rewrites an owner's pages to hold exactly `tokens` (up to 32 per page,
 * linked by PreviousPageMin/NextPageMin, the last page keyed ...FFFF), moves
 * the owner count by the change in pages and returns that change.
 */
export function writeOwnerTokens(view: ApplyView, owner: string, tokens: NFTokenRef[]): number {
  const old = ownerPages(view, owner);
  const sorted = [...tokens].sort(tokenOrder);
  const chunks: NFTokenRef[][] = [];
  for (let i = 0; i < sorted.length; i += PAGE_SIZE) chunks.push(sorted.slice(i, i + PAGE_SIZE));
  const keys = chunks.map((chunk, i) => (i === chunks.length - 1 ? nftPageKey(owner, NFT_PAGE_MAX_LOW) : nftPageKey(owner, chunk[chunk.length - 1]!.NFTokenID.slice(40))));
  const oldByKey = new Map(old.map((p) => [p.index, p]));
  chunks.forEach((chunk, i) => {
    const page: Entry = { ...(oldByKey.get(keys[i]!) ?? { LedgerEntryType: "NFTokenPage", index: keys[i]! }) };
    page.NFTokens = chunk.map((t) => ({ NFToken: t.URI ? { NFTokenID: t.NFTokenID, URI: t.URI } : { NFTokenID: t.NFTokenID } }));
    if (i > 0) page.PreviousPageMin = keys[i - 1];
    else delete page.PreviousPageMin;
    if (i < chunks.length - 1) page.NextPageMin = keys[i + 1];
    else delete page.NextPageMin;
    if (oldByKey.has(keys[i]!)) view.update(page);
    else view.insert(page);
  });
  for (const page of old) if (!keys.includes(page.index)) view.erase(page);
  const delta = chunks.length - old.length;
  adjustOwnerCount(view, owner, delta);
  return delta;
}

export function tokenFlags(id: string): number {
  return parseNFTokenID(id).Flags;
}
export function tokenIssuer(id: string): string {
  return parseNFTokenID(id).Issuer;
}
export function tokenTransferFee(id: string): number {
  return parseNFTokenID(id).TransferFee;
}

/** Deletes an NFTokenOffer and gives its owner back the reserve. */
export function removeOffer(view: ApplyView, offer: Entry): void {
  view.erase(offer);
  adjustOwnerCount(view, offer.Owner, -1);
}
