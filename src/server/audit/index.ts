import type { Token } from "../ledger/amounts";
import { auditCrash } from "./crash";
import { LedgerLookup } from "./ledger";
import { auditRacing } from "./racing";
import { AuditReport } from "./report";
import { Published, PublishedError } from "./published";
import { auditSlots, auditWheel } from "./spins";

/** Where an auditor reads a real network's ledger unless told otherwise (public rippled servers). */
export const PUBLIC_LEDGERS: Record<string, string> = { testnet: "wss://s.altnet.rippletest.net:51233", mainnet: "wss://xrplcluster.com" };

export const AUDIT_USAGE = "<url> [--ledger <wss url>] [--limit N]";

/** Whether a `verify` argument names a server to audit (rather than one of the seed forms). */
export function isAuditTarget(arg: string | undefined): boolean {
  return !!arg && /^https?:\/\//i.test(arg);
}

interface AuditArgs {
  url: string;
  ledger: string | undefined;
  limit: number | undefined;
}

function parseArgs(argv: string[]): AuditArgs | string {
  const [url, ...rest] = argv;
  if (!isAuditTarget(url)) return "the first argument must be the server's URL (http:// or https://)";
  const args: AuditArgs = { url: url!, ledger: undefined, limit: undefined };
  for (let i = 0; i < rest.length; i += 2) {
    const [name, value] = [rest[i], rest[i + 1]];
    if (value === undefined) return `${name} needs a value`;
    if (name === "--ledger" && /^wss?:\/\//.test(value)) args.ledger = value;
    else if (name === "--limit" && /^\d{1,7}$/.test(value) && Number(value) > 0) args.limit = Number(value);
    else return `unknown or bad argument "${name} ${value}"`;
  }
  return args;
}

/** The ledger the server plays on: its sandbox's own socket, or a public server of its network. */
function ledgerUrlOf(base: string, network: string): string | undefined {
  if (network === "sandbox") return `${base.replace(/^http/, "ws")}/sandbox/ledger`;
  return PUBLIC_LEDGERS[network];
}

/**
 * `vvx verify <url>` (and `bun run verify <url>`): audits a VVX server from what it publishes and what
 * the ledger holds, trusting neither its pages nor its database. Prints every mismatch and a summary;
 * resolves to the exit code: 0 with no mismatch, 1 with any, 2 when it could not audit (usage, network).
 */
export async function auditMain(argv: string[], print: (line: string) => void = console.log, command = "vvx verify"): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === "string") {
    print(`verify: ${args}\nusage: ${command} ${AUDIT_USAGE}`);
    return 2;
  }
  const src = new Published(args.url);
  let ledger: LedgerLookup | undefined;
  try {
    const site = await src.json<{ network: string; vvx: Token }>("/api/site-config");
    const ledgerUrl = args.ledger ?? ledgerUrlOf(src.base, site.network);
    if (!ledgerUrl) throw new PublishedError(`no public ledger is known for network "${site.network}": pass --ledger`);
    ledger = await LedgerLookup.connect(ledgerUrl);
    const report = new AuditReport();
    report.notes.push(`auditing ${src.base} (${site.network}) against the ledger at ${ledgerUrl}`);
    const { treasury } = await src.json<{ treasury: string }>("/api/crash/fairness");
    await auditCrash(src, ledger, report, args.limit);
    await auditRacing(src, ledger, report, treasury, args.limit);
    await auditSlots(src, ledger, report, treasury, site.vvx, args.limit);
    await auditWheel(src, report, args.limit);
    report.ledgerLookups = ledger.lookups;
    for (const line of report.lines()) print(line);
    return report.mismatches.length === 0 ? 0 : 1;
  } catch (err) {
    print(`verify: could not audit ${src.base}: ${err instanceof Error ? err.message : String(err)}`);
    return 2;
  } finally {
    await ledger?.close().catch(() => undefined);
  }
}
