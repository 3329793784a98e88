import { afterAll, beforeAll, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import { testDatabase, testRedisUrl } from "../testing/clusterServices";
import { openPgStore, type PgStore } from "../platform/db/pg";
import { readModelsFor } from "../platform/db/readModels";
import { connectBroker, type Broker } from "../platform/cluster/broker";
import { tablesFor } from "../platform/db";
import * as pgTables from "../nfts/schema.pg";
import * as liteTables from "../nfts/schema";
import { DEFAULT_TIERS, seedDefaults } from "../nfts/seed";
import { ClusterStartError, openCluster, relayTableChanges } from "./cluster";
import { loadConfig } from "../platform/config";
import { memoryLogger } from "../platform/log";

// The cluster's shared caches on the suite's real PostgreSQL and Redis: two instances' stores on one database.

let db: Awaited<ReturnType<typeof testDatabase>>;
const open: { store: PgStore; broker: Broker }[] = [];

beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  for (const o of open) await Promise.all([o.broker.close(), o.store.close()]);
  await db.drop();
});

async function instance(id: string, prefix: string) {
  const store = await openPgStore(db.url, { max: 4 });
  const broker = await connectBroker(await testRedisUrl(), { id, prefix });
  relayTableChanges(store.async, broker);
  open.push({ store, broker });
  return store;
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 5_000): Promise<T> {
  const started = performance.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms: ${JSON.stringify(value)}`);
    await Bun.sleep(10);
  }
}

test("a read model on one instance is built again after another instance's commit to its table (told through the broker), and not before", async () => {
  const prefix = `t${Bun.randomUUIDv7().slice(-8)}`;
  const [a, b] = [await instance("vvx-a", prefix), await instance("vvx-b", prefix)];
  let builds = 0;
  const tiers = readModelsFor(b.async).model(["nft_tiers"], async () => {
    builds++;
    return (await b.async.select({ n: count() }).from(tablesFor(b.async, liteTables, () => pgTables).nftTiers))[0]!.n;
  });
  expect(await tiers.get()).toBe(0);
  expect(await tiers.get()).toBe(0);
  expect(builds).toBe(1);

  await seedDefaults(a.async);
  expect(await until(() => tiers.get(), (n) => n === DEFAULT_TIERS.length)).toBe(DEFAULT_TIERS.length);
  expect(builds).toBe(2);

  // A commit on b itself raises its own version at once (no broker round trip).
  await b.async.transaction(async (tx) => void (await tx.delete(tablesFor(tx, liteTables, () => pgTables).nftTiers)));
  expect(await tiers.get()).toBe(0);
});

test("a database or broker out of reach at start is one error naming its variable, without the password", async () => {
  const secrets = { COOKIE_SECRET: "c".repeat(32), SEAL_SECRET: "s".repeat(32) };
  const noDatabase = loadConfig({ ...secrets, DATABASE_URL: "postgres://vvx:s3cret@127.0.0.1:1/vvx" });
  const err = await openCluster(noDatabase, memoryLogger()).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ClusterStartError);
  expect((err as Error).message).toStartWith("DATABASE_URL: cannot open PostgreSQL at postgres://vvx:***@127.0.0.1:1/vvx (");
  expect((err as Error).message).not.toContain("s3cret");
  const noBroker = loadConfig({ ...secrets, DATABASE_URL: db.url, BROKER_URL: "redis://:s3cret@127.0.0.1:1", SANDBOX_URL: "http://127.0.0.1:1" });
  const brokerErr = await openCluster(noBroker, memoryLogger()).catch((e: unknown) => e);
  expect(brokerErr).toBeInstanceOf(ClusterStartError);
  expect((brokerErr as Error).message).toStartWith("BROKER_URL: cannot reach the broker at redis://:***@127.0.0.1:1");
  expect((brokerErr as Error).message).not.toContain("s3cret");
});
