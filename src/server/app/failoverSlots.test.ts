import { afterAll, beforeAll, expect, test } from "bun:test";
import { spinSlots } from "../../engine";
import { startCluster, type Cluster } from "../testing/clusterKit";
import { closeLedger, eventually, faucet, outsideClient } from "../testing/ledgerKit";
import { connectedBrowser, signPayload } from "../testing/nftKit";
import { payoutsOnLedger } from "../testing/slotsKit";
import { TestBrowser } from "../testing/testBrowser";

// One `vvx sandbox` whose ledger closes only when the test says so, three instances on one PostgreSQL and one
// Redis: the leader dies with a slots payout batch submitted and not validated.
let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster({ sandboxEnv: { SANDBOX_LEDGER_MS: "60000" } });
}, 60_000);
afterAll(() => cluster?.stop());

const SPINS = 5;

test("the leader SIGKILLed in a slots payout batch: another leads within 5 s; every win paid once on the ledger", async () => {
  const first = await cluster.leader();
  const follower = [...cluster.instances.entries()].find(([id]) => id !== first.id)![1];
  const player = await faucet(cluster.sandbox.url, { xrp: 100, vvx: 20_000 });
  const wallet = player.classicAddress;
  const browser = await connectedBrowser(first.server, player, cluster.sandbox);
  // Seeds chosen, not hoped for: the server seed read from the database (players cannot, tests may), a client seed under which two spins or more of the five win.
  expect((await browser.json("/api/fair/seeds", { method: "POST", json: { walletAddress: wallet } })).status).toBe(200);
  const [seeds] = (await cluster.sql`SELECT server_seed, next_nonce::int AS nonce FROM fair_seeds WHERE wallet = ${wallet}`) as { server_seed: string; nonce: number }[];
  let clientSeed = "";
  let expected = 0n;
  for (let i = 0; expected === 0n; i++) {
    const wins = Array.from({ length: SPINS }, (_, n) => spinSlots({ serverSeed: seeds!.server_seed, clientSeed: `failover-${i}`, nonce: seeds!.nonce + n }, 0).totalPayoutMicro);
    if (wins.filter((w) => w > 0n).length >= 2) [clientSeed, expected] = [`failover-${i}`, wins.reduce((a, b) => a + b, 0n)];
  }
  expect((await browser.json("/api/fair/client-seed", { method: "POST", json: { walletAddress: wallet, clientSeed } })).status).toBe(200);

  const created = await browser.json("/api/slots/create-session", { method: "POST", json: { walletAddress: wallet, tierIndex: 0 } });
  expect(created.status).toBe(200);
  await signPayload(cluster.sandbox, created.body.payment.uuid, { account: wallet });
  const { session } = await eventually(async () => {
    await closeLedger(cluster.sandbox.url);
    const res = await browser.json(`/api/slots/check-payment/${created.body.payment.uuid}`);
    return res.body.confirmed ? res.body : undefined;
  }, "the package paid", 20_000, 200);
  // The spins on a follower: any instance serves them; the leader batches their winnings.
  const onFollower = new TestBrowser(follower.url);
  for (const [name, value] of browser.cookies) onFollower.cookies.set(name, value);
  let won = 0n;
  for (let n = 0; n < SPINS; n++) {
    const res = await onFollower.json("/api/slots/spin", { method: "POST", json: { sessionId: session.sessionId } });
    expect(res.status).toBe(200);
    won += BigInt(Math.round(res.body.spin.totalPayout * 1e6));
  }
  expect(won).toBe(expected);
  await eventually(async () => ((await cluster.sql`SELECT count(*)::int AS n FROM ledger_outbox WHERE purpose = 'slots_payout' AND status = 'pending'`)[0] as { n: number }).n > 0 || undefined, "a payout submitted", 20_000);

  const next = await cluster.killLeader(first.id);
  expect(next.tookMs).toBeLessThan(5_000);
  const { treasury } = (await (await fetch(`${cluster.sandbox.url}/sandbox/api/network`)).json()) as { treasury: string };
  const client = await outsideClient(cluster.sandbox.url);
  try {
    // Each close lets the new leader settle what the first submitted, and batch what it had not.
    const paid = await eventually(async () => {
      await closeLedger(cluster.sandbox.url);
      const open = ((await cluster.sql`SELECT count(*)::int AS n FROM ledger_outbox WHERE status IN ('queued', 'pending')`)[0] as { n: number }).n;
      const unpaid = ((await cluster.sql`SELECT count(*)::int AS n FROM slot_spins WHERE wallet = ${wallet} AND payout_id IS NULL AND total_payout_micro > 0`)[0] as { n: number }).n;
      return open === 0 && unpaid === 0 ? payoutsOnLedger(client, treasury, wallet) : undefined;
    }, "every win paid", 30_000, 200);
    expect(paid.reduce((sum, p) => sum + p.micro, 0n)).toBe(expected);
    expect(new Set(paid.map((p) => p.hash)).size).toBe(paid.length);
    const entries = (await cluster.sql`SELECT key, status FROM ledger_outbox WHERE purpose = 'slots_payout'`) as { key: string; status: string }[];
    expect(entries.map((e) => e.status)).toEqual(paid.map(() => "validated"));
  } finally {
    await client.disconnect();
  }
}, 120_000);
