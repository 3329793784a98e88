import { formatMicroVvx, microToVvxNumber, nftDisplayName, percentText } from "../../engine";
import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config";
import { NotFoundError, ValidationError } from "../platform/errors";
import type { NftRepository, TierRow } from "./repository";

/** Whole VVX with thousands separators: 500000000000 micro -> "500,000". */
export function formatVvx(micro: number | bigint): string {
  const [int, frac] = formatMicroVvx(BigInt(micro)).split(".");
  return BigInt(int!).toLocaleString("en-US") + (frac ? "." + frac : "");
}

/** A tier code the marketplace knows. */
export type TierCode = "GENESIS" | "OASIS";

/**
 * What the marketplace shows: tiers with their live supply, the availability and minting figures,
 * the admin vault and the metadata JSON each NFT's URI points to. Reads only.
 */
export class NftCatalog {
  constructor(
    private readonly repo: NftRepository,
    private readonly config: Pick<Config, "publicUrl">,
    private readonly clock: Clock,
  ) {}

  imageUrl(tier: TierRow, absolute = false): string {
    const path = `/assets/nfts/${tier.tier === "OASIS" ? "oasis" : "genesis"}.svg`;
    return absolute ? this.config.publicUrl + path : path;
  }

  /** Where NFT #number of a tier keeps its metadata (the NFT's URI). */
  metadataUrl(tierId: number, number: number): string {
    return `${this.config.publicUrl}/api/nfts/metadata/${tierId}/${number}`;
  }

  /** Units still available: max supply minus paid and reserved units. */
  available(tier: TierRow): number {
    return Math.max(0, tier.maxSupply - this.repo.heldUnits(tier.id));
  }

  tierView(tier: TierRow) {
    return {
      id: tier.id,
      name: tier.name,
      description: tier.description,
      tier: tier.tier,
      price: `${formatVvx(tier.priceMicroVvx)} VVX`,
      priceVvx: microToVvxNumber(tier.priceMicroVvx),
      roiPercentage: percentText(tier.roiMonthlyBp),
      totalRoiPercentage: percentText(tier.roiMonthlyBp * tier.durationMonths),
      durationMonths: tier.durationMonths,
      payoutFrequency: "Monthly",
      currentSupply: this.available(tier),
      maxSupply: tier.maxSupply,
      minted: this.repo.mintedCount(tier.id),
      imageUrl: this.imageUrl(tier),
      isActive: tier.isActive,
      isPopular: tier.isPopular,
    };
  }

  tiers() {
    return this.repo.tiers().map((t) => this.tierView(t));
  }

  /** The tier with this id; 400 naming `field` when there is none. */
  tier(id: number, field = "tierId"): TierRow {
    const tier = this.repo.tier(id);
    if (!tier) throw new ValidationError(field, `Field '${field}': there is no NFT tier ${id}`);
    return tier;
  }

  tierByCode(code: TierCode): TierRow | undefined {
    return this.repo.tiers().find((t) => t.tier === code);
  }

  availability() {
    const of = (code: TierCode) => {
      const tier = this.tierByCode(code);
      return tier ? { currentSupply: this.available(tier), maxSupply: tier.maxSupply } : { currentSupply: 0, maxSupply: 0 };
    };
    return { genesis: of("GENESIS"), oasis: of("OASIS") };
  }

  mintingStatus() {
    const of = (code: TierCode) => {
      const tier = this.tierByCode(code);
      if (!tier) return { minted: 0, remaining: 0, total: 0 };
      const minted = this.repo.mintedCount(tier.id);
      return { minted, remaining: Math.max(0, tier.maxSupply - minted), total: tier.maxSupply };
    };
    const genesis = of("GENESIS");
    const oasis = of("OASIS");
    return {
      success: true as const,
      genesis,
      oasis,
      total: { minted: genesis.minted + oasis.minted, remaining: genesis.remaining + oasis.remaining, total: genesis.total + oasis.total },
      trackedInDatabase: true,
      timestamp: this.clock.date().toISOString(),
    };
  }

  /** Admin vault rows (spec part 2): minted = NFTs on the ledger, sold = paid purchases. */
  vaultSummary() {
    return this.repo.tiers().map((t) => ({
      tier_id: t.id,
      tier_name: t.name,
      minted_count: this.repo.mintedCount(t.id),
      max_supply: t.maxSupply,
      sold_count: this.repo.soldUnits(t.id),
    }));
  }

  /** The JSON an NFT's URI points to; 404 for a number not minted (or being minted) yet. */
  metadata(tierId: number, number: number) {
    const tier = this.repo.tier(tierId);
    if (!tier) throw new NotFoundError(`There is no NFT tier ${tierId}`, "TIER_NOT_FOUND");
    const record = this.repo.nftByNumber(tierId, number);
    const purchase = this.repo.purchaseByNumber(tierId, number);
    if (!record && !purchase) throw new NotFoundError(`${tier.name} NFT #${number} has not been minted`, "NFT_NOT_FOUND");
    const taxon = record?.taxon ?? purchase!.taxon!;
    const tokenId = record?.tokenId ?? purchase?.tokenId ?? undefined;
    const name = nftDisplayName(taxon, tokenId);
    const roi = percentText(tier.roiMonthlyBp);
    return {
      name,
      description: `${name}: VVX ${tier.name} tier, ${roi}% monthly VVX rewards for ${tier.durationMonths} months (${percentText(tier.roiMonthlyBp * tier.durationMonths)}% total). ${tier.description}`,
      image: this.imageUrl(tier, true),
      external_url: `${this.config.publicUrl}/my-nfts`,
      tier: tier.tier,
      tierId: tier.id,
      tierName: tier.name,
      number,
      taxon,
      tokenId: tokenId ?? null,
      price: `${formatVvx(tier.priceMicroVvx)} VVX`,
      attributes: [
        { trait_type: "Tier", value: tier.name },
        { trait_type: "Number", value: number },
        { trait_type: "Monthly ROI", value: `${roi}%` },
        { trait_type: "Duration", value: `${tier.durationMonths} months` },
        { trait_type: "Payout", value: "Monthly" },
      ],
    };
  }
}
