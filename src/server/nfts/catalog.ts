import { t } from "elysia";
import { formatMicroVvx, groupThousands, microToVvxNumber, nftDisplayName, percentText } from "../../engine";
import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config";
import { NotFoundError, ValidationError } from "../platform/errors";
import { AvailabilityResponse, MintingStatusResponse, TiersResponse, VaultResponse, type VaultRow } from "../../shared/api/nfts";
import { jsonEncoder, withLastField, type CachedJson } from "../platform/http/cachedJson";
import { settledThen, type ReadModel, type ReadModelSet } from "../platform/db/readModels";
import type { NftRepository, TierCounts, TierRow } from "./repository";

const encode = {
  tiers: jsonEncoder<ReturnType<NftCatalog["tierView"]>[]>(TiersResponse, "NFT tiers"),
  availability: jsonEncoder<AvailabilityResponse>(AvailabilityResponse, "NFT availability"),
  minting: jsonEncoder<Omit<MintingStatusResponse, "timestamp">>(t.Omit(MintingStatusResponse, ["timestamp"]), "NFT minting status"),
  vault: jsonEncoder<VaultRow[]>(VaultResponse, "NFT vault summary"),
};

/** The catalog's responses as their routes send them. */
export interface CatalogJson {
  tiers: CachedJson<ReturnType<NftCatalog["tierView"]>[]>;
  availability: CachedJson<AvailabilityResponse>;
  minting: CachedJson<Omit<MintingStatusResponse, "timestamp">>;
  vault: CachedJson<VaultRow[]>;
}

/** The tables the tiers' supply figures are read from. */
const SUPPLY_TABLES = ["nft_tiers", "nft_purchases", "payment_requests", "nfts"] as const;
const NO_UNITS: TierCounts = Object.freeze({ held: 0, sold: 0, minted: 0 });

/** Whole VVX with thousands separators: 500000000000 micro -> "500,000". */
export function formatVvx(micro: number | bigint): string {
  return groupThousands(formatMicroVvx(BigInt(micro)));
}

/** A tier code the marketplace knows. */
export type TierCode = "GENESIS" | "OASIS";

/**
 * What the marketplace shows: tiers with their live supply, the availability and minting figures,
 * the admin vault and the metadata JSON each NFT's URI points to. Reads only.
 */
export class NftCatalog {
  /**
   * The tiers with their counts, rebuilt after any write to the tables they come from (a
   * purchase, a payment request opening or closing, a mint, an admin edit): see ReadModels.
   */
  private readonly views: ReadModel<Promise<CatalogJson>>;

  constructor(
    private readonly repo: NftRepository,
    private readonly config: Pick<Config, "publicUrl">,
    private readonly clock: Clock,
    models: ReadModelSet,
  ) {
    this.views = models.model(SUPPLY_TABLES, async () => {
      const [tiers, counts] = await Promise.all([repo.tiers(), repo.tierCounts()]);
      const v = this.buildViews(tiers, counts);
      return { tiers: encode.tiers(v.tiers), availability: encode.availability(v.availability), minting: encode.minting(v.minting), vault: encode.vault(v.vault) };
    });
  }

  imageUrl(tier: TierRow, absolute = false): string {
    const path = `/assets/nfts/${tier.tier === "OASIS" ? "oasis" : "genesis"}.svg`;
    return absolute ? this.config.publicUrl + path : path;
  }

  /** Where NFT #number of a tier keeps its metadata (the NFT's URI). */
  metadataUrl(tierId: number, number: number): string {
    return `${this.config.publicUrl}/api/nfts/metadata/${tierId}/${number}`;
  }

  /** Units still available: max supply minus paid and reserved units. */
  private available(tier: TierRow, counts: TierCounts): number {
    return Math.max(0, tier.maxSupply - counts.held);
  }

  private tierView(tier: TierRow, counts: TierCounts) {
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
      currentSupply: this.available(tier, counts),
      maxSupply: tier.maxSupply,
      minted: counts.minted,
      imageUrl: this.imageUrl(tier),
      isActive: tier.isActive,
      isPopular: tier.isPopular,
    };
  }

  /** Every response of the catalog that depends only on the tables (built together, cached together). */
  private buildViews(tiers: TierRow[], countsOf: Map<number, TierCounts>) {
    const counts = (tierId: number) => countsOf.get(tierId) ?? NO_UNITS;
    const byCode = (code: TierCode) => tiers.find((t) => t.tier === code);
    const availability = (code: TierCode) => {
      const tier = byCode(code);
      return tier ? { currentSupply: this.available(tier, counts(tier.id)), maxSupply: tier.maxSupply } : { currentSupply: 0, maxSupply: 0 };
    };
    const minting = (code: TierCode) => {
      const tier = byCode(code);
      if (!tier) return { minted: 0, remaining: 0, total: 0 };
      const { minted } = counts(tier.id);
      return { minted, remaining: Math.max(0, tier.maxSupply - minted), total: tier.maxSupply };
    };
    const [genesis, oasis] = [minting("GENESIS"), minting("OASIS")];
    return {
      tiers: tiers.map((t) => this.tierView(t, counts(t.id))),
      availability: { success: true as const, genesis: availability("GENESIS"), oasis: availability("OASIS") },
      minting: {
        success: true as const,
        genesis,
        oasis,
        total: { minted: genesis.minted + oasis.minted, remaining: genesis.remaining + oasis.remaining, total: genesis.total + oasis.total },
        trackedInDatabase: true,
      },
      // Admin vault rows (spec part 2): minted = NFTs on the ledger, sold = paid purchases.
      vault: tiers.map((t) => ({ tier_id: t.id, tier_name: t.name, minted_count: counts(t.id).minted, max_supply: t.maxSupply, sold_count: counts(t.id).sold })),
    };
  }

  /** The catalog's responses, checked against their schemas and serialized once per change of the tables. */
  json(): Promise<CatalogJson> {
    return this.views.get();
  }

  /** A response made from the cached views: synchronous while they are unchanged (the hot reads), else once they are built. */
  answer(respond: (json: CatalogJson) => Response): Response | Promise<Response> {
    return settledThen(this.views.get(), respond);
  }

  /** The tier with this id; 400 naming `field` when there is none. */
  async tier(id: number, field = "tierId"): Promise<TierRow> {
    const tier = await this.repo.tier(id);
    if (!tier) throw new ValidationError(field, `Field '${field}': there is no NFT tier ${id}`);
    return tier;
  }

  /** A response made from the cached views when they are built and fresh, else undefined (the read lane's answer). */
  fresh(respond: (json: CatalogJson) => Response): Response | undefined {
    const json = this.views.now();
    return json && respond(json);
  }

  /** GET /api/nft-minting-status: the cached figures plus the time of this request. */
  mintingStatus(json: CatalogJson, headers?: Record<string, string>): Response {
    return withLastField(json.minting, "timestamp", this.clock.date().toISOString(), headers);
  }

  /** The JSON an NFT's URI points to; 404 for a number not minted (or being minted) yet. */
  async metadata(tierId: number, number: number) {
    const tier = await this.repo.tier(tierId);
    if (!tier) throw new NotFoundError(`There is no NFT tier ${tierId}`, "TIER_NOT_FOUND");
    const [record, purchase] = await Promise.all([this.repo.nftByNumber(tierId, number), this.repo.purchaseByNumber(tierId, number)]);
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
