import { DEFAULT_NFT_TIERS, percentText, tierFromTaxon as engineTierFromTaxon } from "../../../engine/tiers";
import { formatVvx } from "../../lib/format";
import type { AvailabilityResponse, TierShape } from "./api";

/**
 * A marketplace tier as the page shows it: `GET /api/nft-tiers`'s tier (the spec's "NFT tier
 * (marketplace)") without the figures the page derives itself; the built-in tiers have no image.
 */
export type NftTier = Omit<TierShape, "priceVvx" | "totalRoiPercentage" | "minted" | "imageUrl"> & { imageUrl: TierShape["imageUrl"] | null };

/** `GET /api/nft-availability`: per tier, units still available and the maximum supply (a tier it leaves out keeps its figures). */
export type SupplyFigures = AvailabilityResponse["genesis"];
export type NftAvailability = Partial<Pick<AvailabilityResponse, "genesis" | "oasis">>;

/**
 * The spec's built-in tiers (the engine's table, the same the server seeds), kept when the tier
 * fetch fails: they are the product's configuration (price, ROI, duration, supply), not sample data.
 */
export const DEFAULT_TIERS: readonly NftTier[] = DEFAULT_NFT_TIERS.map((t) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  tier: t.tier,
  price: formatVvx(t.priceVvx),
  roiPercentage: `${percentText(t.monthlyRoiBps)}%`,
  durationMonths: t.durationMonths,
  payoutFrequency: t.payoutFrequency,
  currentSupply: t.maxSupply,
  maxSupply: t.maxSupply,
  imageUrl: null,
  isActive: true,
  isPopular: t.isPopular,
}));

/** Simulated payment amount of the test page: the tier's price in whole VVX (the cheapest tier's for an unknown id). */
export const simulatedPaymentAmount = (tierId: number) =>
  (DEFAULT_NFT_TIERS.find((t) => t.id === tierId) ?? DEFAULT_NFT_TIERS.reduce((a, b) => (b.priceVvx < a.priceVvx ? b : a))).priceVvx;

const num = (v: unknown, fallback: number) => {
  const n = typeof v === "string" ? Number(v.replace(/[^\d.-]/g, "")) : Number(v);
  return Number.isFinite(n) ? n : fallback;
};

/** Accepts a tier as the server sends it (price as text or number) and fills what is missing from the defaults. */
export function normalizeTier(raw: Partial<Record<keyof NftTier, unknown>>): NftTier {
  const code = String(raw.tier ?? raw.name ?? "").toUpperCase();
  const base = DEFAULT_TIERS.find((t) => t.id === Number(raw.id) || t.tier === code);
  const price = typeof raw.price === "number" ? formatVvx(raw.price) : typeof raw.price === "string" && raw.price ? raw.price : (base?.price ?? "");
  const roi = raw.roiPercentage ?? base?.roiPercentage ?? "";
  return {
    id: num(raw.id, base?.id ?? 0),
    name: String(raw.name ?? base?.name ?? "NFT"),
    description: String(raw.description ?? base?.description ?? ""),
    tier: code || (base?.tier ?? ""),
    price: /vvx/i.test(price) ? price : `${price} VVX`,
    roiPercentage: typeof roi === "number" ? `${roi}%` : String(roi),
    durationMonths: num(raw.durationMonths, base?.durationMonths ?? 0),
    payoutFrequency: String(raw.payoutFrequency ?? "Monthly"),
    currentSupply: num(raw.currentSupply, base?.currentSupply ?? 0),
    maxSupply: num(raw.maxSupply, base?.maxSupply ?? 0),
    imageUrl: typeof raw.imageUrl === "string" && raw.imageUrl ? raw.imageUrl : null,
    isActive: raw.isActive === undefined ? true : Boolean(raw.isActive),
    isPopular: raw.isPopular === undefined ? code === "GENESIS" : Boolean(raw.isPopular),
  };
}

/** The tier list from `GET /api/nft-tiers` (an array, or wrapped in `tiers`/`data`). */
export function parseTiers(body: unknown): NftTier[] {
  const list = Array.isArray(body) ? body : ((body as { tiers?: unknown; data?: unknown })?.tiers ?? (body as { data?: unknown })?.data);
  if (!Array.isArray(list) || list.length === 0) throw new Error("Failed to fetch NFT tiers");
  return list.map((t) => normalizeTier(t as Partial<Record<keyof NftTier, unknown>>));
}

/** Overlays live availability on the tiers (matched by tier code). */
export function withAvailability(tiers: readonly NftTier[], availability: NftAvailability | undefined): NftTier[] {
  return tiers.map((t) => {
    const live = t.tier === "GENESIS" ? availability?.genesis : t.tier === "OASIS" ? availability?.oasis : undefined;
    return live ? { ...t, currentSupply: num(live.currentSupply, t.currentSupply), maxSupply: num(live.maxSupply, t.maxSupply) } : t;
  });
}

/** The spec: the price text loses its " VVX" suffix before being sent ("500,000"). */
export const priceWithoutSuffix = (price: string) => price.replace(/\s*VVX\s*$/i, "").trim();
/** The spec: the on-chain check keeps only the digits ("500000"). */
export const priceDigits = (price: string) => price.replace(/\D/g, "");
/** The price as a number of VVX (500000). */
export const priceVvx = (price: string) => Number(priceDigits(priceWithoutSuffix(price).split(".")[0] ?? "")) || 0;

/** "10%" -> 10 */
export const roiNumber = (roi: string) => Number(roi.replace(/[^\d.]/g, "")) || 0;
/** "10%" -> "10% monthly" */
export const roiLabel = (roi: string) => {
  const text = /%/.test(roi) ? roi.trim() : `${roi.trim()}%`;
  return /month/i.test(text) ? text : `${text} monthly`;
};
/** Total return over the whole duration, in percent (10% x 12 = 120). */
export const totalReturnPercent = (t: Pick<NftTier, "roiPercentage" | "durationMonths">) => Math.round(roiNumber(t.roiPercentage) * t.durationMonths);
export const isSoldOut = (t: Pick<NftTier, "currentSupply">) => t.currentSupply <= 0;
export const capitalize = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1).toLowerCase() : s);

/** The spec's taxon rule (the engine's), with the tier's display name: 1001 -> Genesis #1, 20040 -> Oasis #40. */
export function tierFromTaxon(taxon: number): { tier: "Genesis" | "Oasis" | "Unknown"; number: number | null } {
  const info = engineTierFromTaxon(taxon);
  return { tier: info.tier === "GENESIS" ? "Genesis" : info.tier === "OASIS" ? "Oasis" : "Unknown", number: info.number };
}
