import { describe, expect, spyOn, test } from "bun:test";
import { join } from "node:path";
import { generateCrashChain, raceFromSeeds, spinDailyWheel, spinSlots, UNICORNS } from "../src/engine";
import { verifyCommand } from "../src/server/ops/verify";

const SCRIPT = join(import.meta.dir, "verify.ts");

function verify(...args: string[]): { code: number; stdout: string[]; stderr: string } {
  const run = Bun.spawnSync([process.execPath, SCRIPT, ...args], { stdout: "pipe", stderr: "pipe" });
  const stdout = run.stdout.toString().split("\n").filter((line) => line.length > 0);
  return { code: run.exitCode ?? -1, stdout, stderr: run.stderr.toString() };
}

/** The script's command run in this process (no start-up per case), its console captured: what it prints and its exit code. */
async function verifyHere(...args: string[]): Promise<{ code: number; stdout: string[]; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = spyOn(console, "log").mockImplementation((...a: unknown[]) => void stdout.push(a.join(" ")));
  const error = spyOn(console, "error").mockImplementation((...a: unknown[]) => void stderr.push(a.join(" ")));
  try {
    return { code: await verifyCommand(args, "bun run verify"), stdout, stderr: stderr.join("\n") };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const SEEDS = ["--server-seed", "abc", "--client-seed", "xyz", "--nonce", "1"];

describe("bun run verify", () => {
  test("crash: N lines of game hash and crash, back through the chain", () => {
    const run = verify(
      "crash",
      "--hash", "df5d54b8ca42cb40ea80e8ba74b3281f7b9d49bc27fecbe104847de1e91e4929",
      "--salt", "00000000000000000001e08b7fd44f95e3e950ac65650a8031a6d5e1750e34be",
      "--games", "3",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toEqual([
      "df5d54b8ca42cb40ea80e8ba74b3281f7b9d49bc27fecbe104847de1e91e4929 38.65",
      "6774946598022d9a372de73895fe3ebd192accd79eaf762ed82defca8f60c26f 1.45",
      "df937a1f3fa5056da5500a3259278003849d22eaf65544c292882c619635efeb 1.12",
    ]);
  });

  test("chain: the game number, or not found (exit 1)", () => {
    const chain = generateCrashChain("026249958f115ac0d4fb763fd3d003b952bf681770bd19902e3674db3d2047af", 50);
    const found = verify("chain", "--hash", chain.gameHashes[41]!, "--terminating", chain.terminatingHash);
    expect([found.code, found.stdout]).toEqual([0, ["game 42"]]);
    const wrong = "0".repeat(64);
    const missing = verify("chain", "--hash", wrong, "--terminating", chain.terminatingHash, "--max", "100");
    expect(missing.code).toBe(1);
    expect(missing.stdout[0]).toContain("not found");
  });

  test("floats: K floats with 10 decimals", () => {
    const run = verify("floats", ...SEEDS, "--count", "10");
    expect(run.code).toBe(0);
    expect(run.stdout).toHaveLength(10);
    expect(run.stdout[0]).toBe("0.3893038989");
    for (const line of run.stdout) expect(line).toMatch(/^0\.\d{10}$/);
    expect(verify("floats", ...SEEDS).stdout).toHaveLength(8);
  });

  test("race, slots, wheel: the outcome as JSON, equal to the engine's", () => {
    const seeds = { serverSeed: "abc", clientSeed: "xyz", nonce: 1 };
    const race = JSON.parse(verify("race", ...SEEDS).stdout[0]!);
    const expected = raceFromSeeds(seeds);
    expect(race.winner).toBe(expected.winner);
    expect(race.order).toEqual(expected.order.map((i) => UNICORNS[i]!.name));
    expect(race.durationTicks).toBe(expected.durationTicks);

    const slots = JSON.parse(verify("slots", ...SEEDS, "--package", "3").stdout[0]!);
    const spin = spinSlots(seeds, 3);
    expect(slots.symbols).toEqual(spin.symbols);
    expect(slots.package).toBe("High Limit");
    expect(slots.totalPayoutVvx).toBe("700");
    expect(slots.multipleHundredths).toBe(spin.multipleHundredths);

    expect(JSON.parse(verify("wheel", ...SEEDS).stdout[0]!)).toEqual(spinDailyWheel(seeds));
  });

  test("rtp: one line per game and package", () => {
    const run = verify("rtp");
    expect(run.code).toBe(0);
    expect(run.stdout).toHaveLength(7);
    expect(run.stdout[0]).toStartWith("crash\t");
    expect(run.stdout[0]).toContain("99.0000%");
    expect(run.stdout[1]).toContain("100.0000%");
    expect(run.stdout.filter((line) => line.startsWith("slots\t") && line.includes("42.1880%"))).toHaveLength(4);
    expect(verify("rtp", "--racing-multiple", "3").stdout[1]).toContain("60.0000%");
  });

  test("bad arguments print a usage line on stderr and exit 2", async () => {
    // The script itself once (its exit code and stderr reach the shell), then every case through its command.
    const run = verify();
    expect([run.code, run.stdout]).toEqual([2, []]);
    expect(run.stderr).toContain("usage: bun run verify");
    const bad: string[][] = [
      [],
      ["dice"],
      ["crash", "--salt", "s"],
      ["crash", "--hash", "1234", "--salt", "s"],
      ["crash", "--hash", "a".repeat(64), "--salt", "s", "--games", "0"],
      ["crash", "--hash", "a".repeat(64), "--salt"],
      ["chain", "--hash", "a".repeat(64)],
      ["floats", "--server-seed", "a", "--client-seed", "b", "--nonce", "-1"],
      ["floats", "--server-seed", "a", "--client-seed", "b", "--nonce", "x"],
      ["race", "--server-seed", "a", "--client-seed", "b"],
      ["wheel", ...SEEDS, "--color", "red"],
      ["slots", ...SEEDS, "--package", "4"],
      ["rtp", "--racing-multiple", "abc"],
    ];
    for (const args of bad) {
      const run = await verifyHere(...args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toContain("usage: bun run verify");
      expect(run.stdout).toEqual([]);
    }
  });
});
