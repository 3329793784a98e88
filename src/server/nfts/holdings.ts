import { accruedTotalMicro, daysSincePurchase, DAYS_PER_REWARD_MONTH, microToVvxNumber, MS_PER_DAY, nftDisplayName, percentText, rewardCapMicro, tierFromTaxon, type RewardTerms } from "../../engine";
import type { Clock } from "../platform/clock";
import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";
import { formatVvx, type NftCatalog } from "./catalog";
import type { NftRepository, TierRow } from "./repository";

/** An NFT as account_nfts lists it. */
export interface LedgerNft {
  NFTokenID: string;
  NFTokenTaxon: number;
  Issuer: string;
  URI?: string;
}

function tierTerms(tier: TierRow): RewardTerms {
  return {
    priceVvx: microToVvxNumber(tier.priceMicroVvx),
    monthlyRoiBps: tier.roiMonthlyBp,
    durationMonths: tier.durationMonths,
    fullClaimTargetVvx: microToVvxNumber(tier.fullClaimTargetMicroVvx),
  };
}

/** What wallets hold on the ledger: the platform's NFTs with their tier and reward figures. Reads only. */
export class Holdings {
  constructor(
    private readonly repo: NftRepository,
    private readonly catalog: NftCatalog,
    private readonly ledger: Pick<LedgerGateway, "request" | "platformAddress">,
    private readonly clock: Clock,
  ) {}

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

  /** The platform's NFTs `wallet` holds on the ledger, with tier and reward figures. */
  async walletNfts(wallet: string, nowMs = this.clock.now()) {
    const held = (await this.accountNfts(wallet)).filter((t) => t.Issuer === this.ledger.platformAddress);
    const ids = held.map((t) => t.NFTokenID.toUpperCase());
    const purchases = new Map(this.repo.byTokenIds(ids).map((p) => [p.tokenId!, p]));
    const records = new Map(this.repo.nftsByTokenIds(ids).map((n) => [n.tokenId, n]));
    const paid = this.repo.rewardsPaid(ids);
    const out = [];
    for (const t of held) {
      const tokenId = t.NFTokenID.toUpperCase();
      const info = tierFromTaxon(t.NFTokenTaxon);
      const tier = info.tier === "UNKNOWN" ? undefined : this.catalog.tierByCode(info.tier);
      if (!tier) continue;
      const purchase = purchases.get(tokenId);
      const mintedAt = records.get(tokenId)?.mintedAt ?? purchase?.mintedAt ?? null;
      const since = purchase?.paidAt ?? mintedAt;
      const terms = tierTerms(tier);
      const endMs = since ? since.getTime() + tier.durationMonths * DAYS_PER_REWARD_MONTH * MS_PER_DAY : null;
      const nextMs = since && endMs && nowMs < endMs ? since.getTime() + (daysSincePurchase(since.getTime(), nowMs) + 1) * MS_PER_DAY : null;
      out.push({
        id: tokenId,
        tokenId,
        name: nftDisplayName(t.NFTokenTaxon, tokenId),
        number: info.number,
        taxon: t.NFTokenTaxon,
        tier: { name: tier.name, tier: tier.tier, roiPercentage: percentText(tier.roiMonthlyBp), durationMonths: tier.durationMonths, price: `${formatVvx(tier.priceMicroVvx)} VVX` },
        tierId: tier.id,
        mintedAt: mintedAt?.toISOString() ?? null,
        purchasedAt: since?.toISOString() ?? null,
        rewardsEarned: microToVvxNumber(since ? accruedTotalMicro(terms, since.getTime(), nowMs) : 0n),
        totalRewardsEarned: microToVvxNumber(rewardCapMicro(terms)),
        rewardsPaid: microToVvxNumber(paid.get(tokenId) ?? 0),
        nextRewardDate: nextMs ? new Date(nextMs).toISOString() : null,
        imageUrl: this.catalog.imageUrl(tier),
      });
    }
    return out;
  }
}
