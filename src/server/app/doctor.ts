import { Database } from "bun:sqlite";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { Client, Wallet } from "xrpl";
import { ConfigError, ConfigErrors, dataDirFrom, loadConfig, type Config } from "../platform/config";
import { SCHEMA_VERSION, schemaVersionOf } from "../platform/db";
import { backupOrigin, DATABASE_FILE } from "../platform/db/backup";
import { lockState } from "../platform/db/dataDirLock";
import { VERSION } from "../platform/version";
import { sandboxRoles } from "../sandbox";

/** One finding: ok, a warning (works, but look at it) or a failure (the server cannot run well). */
export interface Finding {
  level: "ok" | "warn" | "fail";
  topic: string;
  text: string;
}

/** Group and other rights: none of them belong on DATA_DIR or a file in it. */
const OTHERS = 0o077;
/** How long the ledger may take to answer before `doctor` says it is unreachable. */
const LEDGER_TIMEOUT_MS = 10_000;

/**
 * `vvx doctor`: what an operator checks before (or instead of) starting the server. Reads only: the
 * configuration, the data folder's modes, the lock, the database's schema, the ledger and the treasury.
 */
export async function doctor(env: Record<string, string | undefined> = process.env): Promise<Finding[]> {
  const findings: Finding[] = [];
  const note = (level: Finding["level"], topic: string, text: string) => void findings.push({ level, topic, text });
  let config: Config | undefined;
  try {
    config = loadConfig(env);
    note("ok", "configuration", `network ${config.network}, ${config.publicUrl}, listens on ${config.host}:${config.port}, ${config.adminWallets.length} admin wallet(s)`);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const e of err instanceof ConfigErrors ? err.all : [err]) note("fail", "configuration", e.message);
  }
  const dataDir = resolve(config?.dataDir ?? dataDirFrom(env));
  dataFolder(dataDir, note);
  const running = lock(dataDir, note);
  database(dataDir, note);
  if (config) await ledger(config, running, note);
  return findings;
}

type Note = (level: Finding["level"], topic: string, text: string) => void;

function dataFolder(dir: string, note: Note): void {
  if (!existsSync(dir)) return note("warn", "data folder", `${dir} does not exist yet; the server makes it (mode 0700) at its first start`);
  const open: string[] = [];
  const mode = statSync(dir).mode & 0o777;
  if (mode & OTHERS) open.push(`${dir} is ${octal(mode)}`);
  const names = readdirSync(dir);
  for (const name of names) {
    const m = statSync(join(dir, name)).mode & 0o777;
    if (m & OTHERS) open.push(`${name} is ${octal(m)}`);
  }
  if (open.length) note("warn", "data folder", `readable by other users: ${open.join(", ")}; the server makes them owner-only at its next start (or chmod 700 the folder, 600 its files)`);
  else note("ok", "data folder", `${dir}: the folder and its ${names.length} file(s) are owner-only`);
}

/** Returns whether a server holds the folder. */
function lock(dir: string, note: Note): boolean {
  const state = lockState(dir);
  if (state.held) note("ok", "lock", "held: a VVX server is running on this folder");
  else note("ok", "lock", state.last ? `free: no server runs on this folder (the last one, pid ${state.last.pid}, started ${state.last.since})` : "free: no server has run on this folder yet");
  return state.held;
}

