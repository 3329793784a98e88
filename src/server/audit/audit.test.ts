import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { CRASH_TEST_ENV } from "../testing/crashKit";
import { crashRoundWithBets, crashRounds, raceWithBets, races, revealSeeds, slotSpins, wheelSpins } from "../testing/fairKit";
import { startTestServer, type TestServer } from "../testing/testServer";
import { auditMain } from ".";

// `vvx verify <url>` as an outsider runs it (bun run verify, the same main as the binary's), over a
// server that played 200 rounds of every game with real bets and payouts on its sandbox ledger.
const VERIFY = join(import.meta.dir, "../../../scripts/verify.ts");
const ROUNDS = 200;

let server: TestServer;
const played = { crashRound: 0, race: 0, slotsWallet: "", wheelWallets: [] as string[] };

beforeAll(async () => {
  server = await startTestServer({ ...CRASH_TEST_ENV, RACING_COUNTDOWN_MS: "20000", RACING_BET_CLOSE_MS: "4000", SANDBOX_LEDGER_MS: "50" });
  await server.ctx.ledger.waitConnected(15_000);
  played.crashRound = await crashRoundWithBets(server);
  await crashRounds(server, ROUNDS - played.crashRound);
  played.race = await raceWithBets(server);
  await races(server, ROUNDS - played.race);
  played.slotsWallet = await slotSpins(server, 2, ROUNDS / 100);
  played.wheelWallets = await wheelSpins(server, 20, ROUNDS / 20);
  await revealSeeds(server, [played.slotsWallet, ...played.wheelWallets]);
});
afterAll(async () => {
  await server?.stop(true);
});

async function verify(...args: string[]): Promise<{ code: number; lines: string[] }> {
  const run = Bun.spawn([process.execPath, VERIFY, ...args], { stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text()]);
  const code = await run.exited;
  return { code, lines: (out + err).split("\n").filter(Boolean) };
}

/** The newest crash round that ended (finished or voided); every one before it ended too. */
const lastEndedCrashRound = async () => (await server.ctx.crash.bets.repo.pastRounds(1))[0]?.round ?? 0;
const count = (lines: string[], game: string) => lines.find((l) => l.startsWith(`${game}: `));

describe("vvx verify <url>", () => {
  test("200 rounds of every game, their bets and payouts: 0 mismatches against the ledger (exit 0)", async () => {
    // Crash rounds go on while verify reads: it checks every round that ended by then.
    const endedBefore = await lastEndedCrashRound();
    const { code, lines } = await verify(server.url);
    const endedAfter = await lastEndedCrashRound();
    if (process.env.AUDIT_DEBUG) console.log(lines.join("\n"));
    expect({ code, mismatches: lines.filter((l) => l.startsWith("MISMATCH")) }).toEqual({ code: 0, mismatches: [] });
    expect(endedBefore).toBeGreaterThanOrEqual(ROUNDS);
    expect(count(lines, "chains")).toBe("chains: 1 crash chains checked, 1 agree, 0 mismatches, 0 payouts pending, 0 not checkable yet");
    expect(count(lines, "crash")).toMatch(/^crash: (\d+) rounds checked, \1 agree, 0 mismatches, 0 payouts pending, 0 not checkable yet$/);
    const crashChecked = Number(count(lines, "crash")!.split(" ")[1]);
    expect(crashChecked >= endedBefore && crashChecked <= endedAfter).toBe(true);
    expect(count(lines, "racing")).toMatch(/^racing: (\d+) races checked, \1 agree, 0 mismatches, 0 payouts pending/);
    expect(Number(count(lines, "racing")!.split(" ")[1])).toBeGreaterThanOrEqual(ROUNDS);
    expect(count(lines, "slots")).toBe(`slots: ${ROUNDS} spins checked, ${ROUNDS} agree, 0 mismatches, 0 payouts pending, 0 not checkable yet`);
    expect(count(lines, "wheel")).toBe(`wheel: ${ROUNDS} wheel spins checked, ${ROUNDS} agree, 0 mismatches, 0 payouts pending, 0 not checkable yet`);
    expect(lines.at(-1)).toBe("verify: 0 mismatches");
    expect(lines.some((l) => /^crash chain #1: terminating hash [0-9a-f]{64} committed in ledger \d+ by [0-9A-F]{64}; salt = hash of ledger \d+$/.test(l))).toBe(true);
  });

  test("a round altered in the database is reported by name, with what differs (exit 1)", async () => {
    const sqlite = server.ctx.store.sqlite;
    const spin = sqlite.query<{ id: number }, []>("SELECT id FROM slot_spins ORDER BY id LIMIT 1 OFFSET 17").get()!;
    const wheel = sqlite.query<{ id: number }, []>("SELECT id FROM daily_spins ORDER BY id LIMIT 1 OFFSET 42").get()!;
    sqlite.run("UPDATE game_rounds SET detail_json = json_set(detail_json, '$.crashHundredths', json_extract(detail_json, '$.crashHundredths') + 7) WHERE game = 'crash' AND round = ?", [played.crashRound]);
    sqlite.run("UPDATE racing_races SET winner_index = (winner_index + 1) % 5 WHERE round = 150");
    sqlite.run("UPDATE slot_spins SET reels = '9,9,9' WHERE id = ?", [spin.id]);
    sqlite.run("UPDATE daily_spins SET position = (position + 1) % 12 WHERE id = ?", [wheel.id]);
    const { code, lines } = await verify(server.url);
    if (process.env.AUDIT_DEBUG) console.log(lines.join("\n"));
    expect(code).toBe(1);
    const mismatches = lines.filter((l) => l.startsWith("MISMATCH"));
    expect(mismatches.find((l) => l.startsWith(`MISMATCH crash round #${played.crashRound}: `))).toMatch(/the hash and salt give/);
    expect(mismatches.find((l) => l.startsWith("MISMATCH race #150: "))).toMatch(/the seeds give/);
    expect(mismatches.find((l) => l.startsWith(`MISMATCH slots spin #${spin.id}: `))).toMatch(/published Diamond Diamond Diamond, the seeds give/);
    expect(mismatches.find((l) => l.startsWith(`MISMATCH wheel spin #${wheel.id}: `))).toMatch(/the seeds give/);
    // Those four and nothing else: the altered crash round's bets were paid by rules its true crash point allows too.
    expect(mismatches).toHaveLength(4);
    expect(lines.at(-1)).toBe("verify: 4 mismatches");
  });

  test("usage and an unreachable server: exit 2 with a line that says why", async () => {
    const lines: string[] = [];
    expect(await auditMain(["ftp://x"], (l) => lines.push(l))).toBe(2);
    expect(lines.join("\n")).toContain("usage: vvx verify <url>");
    expect(await auditMain([server.url, "--limit", "0"], (l) => lines.push(l))).toBe(2);
    expect(await auditMain(["http://127.0.0.1:9"], (l) => lines.push(l))).toBe(2);
    expect(lines.at(-1)).toStartWith("verify: could not audit http://127.0.0.1:9:");
  });
});
