import { asc, eq, sql } from "drizzle-orm";
import { first, inJsonArray, prepared, tablesFor, timeOf, type Db } from "../platform/db";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

export type TierRow = typeof liteTables.nftTiers.$inferSelect;
export type NftRecord = typeof liteTables.nfts.$inferSelect;

/** One row of the records query (times and ids as the driver gives them: see Db.rows). */
type RawRecord = Omit<NftRecord, "mintedAt" | "id" | "tierId" | "number" | "taxon"> & { mintedAt: unknown; id: number | string; tierId: number | string; number: number | string; taxon: number | string };

/**
 * The NFT tables as other features read them (rewards, the landing-page figures): tiers and the
 * minted tokens, never written here. Other features reach them through nfts/index.ts, not the schema.
 */
export class NftRecords {
  private readonly t: typeof liteTables;

  constructor(private readonly db: Db) {
    this.t = tablesFor(db, liteTables, pgTables);
  }

  // Prepared: the rewards page reads the tiers on every request.
  private readonly tiersQuery = prepared<TierRow[]>((db) => db.select().from(this.t.nftTiers).orderBy(asc(this.t.nftTiers.id)).prepare());

  tiers(): Promise<TierRow[]> {
    return this.tiersQuery(this.db);
  }

  record(tokenId: string): Promise<NftRecord | undefined> {
    const { nfts } = this.t;
    return first(this.db.select().from(nfts).where(eq(nfts.tokenId, tokenId)));
  }

  /** The records of some tokens, in one query of one SQL text for any number of them (see inJsonArray). */
  async records(tokenIds: string[]): Promise<NftRecord[]> {
    if (!tokenIds.length) return [];
    const rows = await this.db.rows<RawRecord>(
      sql`SELECT id, token_id AS "tokenId", tier_id AS "tierId", number, taxon, owner, minted_at AS "mintedAt" FROM nfts WHERE ${inJsonArray(this.db, sql.raw("token_id"), JSON.stringify(tokenIds))}`,
    );
    return rows.map((r) => ({ ...r, id: Number(r.id), tierId: Number(r.tierId), number: Number(r.number), taxon: Number(r.taxon), mintedAt: new Date(timeOf(r.mintedAt)!) }));
  }

  /** Every NFT the platform recorded, oldest first. */
  async allTokenIds(): Promise<string[]> {
    const { nfts } = this.t;
    return (await this.db.select({ tokenId: nfts.tokenId }).from(nfts).orderBy(asc(nfts.id))).map((r) => r.tokenId);
  }
}

/**
 * The landing page's NFT figures: the active tiers' supply and rewards pool (price x monthly ROI x
 * months x supply, in micro-VVX), the tokens minted and their holders (owners other than the
 * platform, which holds an NFT between mint and accept).
 */
export async function nftSupplyFacts(db: Db, platformAddress: string) {
  const { nftTiers, nfts } = tablesFor(db, liteTables, pgTables);
  const [pool, minted] = await Promise.all([
    first(
      db
        .select({
          supply: sql<number | string>`coalesce(sum(${nftTiers.maxSupply}), 0)`,
          rewardsPoolMicro: sql<number | string>`coalesce(sum(${nftTiers.priceMicroVvx} * ${nftTiers.roiMonthlyBp} * ${nftTiers.durationMonths} * ${nftTiers.maxSupply} / 10000), 0)`,
        })
        .from(nftTiers)
        .where(eq(nftTiers.isActive, true)),
    ),
    first(db.select({ count: sql<number | string>`count(*)`, holders: sql<number | string>`count(distinct case when ${nfts.owner} <> ${platformAddress} then ${nfts.owner} end)` }).from(nfts)),
  ]);
  return { supply: Number(pool?.supply ?? 0), rewardsPoolMicro: Number(pool?.rewardsPoolMicro ?? 0), minted: Number(minted?.count ?? 0), holders: Number(minted?.holders ?? 0) };
}
