import { dataDirFrom } from "../platform/config";
import { DataDirError, prepareDataDir } from "../platform/dataDir";
import { DatabaseFileError } from "../platform/db";
import { backupDatabase, BackupError, DATABASE_FILE, restoreDatabase } from "../platform/db/backup";
import { VERSION } from "../platform/version";

/** One operator command: its usage line, what it does, and how it runs (resolves to the exit code). */
interface Command {
  usage: string;
  summary: string;
  run(args: string[]): number | Promise<number>;
}

// The commands' own modules (the verifier and its audit of a live server, the doctor) are required when
// their command runs: a serving process never loads them.
const COMMANDS: Record<string, Command> = {
  verify: {
    usage: "verify <crash|chain|floats|race|slots|wheel|rtp> ...",
    summary: "reproduce a game outcome from its seeds (vvx verify, alone, lists the forms)",
    run: (args) => (require("../ops/verify") as typeof import("../ops/verify")).verifyCommand(args, "vvx verify"),
  },
  backup: {
    usage: "backup <file>",
    summary: "copy the database to a new <file> (consistent while the server runs; mode 0600)",
    run: ([file, ...rest]) => withFile("backup", file, rest, backup),
  },
  restore: {
    usage: "restore <file>",
    summary: "replace the database with a backup (refused while a server runs on DATA_DIR)",
    run: ([file, ...rest]) => withFile("restore", file, rest, restore),
  },
  doctor: {
    usage: "doctor",
    summary: "check the configuration, data folder, lock, database schema, ledger and treasury",
    run: async () => {
      const { doctor, report } = require("./doctor") as typeof import("./doctor");
      const { lines, code } = report(await doctor());
      for (const line of lines) console.log(line);
      return code;
    },
  },
  sandbox: {
    usage: "sandbox",
    summary: "serve the sandbox network alone (ledger, Xaman, faucet, clock, wallet, explorer) for a cluster's SANDBOX_URL",
    run: async () => (await import("./sandboxServer")).sandboxCommand(),
  },
  healthcheck: {
    usage: "healthcheck",
    summary: "exit 0 when the server on this machine (HOST, PORT) answers /api/health",
    run: healthcheck,
  },
};

/** `vvx --help`: every command, one line each. */
export function helpText(): string {
  const rows = [["", "run the server (configured by environment variables: see the README)"], ...Object.values(COMMANDS).map((c) => [c.usage, c.summary]), ["--version", "print the version"], ["--help", "print this help"]];
  const width = Math.max(...rows.map(([u]) => u!.length));
  return [`VVX platform ${VERSION}`, "", "usage: vvx [command]", "", ...rows.map(([u, s]) => `  ${u!.padEnd(width)}  ${s}`)].join("\n");
}

/** Runs the operator command `argv` (never the server); resolves to the process's exit code. */
export async function runCommand(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === "--help" || name === "-h" || name === "help") {
    console.log(helpText());
    return 0;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    console.log(`vvx ${VERSION}`);
    return 0;
  }
  const command = COMMANDS[name!];
  if (!command) {
    console.error(`vvx: unknown command "${name}"\n\n${helpText()}`);
    return 2;
  }
  return command.run(args);
}

/** `vvx healthcheck` (Docker's HEALTHCHECK): the server on this machine answers /api/health with 200. */
async function healthcheck(): Promise<number> {
  const port = process.env.PORT?.trim() || "3000";
  const host = process.env.HOST?.trim();
  // A server on every interface answers on loopback; one bound to an address answers there only.
  const address = !host || host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  try {
    const res = await fetch(`http://${address}:${port}/api/health`, { signal: AbortSignal.timeout(3000) });
    return res.ok ? 0 : 1;
  } catch {
    return 1;
  }
}

/** Runs a command that takes exactly one file; its failures are one line on stderr and exit 1. */
function withFile(name: string, file: string | undefined, rest: string[], run: (dataDir: string, file: string) => string): number {
  if (!file || rest.length) {
    console.error(`usage: vvx ${name} <file>`);
    return 2;
  }
  try {
    console.log(run(dataDirFrom(), file));
    return 0;
  } catch (err) {
    if (err instanceof BackupError || err instanceof DatabaseFileError || err instanceof DataDirError) {
      console.error(`Cannot ${name}: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

function backup(dataDir: string, file: string): string {
  const done = backupDatabase(dataDir, file);
  const kb = Math.ceil(done.bytes / 1024);
  return `Backed up ${dataDir}/${DATABASE_FILE} to ${done.file} (${kb} KB, schema version ${done.schemaVersion}, mode 0600) in ${done.ms} ms.`;
}

function restore(dataDir: string, file: string): string {
  prepareDataDir(dataDir);
  const done = restoreDatabase(dataDir, file);
  return [
    `Restored ${file} (taken ${done.origin.takenAt} by VVX ${done.origin.vvxVersion}) into ${dataDir}/${DATABASE_FILE}.`,
    done.replaced ? `The database it replaced is kept as ${done.replaced}.` : "There was no database to replace.",
    "At its next start the server moves every game past what the backup may have missed: a new crash chain, new race numbers and seeds, every slots seed rotated.",
  ].join("\n");
}

