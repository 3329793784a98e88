import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { PaymentWatcher } from "../payments/watcher";
import { Hub } from "../platform/ws/hub";
import { buyer, GENESIS_PRICE_MICRO } from "../testing/nftKit";
import { pgSigning } from "../testing/pgGames";
import { pgFixtureWithStore, type PgStoreFixture } from "../testing/pgKit";
import * as pgTables from "./schema.pg";
import { NftService } from "./service";

// NFT purchases on PostgreSQL (the async store's SERIALIZABLE transactions), the service built directly on a store
// of the file's own, with the sandbox ledger and sandbox Xaman: the tier's last units.
setDefaultTimeout(90_000);

let fixture: PgStoreFixture;
let nfts: NftService;

beforeAll(async () => {
  fixture = await pgFixtureWithStore({ max: 12 });
  const { store, ledger, log } = fixture;
  const { clock, config, scheduler } = fixture.server.ctx;
  const outbox = fixture.outbox();
  const payments = new PaymentWatcher(store.async, ledger, outbox, log, { clock });
  nfts = new NftService({ db: store.async, config: { ...config, nftReservationsPerIp: 100 }, log, clock, scheduler, hub: new Hub(), ledger, outbox, payments, signing: pgSigning(fixture, store.async, log) });
});

afterAll(async () => {
  nfts?.stop();
  await fixture.stop();
});

describe("NFT purchases on PostgreSQL", () => {
  test("five buyers at once for the last two units of a tier: two reservations, three SOLD_OUT", async () => {
    await fixture.store.async.transaction(async (tx) => {
      await tx.update(pgTables.nftTiers).set({ maxSupply: 2 }).where(eq(pgTables.nftTiers.id, 1));
    });
    const buyers = await Promise.all(Array.from({ length: 5 }, () => buyer(fixture.server, Number(GENESIS_PRICE_MICRO / 1_000_000n))));
    const results = await Promise.allSettled(buyers.map((b) => nfts.purchases.create({ wallet: b.classicAddress, ip: "203.0.113.7" }, 1, "vvx_payment_qr")));
    const made = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) => r.status === "rejected").map((r) => ((r as PromiseRejectedResult).reason as { code?: string }).code ?? String((r as PromiseRejectedResult).reason));
    expect(made).toHaveLength(2);
    expect(refused).toEqual(["SOLD_OUT", "SOLD_OUT", "SOLD_OUT"]);
    expect(await nfts.repo.heldUnits(1)).toBe(2);
    expect(new Set(made.map((r) => (r as PromiseFulfilledResult<{ purchase: { number: number | null; wallet: string } }>).value.purchase.wallet)).size).toBe(2);
  });
});
