import { microFromValue, sameCurrency } from "../ledger/amounts";
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
  constructor(private readonly ledger: Pick<LedgerGateway, "request" | "vvx">) {}

  /** The wallet's VVX in micro-units on the validated ledger: one account_lines (none for an unfunded account or one without the line). */
  async vvxMicro(wallet: string): Promise<bigint> {
    const { currency, issuer } = this.ledger.vvx;
    let lines: { currency: string; account: string; balance: string }[];
    try {
      const res = await this.ledger.request({ command: "account_lines", account: wallet, peer: issuer, ledger_index: "validated" } as never);
      lines = (res as unknown as { result: { lines: typeof lines } }).result.lines;
    } catch (err) {
      if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") return 0n;
      throw err;
    }
    const line = lines.find((l) => sameCurrency(l.currency, currency) && l.account === issuer);
    return line ? microFromValue(line.balance).micro : 0n;
  }

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
