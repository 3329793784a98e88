import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";

/** An NFT as account_nfts lists it. */
export interface LedgerNft {
  NFTokenID: string;
  NFTokenTaxon: number;
  Issuer: string;
  URI?: string;
}

/**
 * What a wallet holds on the ledger (validated), as the acceptance check needs it. What holders
 * see of their NFTs (tiers, rewards) is the rewards feature's.
 */
export class Holdings {
  constructor(private readonly ledger: Pick<LedgerGateway, "request">) {}

  /** Every NFT an account holds in the validated ledger (all pages); none for an unfunded account. */
  async accountNfts(wallet: string): Promise<LedgerNft[]> {
    const out: LedgerNft[] = [];
    let marker: unknown;
    do {
      let result: { account_nfts: LedgerNft[]; marker?: unknown };
      try {
        const res = await this.ledger.request({ command: "account_nfts", account: wallet, ledger_index: "validated", limit: 400, ...(marker ? { marker } : {}) } as never);
        result = (res as unknown as { result: typeof result }).result;
      } catch (err) {
        if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") return out;
        throw err;
      }
      out.push(...result.account_nfts);
      marker = result.marker;
    } while (marker);
    return out;
  }

  /** Whether `wallet` holds the NFT in the validated ledger. */
  async holds(wallet: string, tokenId: string): Promise<boolean> {
    return (await this.accountNfts(wallet)).some((t) => t.NFTokenID.toUpperCase() === tokenId);
  }
}
