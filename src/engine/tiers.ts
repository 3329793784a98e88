import { assertInteger, EngineInputError } from "./errors";

/** An NFT reward tier (the marketplace's built-in defaults; the live list may change them). */
export interface NftTier {
  id: number;
  tier: "GENESIS" | "OASIS";
  name: string;
  /** What the marketplace says about the tier. */
  description: string;
  priceVvx: number;
  /** Monthly ROI in basis points: 1000 = 10%. */
  monthlyRoiBps: number;
  durationMonths: number;
  maxSupply: number;
  /** Accrued VVX at which a full claim becomes available. */
  fullClaimTargetVvx: number;
  /** Taxon of NFT #n is taxonBase + n. */
  taxonBase: number;
  isPopular: boolean;
  payoutFrequency: "Monthly";
}

/** Built-in tiers from the spec: Genesis 500,000 VVX 10% x 12 months, Oasis 250,000 VVX 5% x 24 months. */
export const DEFAULT_NFT_TIERS = [
  {
    id: 1,
    tier: "GENESIS",
    name: "Genesis",
    description: "Premium tier: 10% monthly ROI for 12 months (120% total).",
    priceVvx: 500_000,
    monthlyRoiBps: 1000,
    durationMonths: 12,
    maxSupply: 20,
    fullClaimTargetVvx: 50_000,
    taxonBase: 1000,
    isPopular: true,
    payoutFrequency: "Monthly",
  },
  {
    id: 2,
    tier: "OASIS",
    name: "Oasis",
    description: "Long-term tier: 5% monthly ROI for 24 months (120% total).",
    priceVvx: 250_000,
    monthlyRoiBps: 500,
    durationMonths: 24,
    maxSupply: 40,
    fullClaimTargetVvx: 12_500,
    taxonBase: 20000,
    isPopular: false,
    payoutFrequency: "Monthly",
  },
] as const satisfies readonly NftTier[];

/** Total NFTs across the default tiers (60). */
export const DEFAULT_TOTAL_NFTS = DEFAULT_NFT_TIERS.reduce((sum, t) => sum + t.maxSupply, 0);

/** Taxons from here up to below OASIS_TAXON_BASE are Genesis. */
export const GENESIS_TAXON_BASE = 1000;
/** Taxons from here up are Oasis. */
export const OASIS_TAXON_BASE = 20000;

/** What a taxon says about an NFT. */
export interface TaxonInfo {
  tier: "GENESIS" | "OASIS" | "UNKNOWN";
  /** NFT number within its tier (taxon - base); null for Unknown. */
  number: number | null;
}

/** The spec's taxon rule: 1000 <= taxon < 20000 Genesis #(taxon-1000); >= 20000 Oasis #(taxon-20000); else Unknown. */
export function tierFromTaxon(taxon: number): TaxonInfo {
  if (!Number.isSafeInteger(taxon) || taxon < GENESIS_TAXON_BASE) return { tier: "UNKNOWN", number: null };
  if (taxon < OASIS_TAXON_BASE) return { tier: "GENESIS", number: taxon - GENESIS_TAXON_BASE };
  return { tier: "OASIS", number: taxon - OASIS_TAXON_BASE };
}

/** XLS-20 NFTokenID (64 hex): flags 4, transfer fee 4, issuer 40, scrambled taxon 8, sequence 8. */
const TOKEN_ID = /^[0-9A-Fa-f]{64}$/;

/**
 * The taxon an XLS-20 NFTokenID carries: the ledger stores it XORed with (384160001 x sequence + 2459)
 * mod 2^32 (rippled's cipheredTaxon), so the same XOR gives it back. Null for text that is not a token id.
 */
export function taxonOfTokenId(tokenId: string): number | null {
  if (!TOKEN_ID.test(tokenId)) return null;
  const sequence = Number.parseInt(tokenId.slice(56, 64), 16);
  const scrambled = Number.parseInt(tokenId.slice(48, 56), 16);
  return (scrambled ^ ((Math.imul(384160001, sequence) + 2459) >>> 0)) >>> 0;
}

/** An NFT's display name from its token id alone (taxon rule); "Unknown NFT" for another taxon or a malformed id. */
export const nftNameOfTokenId = (tokenId: string): string => nftDisplayName(taxonOfTokenId(tokenId) ?? 0, tokenId);

/** Taxon to mint NFT #n of a tier with (DESIGN: 1000 + n for Genesis, 20000 + n for Oasis). */
export function taxonFor(tier: "GENESIS" | "OASIS", number: number): number {
  assertInteger("number", number, 1, tier === "GENESIS" ? OASIS_TAXON_BASE - GENESIS_TAXON_BASE - 1 : 1_000_000_000);
  return (tier === "GENESIS" ? GENESIS_TAXON_BASE : OASIS_TAXON_BASE) + number;
}

/**
 * Names pinned to particular token ids, overriding the taxon rule. The original client pinned two legacy
 * token ids to "Genesis NFT #20" and "Oasis NFT #40"; the spec does not give the ids, and NFTs minted here
 * carry the taxon of their number (1020 and 20040 give exactly those names), so none are pinned by default.
 */
export const PINNED_TOKEN_NAMES: ReadonlyMap<string, string> = new Map();

/** Display name of an NFT: a pinned name for its token id if any, else "Genesis NFT #n", "Oasis NFT #n" or "Unknown NFT". */
export function nftDisplayName(
  taxon: number,
  tokenId?: string,
  pinnedNames: ReadonlyMap<string, string> = PINNED_TOKEN_NAMES,
): string {
  if (tokenId !== undefined) {
    const pinned = pinnedNames.get(tokenId.toUpperCase()) ?? pinnedNames.get(tokenId);
    if (pinned !== undefined) return pinned;
  }
  const info = tierFromTaxon(taxon);
  if (info.tier === "GENESIS") return `Genesis NFT #${info.number}`;
  if (info.tier === "OASIS") return `Oasis NFT #${info.number}`;
  return "Unknown NFT";
}

/** The default tier with this id; throws EngineInputError for another id. */
export function defaultTierById(id: number): NftTier {
  const found = DEFAULT_NFT_TIERS.find((t) => t.id === id);
  if (!found) throw new EngineInputError("tierId", `must be 1 (Genesis) or 2 (Oasis), got ${id}`);
  return found;
}

/** Monthly ROI text as the marketplace shows it, from basis points: 1000 -> "10", 250 -> "2.5". */
export function percentText(bps: number): string {
  return String(bps / 100);
}

/** Total ROI of a tier in basis points (monthly x months: 12,000 = 120% for both defaults). */
export function totalRoiBps(tier: Pick<NftTier, "monthlyRoiBps" | "durationMonths">): number {
  return tier.monthlyRoiBps * tier.durationMonths;
}
