import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { DATA_DIR_MODE, ownerOnlyFile } from "../../platform/dataDir";
import { join } from "node:path";
import { entryJson, type Entry } from "./view";

/** A closed ledger's header, as rippled reports it (times in seconds since the Ripple epoch). */
export interface LedgerHeader {
  ledger_index: number;
  ledger_hash: string;
  parent_hash: string;
  account_hash: string;
  transaction_hash: string;
  close_time: number;
  parent_close_time: number;
  close_time_resolution: number;
  close_flags: number;
  total_coins: string;
  tx_count: number;
}

/** A transaction as stored once its ledger closed. */
export interface StoredTx {
  hash: string;
  ledger_index: number;
  tx_index: number;
  tx_json: Record<string, any>;
  meta: Record<string, any>;
  tx_blob: string;
}

export interface FaucetAccount {
  address: string;
  seed: string;
  created: string;
}

/** A transaction of a closing ledger: its accounts (for account_tx) and its JSON text, made once for the store and the streams. */
export type ClosingTx = StoredTx & { accounts: string[]; txText: string; metaText: string };

/** What one ledger close writes, in one SQLite transaction. */
export interface CloseBatch {
  header: LedgerHeader;
  writes: [string, Entry | null][];
  txs: ClosingTx[];
  /** Each changed object's value before this ledger (undefined: it did not exist), kept for reads of older ledgers. */
  before?: Map<string, Entry | undefined>;
  /** Undo records older than this ledger are dropped. */
  keepFrom?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, type TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS ledgers (
  ledger_index INTEGER PRIMARY KEY, ledger_hash TEXT NOT NULL UNIQUE, parent_hash TEXT NOT NULL,
  account_hash TEXT NOT NULL, transaction_hash TEXT NOT NULL, close_time INTEGER NOT NULL,
  parent_close_time INTEGER NOT NULL, close_time_resolution INTEGER NOT NULL, close_flags INTEGER NOT NULL,
  total_coins TEXT NOT NULL, tx_count INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS transactions (
  hash TEXT PRIMARY KEY, ledger_index INTEGER NOT NULL, tx_index INTEGER NOT NULL, type TEXT NOT NULL,
  account TEXT NOT NULL, result TEXT NOT NULL, tx_json TEXT NOT NULL, meta TEXT NOT NULL, tx_blob TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS transactions_order ON transactions (ledger_index, tx_index);
CREATE TABLE IF NOT EXISTS account_transactions (
  account TEXT NOT NULL, ledger_index INTEGER NOT NULL, tx_index INTEGER NOT NULL, hash TEXT NOT NULL,
  PRIMARY KEY (account, ledger_index, tx_index)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS state_history (
  ledger_index INTEGER NOT NULL, key TEXT NOT NULL, data TEXT, PRIMARY KEY (ledger_index, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS faucet_accounts (address TEXT PRIMARY KEY, seed TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

const ROWS_PER_INSERT = 100;

type TxRow = { hash: string; ledger_index: number; tx_index: number; tx_json: string; meta: string; tx_blob: string };

function toStoredTx(row: TxRow): StoredTx {
  return { hash: row.hash, ledger_index: row.ledger_index, tx_index: row.tx_index, tx_json: JSON.parse(row.tx_json), meta: JSON.parse(row.meta), tx_blob: row.tx_blob };
}

/** The sandbox ledger's SQLite file (DATA_DIR/sandbox.db): state objects, ledgers, transactions, faucet seeds. */
export class SandboxStore {
  readonly db: Database;
  readonly path: string;

  constructor(dataDir: string) {
    mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
    this.path = join(dataDir, "sandbox.db");
    ownerOnlyFile(this.path);
    this.db = new Database(this.path, { create: true, strict: true });
    this.db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;");
    this.db.exec(SCHEMA);
  }

  setting(key: string): string | undefined {
    return this.db.query<{ value: string }, [string]>("SELECT value FROM settings WHERE key = ?").get(key)?.value;
  }

  setSetting(key: string, value: string): void {
    this.db.query("INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
  }

  loadEntries(): Entry[] {
    return this.db.query<{ data: string }, []>("SELECT data FROM entries").all().map((r) => JSON.parse(r.data));
  }

  lastLedger(): LedgerHeader | undefined {
    return this.db.query<LedgerHeader, []>("SELECT * FROM ledgers ORDER BY ledger_index DESC LIMIT 1").get() ?? undefined;
  }

  firstLedgerIndex(): number | undefined {
    return this.db.query<{ i: number | null }, []>("SELECT MIN(ledger_index) AS i FROM ledgers").get()?.i ?? undefined;
  }

  ledger(index: number): LedgerHeader | undefined {
    return this.db.query<LedgerHeader, [number]>("SELECT * FROM ledgers WHERE ledger_index = ?").get(index) ?? undefined;
  }

  ledgerByHash(hash: string): LedgerHeader | undefined {
    return this.db.query<LedgerHeader, [string]>("SELECT * FROM ledgers WHERE ledger_hash = ?").get(hash.toUpperCase()) ?? undefined;
  }

  recentLedgers(limit: number): LedgerHeader[] {
    return this.db.query<LedgerHeader, [number]>("SELECT * FROM ledgers ORDER BY ledger_index DESC LIMIT ?").all(limit);
  }

  /** Writes one closed ledger: its header, changed objects, transactions and the per-account history index. */
  saveClose(batch: CloseBatch): void {
    const putEntry = this.db.query("INSERT INTO entries (key, type, data) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET type = excluded.type, data = excluded.data");
    const delEntry = this.db.query("DELETE FROM entries WHERE key = ?");
    const h = batch.header;
    this.db.transaction(() => {
      this.db
        .query(
          "INSERT INTO ledgers (ledger_index, ledger_hash, parent_hash, account_hash, transaction_hash, close_time, parent_close_time, close_time_resolution, close_flags, total_coins, tx_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .run(h.ledger_index, h.ledger_hash, h.parent_hash, h.account_hash, h.transaction_hash, h.close_time, h.parent_close_time, h.close_time_resolution, h.close_flags, h.total_coins, h.tx_count);
      for (const [key, entry] of batch.writes) {
        if (entry) putEntry.run(key, entry.LedgerEntryType, entryJson(entry));
        else delEntry.run(key);
      }
      if (batch.before) {
        const putUndo = this.db.query("INSERT OR REPLACE INTO state_history (ledger_index, key, data) VALUES (?, ?, ?)");
        for (const [key, entry] of batch.before) putUndo.run(h.ledger_index, key, entry ? entryJson(entry) : null);
      }
      if (batch.keepFrom !== undefined) this.db.query("DELETE FROM state_history WHERE ledger_index < ?").run(batch.keepFrom);
      const txRows: unknown[][] = [];
      const accountRows: unknown[][] = [];
      for (const tx of batch.txs) {
        txRows.push([tx.hash, tx.ledger_index, tx.tx_index, tx.tx_json.TransactionType, tx.tx_json.Account, tx.meta.TransactionResult, tx.txText, tx.metaText, tx.tx_blob]);
        for (const account of tx.accounts) accountRows.push([account, tx.ledger_index, tx.tx_index, tx.hash]);
      }
      this.insertMany("INSERT INTO transactions (hash, ledger_index, tx_index, type, account, result, tx_json, meta, tx_blob) VALUES", txRows);
      this.insertMany("INSERT OR IGNORE INTO account_transactions (account, ledger_index, tx_index, hash) VALUES", accountRows);
    })();
  }

  /** Inserts rows a hundred to a statement (one statement run per row was most of a close's SQLite time). */
  private insertMany(head: string, rows: unknown[][]): void {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const chunk = rows.slice(i, i + ROWS_PER_INSERT);
      const tuple = `(${chunk[0]!.map(() => "?").join(", ")})`;
      this.db.query<unknown, any[]>(`${head} ${Array(chunk.length).fill(tuple).join(", ")}`).run(...chunk.flat());
    }
  }

  /** The kept undo records, oldest ledger first, to rebuild the readable history after a restart. */
  stateHistory(): { ledgerIndex: number; before: Map<string, Entry | undefined> }[] {
    const rows = this.db.query<{ ledger_index: number; key: string; data: string | null }, []>("SELECT ledger_index, key, data FROM state_history ORDER BY ledger_index").all();
    const out: { ledgerIndex: number; before: Map<string, Entry | undefined> }[] = [];
    for (const row of rows) {
      if (out.at(-1)?.ledgerIndex !== row.ledger_index) out.push({ ledgerIndex: row.ledger_index, before: new Map() });
      out.at(-1)!.before.set(row.key, row.data === null ? undefined : JSON.parse(row.data));
    }
    return out;
  }

  tx(hash: string): StoredTx | undefined {
    const row = this.db.query<TxRow, [string]>("SELECT * FROM transactions WHERE hash = ?").get(hash.toUpperCase());
    return row ? toStoredTx(row) : undefined;
  }

  ledgerTxs(ledgerIndex: number): StoredTx[] {
    return this.db.query<TxRow, [number]>("SELECT * FROM transactions WHERE ledger_index = ? ORDER BY tx_index").all(ledgerIndex).map(toStoredTx);
  }

  recentTxs(limit: number): StoredTx[] {
    return this.db.query<TxRow, [number]>("SELECT * FROM transactions ORDER BY ledger_index DESC, tx_index DESC LIMIT ?").all(limit).map(toStoredTx);
  }

  /**
   * One page of an account's validated history between two ledgers, newest
   * first unless `forward`; `after` is the marker (exclusive position).
   */
  accountTxs(account: string, min: number, max: number, forward: boolean, limit: number, after?: { ledger: number; seq: number }): StoredTx[] {
    const cmp = forward ? ">" : "<";
    const order = forward ? "ASC" : "DESC";
    const markerClause = after ? `AND (a.ledger_index ${cmp} ? OR (a.ledger_index = ? AND a.tx_index ${cmp}= ?))` : "";
    const sql = `SELECT t.* FROM account_transactions a JOIN transactions t ON t.hash = a.hash
      WHERE a.account = ? AND a.ledger_index BETWEEN ? AND ? ${markerClause}
      ORDER BY a.ledger_index ${order}, a.tx_index ${order} LIMIT ?`;
    const params: (string | number)[] = [account, min, max];
    if (after) params.push(after.ledger, after.ledger, after.seq);
    params.push(limit);
    return this.db.query<TxRow, (string | number)[]>(sql).all(...params).map(toStoredTx);
  }

  addFaucetAccount(account: FaucetAccount): void {
    this.db.query("INSERT INTO faucet_accounts (address, seed, created) VALUES (?, ?, ?)").run(account.address, account.seed, account.created);
  }

  faucetAccounts(): FaucetAccount[] {
    return this.db.query<FaucetAccount, []>("SELECT address, seed, created FROM faucet_accounts ORDER BY created, address").all();
  }

  close(): void {
    this.db.close();
  }
}
