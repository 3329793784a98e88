// `vvx verify <game> ...` (and `bun run verify`): reproduces any seeded round from its seeds with the same
// engine the server runs (and its native hash functions, which give the bytes of the browser's pure-JS ones).
import {
  EngineInputError,
  SLOT_PACKAGES,
  UNICORNS,
  crashGamesFrom,
  findGameNumber,
  floatsFromSeeds,
  formatHundredths,
  formatMicroVvx,
  isHash64,
  raceFromSeeds,
  rtpTable,
  spinDailyWheel,
  spinSlots,
  type GameSeeds,
} from "../../engine";
import { auditMain, isAuditTarget } from "../audit";
import { NATIVE_HASHES } from "../platform/nativeHashes";

/** The usage lines, each starting with `command` ("vvx verify", "bun run verify"). */
export function verifyUsage(command: string): string {
  return [
    `${command} crash --hash <64 hex> --salt <text> [--games N]`,
    `${command} chain --hash <64 hex> --terminating <64 hex> [--max N]`,
    `${command} floats --server-seed S --client-seed C --nonce N [--count K]`,
    `${command} race|slots|wheel --server-seed S --client-seed C --nonce N [--package 0-3 for slots]`,
    `${command} rtp [--racing-multiple X]`,
    `${command} <url> [--ledger <wss url>] [--limit N]   (audits a whole server against the ledger)`,
  ].join("\n");
}

/** A command-line mistake: print the usage and exit 2. */
class UsageError extends Error {}

type Flags = Map<string, string>;

function parseFlags(args: string[], allowed: readonly string[]): Flags {
  const flags: Flags = new Map();
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]!;
    const value = args[i + 1];
    if (!name.startsWith("--") || !allowed.includes(name.slice(2))) throw new UsageError(`unknown argument "${name}"`);
    if (value === undefined) throw new UsageError(`${name} needs a value`);
    if (flags.has(name.slice(2))) throw new UsageError(`${name} given twice`);
    flags.set(name.slice(2), value);
  }
  return flags;
}

function required(flags: Flags, name: string): string {
  const value = flags.get(name);
  if (value === undefined) throw new UsageError(`--${name} is required`);
  return value;
}

function hashFlag(flags: Flags, name: string): string {
  const value = required(flags, name);
  if (!isHash64(value)) throw new UsageError(`--${name} must be 64 hex digits`);
  return value.toLowerCase();
}

function wholeFlag(flags: Flags, name: string, fallback: number | undefined, min: number, max: number): number {
  const raw = flags.get(name);
  if (raw === undefined) {
    if (fallback === undefined) throw new UsageError(`--${name} is required`);
    return fallback;
  }
  if (!/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a whole number`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be from ${min} to ${max}`);
  }
  return value;
}

function seedFlags(flags: Flags): GameSeeds {
  const serverSeed = required(flags, "server-seed");
  if (serverSeed.length === 0) throw new UsageError("--server-seed must not be empty");
  return {
    serverSeed,
    clientSeed: required(flags, "client-seed"),
    nonce: wholeFlag(flags, "nonce", undefined, 0, Number.MAX_SAFE_INTEGER),
  };
}

// Micro-VVX bigints ("...Micro") become exact VVX text ("...Vvx") so testers read the amounts players see.
function toJson(value: object): string {
  const entries = Object.entries(value).map(([key, v]) =>
    typeof v === "bigint" ? [key.replace(/Micro$/, "Vvx"), formatMicroVvx(v)] : [key, v],
  );
  return JSON.stringify(Object.fromEntries(entries));
}

