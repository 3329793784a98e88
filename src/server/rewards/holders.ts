import type { LedgerGateway } from "../ledger/gateway";
import type { LedgerReads } from "./ledgerReads";

const LSF_SELL_NFTOKEN = 0x00000001;
/** Transfers followed from one known holder before giving up (a chain of sales nobody here saw). */
const MAX_HOPS = 8;
/** account_tx entries read per account while following an NFT (newest first). */
const TX_SCAN_LIMIT = 400;

type Gateway = Pick<LedgerGateway, "request">;

/** One validated change of an NFT's holder: an accepted offer (from -> to), or a burn (to null). */
export interface NftMove {
  hash: string;
  /** The ledger's close time (the product clock's, in the sandbox); null when the server did not say. */
  closedAtMs: number | null;
  tokenId: string;
  from: string;
  to: string | null;
}

interface AccountTxEntry {
  hash?: string;
  close_time_iso?: string;
  tx_json?: Record<string, unknown>;
  meta?: { TransactionResult?: string; AffectedNodes?: Record<string, { LedgerEntryType?: string; FinalFields?: Record<string, unknown> }>[] };
}

/**
 * The NFT moves among `account`'s newest validated transactions, newest first: each NFTokenAcceptOffer
 * (the deleted offers name the token; the seller is the sell offer's owner, else the account that
 * accepted a buy offer; the buyer is the buy offer's owner, else the account that accepted a sell offer)
 * and each NFTokenBurn. Empty for an account the ledger does not know.
 */
export async function nftMovesOf(ledger: Gateway, account: string): Promise<NftMove[]> {
  let entries: AccountTxEntry[];
  try {
    const res = (await ledger.request({ command: "account_tx", account, ledger_index_min: -1, ledger_index_max: -1, limit: TX_SCAN_LIMIT, forward: false } as never)) as unknown as {
      result: { transactions: AccountTxEntry[] };
    };
    entries = res.result.transactions;
  } catch {
    return []; // an account that does not exist (any more) moved nothing
  }
  const moves: NftMove[] = [];
  for (const { hash, close_time_iso, tx_json: tx, meta } of entries) {
    if (!tx || meta?.TransactionResult !== "tesSUCCESS") continue;
    const base = { hash: String(hash ?? tx.hash ?? ""), closedAtMs: close_time_iso ? Date.parse(close_time_iso) : null };
    if (tx.TransactionType === "NFTokenBurn") {
      moves.push({ ...base, tokenId: String(tx.NFTokenID).toUpperCase(), from: String(tx.Owner ?? tx.Account), to: null });
      continue;
    }
    if (tx.TransactionType !== "NFTokenAcceptOffer") continue;
    const offers = (meta.AffectedNodes ?? []).map((n) => n.DeletedNode).filter((n) => n?.LedgerEntryType === "NFTokenOffer" && n.FinalFields?.NFTokenID).map((n) => n!.FinalFields!);
    const sell = offers.find((o) => (Number(o.Flags ?? 0) & LSF_SELL_NFTOKEN) !== 0);
    const buy = offers.find((o) => (Number(o.Flags ?? 0) & LSF_SELL_NFTOKEN) === 0);
    const offer = sell ?? buy;
    if (!offer) continue;
    moves.push({ ...base, tokenId: String(offer.NFTokenID).toUpperCase(), from: sell ? String(sell.Owner) : String(tx.Account), to: buy ? String(buy.Owner) : String(tx.Account) });
  }
  return moves;
}

/**
 * Finds who holds each of the platform's NFTs on the validated ledger (rippled has no "owner of NFT"
 * query): first among the wallets the platform has seen with it (its buyer, transfer recipients, the
 * wallets paid its rewards), checked with account_nfts; then, for an NFT that left them all (sold or
 * given away in another app), by following its transfers through the last known holder's account_tx:
 * the NFTokenAcceptOffer that took it away names the new holder (the buy offer's owner, else the
 * account that accepted a sell offer).
 */
export class NftHolders {
  constructor(
    private readonly ledger: Gateway,
    private readonly reads: Pick<LedgerReads, "held">,
  ) {}

  /** The holder of each token (absent when burned or not found); `candidates` lists the wallets to try first, most likely first. */
  async holders(candidates: Map<string, string[]>): Promise<Map<string, string>> {
    const heldBy = new Map<string, Promise<Set<string>>>();
    const holds = async (wallet: string, tokenId: string) => {
      let held = heldBy.get(wallet);
      if (!held) heldBy.set(wallet, (held = this.reads.held(wallet, true).then((tokens) => new Set(tokens.map((t) => t.tokenId)))));
      return (await held).has(tokenId);
    };
    const out = new Map<string, string>();
    for (const [tokenId, wallets] of candidates) {
      const known = await firstOf(wallets, (w) => holds(w, tokenId));
      const holder = known ?? (await this.follow(tokenId, wallets, holds));
      if (holder) out.set(tokenId, holder);
    }
    return out;
  }

  /** Follows the token from each known wallet in turn through the transactions that moved it; the holder, or undefined. */
  private async follow(tokenId: string, from: string[], holds: (wallet: string, tokenId: string) => Promise<boolean>): Promise<string | undefined> {
    for (const start of from) {
      let at = start;
      for (let hop = 0; hop < MAX_HOPS; hop++) {
        const move = await this.lastMoveFrom(at, tokenId);
        if (!move?.to) break; // not found, or burned
        if (await holds(move.to, tokenId)) return move.to;
        at = move.to;
      }
    }
    return undefined;
  }

  /** The newest move of `tokenId` away from `account` in its recent history, if it has one. */
  private async lastMoveFrom(account: string, tokenId: string): Promise<NftMove | undefined> {
    return (await nftMovesOf(this.ledger, account)).find((m) => m.tokenId === tokenId && m.from === account);
  }
}

async function firstOf<T>(items: T[], test: (item: T) => Promise<boolean>): Promise<T | undefined> {
  for (const item of items) if (await test(item)) return item;
  return undefined;
}
