import { microFromValue, sameCurrency } from "../ledger/amounts";
import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";

/** An NFT an account holds (account_nfts). */
export interface HeldToken {
  tokenId: string;
  taxon: number;
  issuer: string;
}

/** An NFTokenOffer ledger entry, as the transfer flow needs it. */
export interface NftOffer {
  offerId: string;
  tokenId: string;
  owner: string;
  destination: string | null;
  /** "0" for a free transfer (XRP drops), else the asked amount as JSON text. */
  amount: string;
  sell: boolean;
}

const LSF_SELL_NFTOKEN = 0x00000001;
/** Most cached holdings kept (a bound, not a tuning knob). */
const MAX_CACHED = 10_000;

type Gateway = Pick<LedgerGateway, "request" | "on" | "platformAddress" | "vvx">;

function offerOf(entry: Record<string, unknown>, id?: string): NftOffer {
  const amount = entry.Amount ?? entry.amount;
  return {
    offerId: String(id ?? entry.index ?? entry.nft_offer_index ?? "").toUpperCase(),
    tokenId: String(entry.NFTokenID ?? "").toUpperCase(),
    owner: String(entry.Owner ?? entry.owner ?? ""),
    destination: (entry.Destination ?? entry.destination ?? null) as string | null,
    amount: typeof amount === "string" ? amount : JSON.stringify(amount),
    sell: ((Number(entry.Flags ?? entry.flags ?? 0) & LSF_SELL_NFTOKEN) !== 0) as boolean,
  };
}

/**
 * The rewards feature's reads of the validated ledger. Holdings are cached per validated ledger:
 * they cannot change until a ledger with transactions closes, so every reader in between shares one
 * account_nfts walk (and concurrent readers share the request in flight). Claims read fresh.
 */
export class LedgerReads {
  private cache = new Map<string, Promise<HeldToken[]>>();
  /** The walks of `cache` that have answered (same ledger, same lifetime). */
  private answered = new Map<string, HeldToken[]>();
  /** The last close seen, while the connection has seen every close since the cache began. */
  private lastClose: number | undefined;
  private readonly offs: (() => void)[];

  constructor(private readonly ledger: Gateway) {
    this.offs = [
      ledger.on("ledgerClosed", (l) => {
        // A ledger without transactions changes no holdings (a second's close on an idle sandbox, most
        // closes of a quiet network): the answers stay true. A close with transactions, a gap (a close
        // missed) or a count the stream did not give starts over.
        const unchanged = l.txn_count === 0 && this.lastClose !== undefined && l.ledger_index === this.lastClose + 1;
        this.lastClose = l.ledger_index;
        if (!unchanged) this.forget();
      }),
      // Closes may have been missed while the connection was down.
      ledger.on("disconnected", () => this.forget()),
      ledger.on("connected", () => this.forget()),
    ];
  }

  stop(): void {
    for (const off of this.offs.splice(0)) off();
  }

  private forget(): void {
    this.cache = new Map();
    this.answered = new Map();
  }

  /** The platform-issued NFTs `wallet` holds in the validated ledger (cached until a close with transactions, a missed close or a reconnection, unless `fresh`). */
  held(wallet: string, fresh = false): Promise<HeldToken[]> {
    if (fresh) return this.walk(wallet);
    const cached = this.cache.get(wallet);
    if (cached) return cached;
    if (this.cache.size >= MAX_CACHED) this.forget();
    const { cache, answered } = this;
    const job = this.walk(wallet);
    cache.set(wallet, job);
    job.then(
      (tokens) => cache.get(wallet) === job && answered.set(wallet, tokens),
      () => cache.get(wallet) === job && cache.delete(wallet),
    );
    return job;
  }

  /** What `held(wallet)` would answer when its walk of the current ledger has answered already (no await); else undefined. */
  heldNow(wallet: string): HeldToken[] | undefined {
    return this.answered.get(wallet);
  }

  /** Whether `wallet` holds `tokenId` in the validated ledger (read now, not from the cache). */
  async holds(wallet: string, tokenId: string): Promise<boolean> {
    return (await this.held(wallet, true)).some((t) => t.tokenId === tokenId);
  }

