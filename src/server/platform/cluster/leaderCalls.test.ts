import { afterEach, expect, test } from "bun:test";
import { testRedisUrl } from "../../testing/clusterServices";
import { AppError, ConflictError } from "../errors";
import { connectBroker, type Broker } from "./broker";
import { LeaderCalls } from "./leaderCalls";
import type { Role } from "./leader";

// Calls to the leader from other instances through the suite's real Redis (each test its own channel prefix).

const brokers: Broker[] = [];
afterEach(async () => {
  for (const b of brokers.splice(0)) await b.close();
});

async function instance(prefix: string, id: string, role: Role, timeoutMs = 500) {
  const broker = await connectBroker(await testRedisUrl(), { id, prefix });
  brokers.push(broker);
  const leadership = { role, instanceId: id };
  const calls = new LeaderCalls(leadership, broker, timeoutMs);
  const cashedOut: string[] = [];
  calls.handle("cashOut", ({ wallet }: { wallet: string }) => {
    if (wallet === "late") throw new ConflictError("NO_ACTIVE_BET", "You don't have an active bet in this round.");
    cashedOut.push(wallet);
    return { at: 1.5, by: id };
  });
  return { calls, leadership, cashedOut };
}

test("a follower's call runs once, on the leader only, and gets its answer; the leader's AppError arrives with its status, code and message", async () => {
  const prefix = `c${Bun.randomUUIDv7().slice(-8)}`;
  const leader = await instance(prefix, "vvx-a", "leader");
  const [b, c] = [await instance(prefix, "vvx-b", "follower"), await instance(prefix, "vvx-c", "follower")];
  expect(await b.calls.call("cashOut", { wallet: "rB" })).toEqual({ at: 1.5, by: "vvx-a" });
  expect(await c.calls.call("cashOut", { wallet: "rC" })).toEqual({ at: 1.5, by: "vvx-a" });
  expect(await leader.calls.call("cashOut", { wallet: "rA" })).toEqual({ at: 1.5, by: "vvx-a" });
  expect(leader.cashedOut).toEqual(["rB", "rC", "rA"]);
  expect([b.cashedOut, c.cashedOut]).toEqual([[], []]);
  const refused = await b.calls.call("cashOut", { wallet: "late" }).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(AppError);
  expect(refused).toMatchObject({ status: 409, code: "NO_ACTIVE_BET", message: "You don't have an active bet in this round." });
});

test("no instance leads (a failover under way): the call is answered 503 NO_LEADER after the timeout, and runs nowhere", async () => {
  const prefix = `c${Bun.randomUUIDv7().slice(-8)}`;
  const deposed = await instance(prefix, "vvx-a", "follower");
  const b = await instance(prefix, "vvx-b", "follower", 200);
  const started = performance.now();
  const refused = await b.calls.call("cashOut", { wallet: "rB" }).catch((e: unknown) => e);
  expect(refused).toMatchObject({ status: 503, code: "NO_LEADER" });
  expect(performance.now() - started).toBeGreaterThanOrEqual(190);
  expect(deposed.cashedOut).toEqual([]);
});

test("without a broker a follower cannot reach the leader: 503 NO_LEADER at once", async () => {
  const calls = new LeaderCalls({ role: "follower", instanceId: "vvx-alone" });
  calls.handle("cashOut", () => "ran");
  expect(await calls.call("cashOut", {}).catch((e: unknown) => e)).toMatchObject({ status: 503, code: "NO_LEADER" });
  const leading = new LeaderCalls({ role: "leader", instanceId: "vvx-alone" });
  leading.handle("cashOut", () => "ran");
  expect(await leading.call("cashOut", {})).toBe("ran");
});
