import { addressFromIdHex, bookBaseOf } from "./keys";
import type { Entry } from "./view";

/** Accounts a transaction touches (rippled's affected accounts): its own fields and every object in its metadata. */
export function affectedAccounts(tx: Record<string, any>, meta: Record<string, any>): string[] {
  const found = new Set<string>();
  for (const field of ["Account", "Destination", "Owner", "Issuer"]) if (typeof tx[field] === "string") found.add(tx[field]);
  for (const node of meta.AffectedNodes as Record<string, any>[]) {
    const inner = Object.values(node)[0] as Record<string, any>;
    for (const fields of [inner.FinalFields, inner.NewFields, inner.PreviousFields]) {
      if (!fields) continue;
      for (const field of ["Account", "Owner", "Destination"]) if (typeof fields[field] === "string") found.add(fields[field]);
      for (const field of ["LowLimit", "HighLimit"]) if (fields[field]?.issuer) found.add(fields[field].issuer);
    }
    if (inner.LedgerEntryType === "NFTokenPage") found.add(addressFromIdHex(inner.LedgerIndex.slice(0, 40)));
  }
  return [...found];
}

/** Which accounts list an object in account_objects / account_lines. */
export function ownersOf(entry: Entry): string[] {
  switch (entry.LedgerEntryType) {
    case "RippleState":
      return [entry.LowLimit.issuer, entry.HighLimit.issuer];
    case "NFTokenOffer":
      return [entry.Owner];
    case "Offer":
      return [entry.Account];
    case "NFTokenPage":
      return [addressFromIdHex(entry.index.slice(0, 40))];
    case "AMM":
      return [entry.Account];
    default:
      return [];
  }
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}

/** In-memory indexes over the current state: objects by owner, NFT offers by token, DEX offers by book. */
export class StateIndex {
  readonly owned = new Map<string, Set<string>>();
  readonly offersByToken = new Map<string, Set<string>>();
  readonly offersByBook = new Map<string, Set<string>>();

  add(entry: Entry): void {
    for (const owner of ownersOf(entry)) addTo(this.owned, owner, entry.index);
    if (entry.LedgerEntryType === "NFTokenOffer") addTo(this.offersByToken, entry.NFTokenID, entry.index);
    if (entry.LedgerEntryType === "Offer") addTo(this.offersByBook, bookBaseOf(entry.TakerPays, entry.TakerGets), entry.index);
  }

  remove(entry: Entry): void {
    for (const owner of ownersOf(entry)) this.owned.get(owner)?.delete(entry.index);
    if (entry.LedgerEntryType === "NFTokenOffer") this.offersByToken.get(entry.NFTokenID)?.delete(entry.index);
    if (entry.LedgerEntryType === "Offer") this.offersByBook.get(bookBaseOf(entry.TakerPays, entry.TakerGets))?.delete(entry.index);
  }
}