  private async walk(wallet: string): Promise<HeldToken[]> {
    const out: HeldToken[] = [];
    let marker: unknown;
    do {
      let result: { account_nfts: { NFTokenID: string; NFTokenTaxon: number; Issuer: string }[]; marker?: unknown };
      try {
        const res = await this.ledger.request({ command: "account_nfts", account: wallet, ledger_index: "validated", limit: 400, ...(marker ? { marker } : {}) } as never);
        result = (res as unknown as { result: typeof result }).result;
      } catch (err) {
        if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") return [];
        throw err;
      }
      for (const t of result.account_nfts) {
        if (t.Issuer === this.ledger.platformAddress) out.push({ tokenId: t.NFTokenID.toUpperCase(), taxon: t.NFTokenTaxon, issuer: t.Issuer });
      }
      marker = result.marker;
    } while (marker);
    return out;
  }

  /** Whether an account exists in the validated ledger. */
  async accountExists(address: string): Promise<boolean> {
    try {
      await this.ledger.request({ command: "account_info", account: address, ledger_index: "validated" } as never);
      return true;
    } catch (err) {
      if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") return false;
      throw err;
    }
  }

  /** The treasury's validated VVX balance in micro-VVX; null when the treasury is the issuer (no limit). */
  async treasuryVvxMicro(): Promise<bigint | null> {
    const { vvx, platformAddress } = this.ledger;
    if (platformAddress === vvx.issuer) return null;
    const res = (await this.ledger.request({ command: "account_lines", account: platformAddress, peer: vvx.issuer, ledger_index: "validated" } as never)) as unknown as {
      result: { lines: { account: string; currency: string; balance: string }[] };
    };
    const line = res.result.lines.find((l) => l.account === vvx.issuer && sameCurrency(l.currency, vvx.currency));
    if (!line || line.balance.startsWith("-")) return 0n;
    return microFromValue(line.balance).micro;
  }

  /** One NFTokenOffer by its index, or undefined when it no longer exists. */
  async offer(offerId: string): Promise<NftOffer | undefined> {
    try {
      const res = (await this.ledger.request({ command: "ledger_entry", index: offerId, ledger_index: "validated" } as never)) as unknown as { result: { node: Record<string, unknown> } };
      const node = res.result.node;
      if (node.LedgerEntryType !== "NFTokenOffer") return undefined;
      return offerOf(node, offerId);
    } catch (err) {
      if (err instanceof LedgerRequestError && (err.ledgerError === "entryNotFound" || err.ledgerError === "objectNotFound")) return undefined;
      throw err;
    }
  }

  /** The sell offers of an NFT (none: an empty list). */
  async sellOffers(tokenId: string): Promise<NftOffer[]> {
    try {
      const res = (await this.ledger.request({ command: "nft_sell_offers", nft_id: tokenId, ledger_index: "validated" } as never)) as unknown as {
        result: { offers?: Record<string, unknown>[] };
      };
      return (res.result.offers ?? []).map((o) => ({ ...offerOf(o, String(o.nft_offer_index)), tokenId, sell: true }));
    } catch (err) {
      if (err instanceof LedgerRequestError && err.ledgerError === "objectNotFound") return [];
      throw err;
    }
  }

  /** The NFT offers an account owns (account_objects, type nft_offer). */
  async offersOwnedBy(wallet: string): Promise<NftOffer[]> {
    const out: NftOffer[] = [];
    let marker: unknown;
    do {
      let result: { account_objects: Record<string, unknown>[]; marker?: unknown };
      try {
        const res = await this.ledger.request({ command: "account_objects", account: wallet, type: "nft_offer", ledger_index: "validated", limit: 400, ...(marker ? { marker } : {}) } as never);
        result = (res as unknown as { result: typeof result }).result;
      } catch (err) {
        if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") return [];
        throw err;
      }
      out.push(...result.account_objects.filter((o) => o.LedgerEntryType === "NFTokenOffer").map((o) => offerOf(o)));
      marker = result.marker;
    } while (marker);
    return out;
  }
}