function database(dir: string, note: Note): void {
  const path = join(dir, DATABASE_FILE);
  if (!existsSync(path)) return note("warn", "database", `${path} does not exist yet; the first start creates it`);
  let db: Database | undefined;
  try {
    db = new Database(path, { readonly: true });
    db.exec("PRAGMA busy_timeout = 2000");
    const { version, unknown } = schemaVersionOf(db);
    const bytes = statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
    const size = `${(bytes / 1024 / 1024).toFixed(1)} MB with its WAL`;
    if (version > SCHEMA_VERSION || unknown.length) note("fail", "database", `schema version ${version} is newer than this VVX ${VERSION} knows (${SCHEMA_VERSION}); run the newer VVX`);
    else if (version < SCHEMA_VERSION) note("warn", "database", `schema version ${version} (${size}); the next start applies ${SCHEMA_VERSION - version} migration(s) to reach ${SCHEMA_VERSION}`);
    else note("ok", "database", `schema version ${version}, the one this VVX ${VERSION} writes (${size})`);
    const origin = backupOrigin(db);
    if (origin) note("warn", "database", `this is a copy of a backup taken ${origin.takenAt}; the next start moves every game past what it may have missed`);
  } catch (err) {
    note("fail", "database", `${path} cannot be read: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    db?.close();
  }
}

/** The ledger answers, how old its validated ledger is, and the treasury's balance and reserves. */
async function ledger(config: Config, running: boolean, note: Note): Promise<void> {
  if (config.network === "sandbox" && !running) return note("ok", "ledger", "the sandbox ledger runs inside the server, which is not running: not checked");
  const treasury = config.platformSeed ? Wallet.fromSeed(config.platformSeed).classicAddress : sandboxRoles(config).treasury.classicAddress;
  const issuer = config.vvxIssuer ?? sandboxRoles(config).issuer.classicAddress;
  // A one-shot client, not the server's gateway: nothing here needs its reconnecting stream.
  const client = new Client(config.xrplUrl, { connectionTimeout: LEDGER_TIMEOUT_MS });
  try {
    await client.connect();
    const state = (await client.request({ command: "server_state" })).result.state;
    const validated = state.validated_ledger;
    if (!validated) return note("fail", "ledger", `${config.xrplUrl} answers but has no validated ledger (server state ${state.server_state})`);
    const ageS = validated.close_time === undefined ? undefined : Math.round(Date.now() / 1000 - (validated.close_time + 946_684_800));
    const stale = ageS !== undefined && ageS > 60;
    note(stale ? "warn" : "ok", "ledger", `${config.xrplUrl} answers (${state.build_version}): validated ledger ${validated.seq}${ageS === undefined ? "" : `, closed ${ageS} s ago`}`);
    const account = await client.request({ command: "account_info", account: treasury, ledger_index: "validated" }).catch((err: Error) => err);
    if (account instanceof Error) return note("fail", "treasury", `${treasury}: ${account.message} (is the account funded?)`);
    const data = account.result.account_data;
    const reserve = BigInt(validated.reserve_base) + BigInt(data.OwnerCount) * BigInt(validated.reserve_inc);
    const balance = BigInt(data.Balance);
    const lines = await client.request({ command: "account_lines", account: treasury, peer: issuer, ledger_index: "validated" });
    const vvx = lines.result.lines.find((l) => l.currency === config.vvxCurrency)?.balance ?? "0";
    const spendable = balance - reserve;
    const vvxText = Number(vvx).toLocaleString("en-US", { maximumFractionDigits: 6 });
    note(spendable > 0n ? "ok" : "warn", "treasury", `${treasury} holds ${xrp(balance)} XRP (reserves ${xrp(reserve)} XRP: base plus ${data.OwnerCount} object(s); ${xrp(spendable > 0n ? spendable : 0n)} XRP spendable) and ${vvxText} VVX`);
  } catch (err) {
    note("fail", "ledger", `${config.xrplUrl} does not answer: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await client.disconnect().catch(() => undefined);
  }
}

const octal = (mode: number) => `0${mode.toString(8)}`;
const xrp = (drops: bigint) => (Number(drops) / 1e6).toLocaleString("en-US", { maximumFractionDigits: 6 });

/** The findings as lines (`ok    topic: text`), and the exit code: 1 when any failed. */
export function report(findings: Finding[]): { lines: string[]; code: number } {
  const lines = findings.map((f) => `${f.level.toUpperCase().padEnd(5)} ${f.topic}: ${f.text}`);
  return { lines, code: findings.some((f) => f.level === "fail") ? 1 : 0 };
}