/** Runs one verify command; returns the lines to print and the exit code. */
export function runVerify(argv: string[]): { lines: string[]; code: number } {
  const [command, ...rest] = argv;
  switch (command) {
    case "crash": {
      const flags = parseFlags(rest, ["hash", "salt", "games"]);
      const games = crashGamesFrom(
        hashFlag(flags, "hash"),
        required(flags, "salt"),
        wholeFlag(flags, "games", 10, 1, 1_000_000),
        NATIVE_HASHES,
      );
      return { lines: games.map((g) => `${g.gameHash} ${formatHundredths(g.crashHundredths)}`), code: 0 };
    }
    case "chain": {
      const flags = parseFlags(rest, ["hash", "terminating", "max"]);
      const max = wholeFlag(flags, "max", 1_000_000, 1, 100_000_000);
      const game = findGameNumber(hashFlag(flags, "hash"), hashFlag(flags, "terminating"), max, NATIVE_HASHES);
      return game === null
        ? { lines: [`not found: the terminating hash is not reached within ${max} hashes`], code: 1 }
        : { lines: [`game ${game}`], code: 0 };
    }
    case "floats": {
      const flags = parseFlags(rest, ["server-seed", "client-seed", "nonce", "count"]);
      const floats = floatsFromSeeds(seedFlags(flags), wholeFlag(flags, "count", 8, 1, 4096), NATIVE_HASHES);
      return { lines: floats.map((f) => f.toFixed(10)), code: 0 };
    }
    case "race": {
      const flags = parseFlags(rest, ["server-seed", "client-seed", "nonce"]);
      const race = raceFromSeeds(seedFlags(flags), NATIVE_HASHES);
      const name = (i: number) => UNICORNS[i]!.name;
      const outcome = {
        winner: race.winner,
        winnerIndex: race.winnerIndex,
        order: race.order.map(name),
        finishTicks: Object.fromEntries(race.finishTicks.map((t, i) => [name(i), t])),
        tickRate: race.tickRate,
        durationTicks: race.durationTicks,
        durationSeconds: race.durationTicks / race.tickRate,
        leadChanges: race.leadChanges,
      };
      return { lines: [toJson(outcome)], code: 0 };
    }
    case "slots": {
      const flags = parseFlags(rest, ["server-seed", "client-seed", "nonce", "package"]);
      const pkg = wholeFlag(flags, "package", 0, 0, SLOT_PACKAGES.length - 1);
      const spin = spinSlots(seedFlags(flags), pkg, NATIVE_HASHES);
      return { lines: [toJson({ package: SLOT_PACKAGES[pkg]!.name, ...spin })], code: 0 };
    }
    case "wheel": {
      const flags = parseFlags(rest, ["server-seed", "client-seed", "nonce"]);
      return { lines: [toJson(spinDailyWheel(seedFlags(flags)))], code: 0 };
    }
    case "rtp": {
      const flags = parseFlags(rest, ["racing-multiple"]);
      const raw = flags.get("racing-multiple");
      const multiple = raw === undefined ? undefined : Number(raw);
      if (multiple !== undefined && !(multiple > 0 && /^\d+(\.\d{1,2})?$/.test(raw!))) {
        throw new UsageError("--racing-multiple must be a positive number with at most 2 decimals");
      }
      const lines = rtpTable({ racingPayoutMultiple: multiple }).map(
        (row) => `${row.game}\t${row.label}\t${row.rtp === null ? "n/a" : (row.rtp * 100).toFixed(4) + "%"}\t${row.detail}`,
      );
      return { lines, code: 0 };
    }
    default:
      throw new UsageError(command === undefined ? "no command given" : `unknown command "${command}"`);
  }
}

/**
 * Runs `verify` with its arguments: a server's URL is audited (src/server/audit), seeds are
 * reproduced here; prints the lines, returns the exit code (2 and the usage for a command-line mistake).
 */
export async function verifyCommand(argv: string[], command: string): Promise<number> {
  if (isAuditTarget(argv[0])) return auditMain(argv, console.log, command);
  try {
    const { lines, code } = runVerify(argv);
    for (const line of lines) console.log(line);
    return code;
  } catch (error) {
    if (error instanceof UsageError || error instanceof EngineInputError) {
      console.error(`verify: ${error.message}`);
      console.error(`usage: ${verifyUsage(command).replaceAll("\n", "\n       ")}`);
      return 2;
    }
    throw error;
  }
}
