import { Elysia, t } from "elysia";
import genesisArt from "../../../assets/nfts/genesis.svg" with { type: "file" };
import oasisArt from "../../../assets/nfts/oasis.svg" with { type: "file" };
import { AvailabilityResponse, MintingStatusResponse, NftMetadata, TiersResponse, VaultResponse } from "../../shared/api/nfts";
import { requireAdmin, walletSession } from "../auth/guard";
import { NotFoundError } from "../platform/errors";
import { parseNftNumber, parseTierId } from "./input";
import { offerRoutes } from "./offerRoutes";
import { purchaseRoutes } from "./purchaseRoutes";
import type { CatalogJson } from "./catalog";
import type { NftRouteDeps } from "./service";

export { NftRecords, nftSupplyFacts, type NftRecord, type TierRow } from "./records";

// No prototype: a file named "constructor" or "__proto__" must not find Object's members.
const ART: Record<string, string> = Object.assign(Object.create(null), { "genesis.svg": genesisArt, "oasis.svg": oasisArt });


/**
 * The NFT marketplace API (spec part 1 "NFT purchase", part 2 minting, admin, direct offer and
 * test pages), the NFT metadata its URIs point to, and the tier art. Routes parse input, check the
 * session and call the feature's services; they never reach a repository.
 */
export function nftRoutes(deps: NftRouteDeps) {
  return new Elysia({ name: "nfts" }).use(catalogRoutes(deps)).use(purchaseRoutes(deps)).use(offerRoutes(deps));
}

/**
 * Tiers, supply and minting figures, the admin vault, metadata and the tier art: reads only. The
 * public figures come from the catalog's read model as JSON serialized once per change, with the
 * API's headers built in (no session: these routes read no cookie).
 */
function catalogRoutes({ nfts, auth, config, jsonHeaders, lane }: NftRouteDeps) {
  const { catalog } = nfts;
  const tiers = (json: CatalogJson) => json.tiers.response(jsonHeaders);
  const availability = (json: CatalogJson) => json.availability.response(jsonHeaders);
  const mintingStatus = (json: CatalogJson) => catalog.mintingStatus(json, jsonHeaders);
  lane?.add("/api/nft-tiers", () => catalog.fresh(tiers));
  lane?.add("/api/nft-availability", () => catalog.fresh(availability));
  lane?.add("/api/nft-minting-status", () => catalog.fresh(mintingStatus));
  const admin = new Elysia({ name: "nft-vault" })
    .use(walletSession(auth))
    .get(
      "/api/admin/nft-vault-summary",
      async ({ session }) => {
        requireAdmin(session, config.adminWallets);
        return (await catalog.json()).vault.response(jsonHeaders);
      },
      { response: VaultResponse, detail: { summary: "Admins: minted, sold and max supply per tier", tags: ["admin"] } },
    );
  return new Elysia({ name: "nft-catalog" })
    .use(admin)
    .get("/api/nft-tiers", () => catalog.answer(tiers), {
      response: TiersResponse,
      detail: { summary: "NFT tiers on sale; currentSupply is the number still available", tags: ["nfts"] },
    })
    .get("/api/nft-availability", () => catalog.answer(availability), {
      response: AvailabilityResponse,
      detail: { summary: "Units still available per tier", tags: ["nfts"] },
    })
    .get("/api/nft-minting-status", () => catalog.answer(mintingStatus), {
      response: MintingStatusResponse,
      detail: { summary: "Minted, remaining and total per tier (refetched every 5 s)", tags: ["nfts"] },
    })
    .get("/api/nfts/metadata/:tierId/:number", ({ params }) => catalog.metadata(parseTierId(params.tierId, "tierId"), parseNftNumber(params.number)), {
      params: t.Object({ tierId: t.String(), number: t.String() }),
      response: NftMetadata,
      detail: { summary: "NFT metadata JSON (what the NFT's URI points to)", tags: ["nfts"] },
    })
    .get(
      "/assets/nfts/:file",
      ({ params }) => {
        const path = ART[params.file];
        if (!path) throw new NotFoundError(`No NFT image ${params.file}`);
        return new Response(Bun.file(path), { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } });
      },
      { params: t.Object({ file: t.String() }), detail: { summary: "Tier art (SVG)", tags: ["nfts"] } },
    );
}

export { NftService, type NftRouteDeps } from "./service";
export { parseTierId, parseVvxText } from "./input";
