import type { Database, Statement } from "bun:sqlite";
import { inTransaction, tableVersionsOf, writerOf, type Db } from "./store";
import type { TableVersions } from "./tableVersions";

/** The table SQLite triggers keep one counter per watched table in. */
const VERSIONS_TABLE = "_table_versions";
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** How often commits by other connections (not the product's own) are looked for. */
export const OTHER_WRITERS_MS = 100;

/** Most entries a keyed read model keeps (a bound, not a tuning knob): past it the map starts over. */
export const MAX_KEYED_ENTRIES = 10_000;

/** Cached values built from tables, rebuilt after any write to one of them (SQLite's below; PostgreSQL's further down). */
export interface ReadModelSet {
  /** A value built from `tables`, rebuilt after any write to one of them. */
  model<T>(tables: readonly string[], build: () => T): ReadModel<T>;
  /** Values per key (a wallet, a page) built from `tables`; every key is dropped after any write to one of them. */
  keyed<K, T>(tables: readonly string[], build: (key: K) => T): KeyedReadModel<K, T>;
  /** Runs `read` (reads only, no await) with the tables' versions read once for every read model it asks. */
  readTogether<T>(read: () => T): T;
}

/**
 * Read models cached in memory and invalidated by the database itself. Each watched table gets
 * triggers (after insert, update and delete) that bump its counter in `_table_versions`, so any
 * write bumps it: a feature's service, a raw SQL statement, a migration. A read model remembers the
 * counters of the tables it depends on when it was built and is rebuilt when one differs; the
 * counters are read again only after this connection wrote anything (see changeMark), so the usual
 * check reads no table. A rolled-back write rolls its counter back with it, and nothing is cached
 * while this connection is inside a transaction (it could see its own uncommitted rows), so a
 * cached value is the committed state after every write the product makes.
 */
export class ReadModels implements ReadModelSet {
  private readonly watched = new Set<string>();
  private readonly ownChanges: Statement<unknown, []>;
  private readonly dataVersion: Statement<unknown, []>;

  constructor(private readonly sqlite: Database) {
    sqlite.exec(`CREATE TABLE IF NOT EXISTS ${VERSIONS_TABLE} (name TEXT PRIMARY KEY, version INTEGER NOT NULL DEFAULT 0)`);
    this.ownChanges = sqlite.query("SELECT total_changes()");
    this.dataVersion = sqlite.query("PRAGMA data_version");
  }

  /** Creates the counter and triggers of `table` once (they persist in the database file). */
  watch(table: string): void {
    if (this.watched.has(table)) return;
    if (!IDENTIFIER.test(table)) throw new Error(`not a table name: ${table}`);
    const bump = `BEGIN UPDATE ${VERSIONS_TABLE} SET version = version + 1 WHERE name = '${table}'; END`;
    this.sqlite.transaction(() => {
      this.sqlite.query(`INSERT OR IGNORE INTO ${VERSIONS_TABLE} (name, version) VALUES (?, 0)`).run(table);
      for (const event of ["insert", "update", "delete"]) {
        this.sqlite.exec(`CREATE TRIGGER IF NOT EXISTS ${VERSIONS_TABLE}_${table}_${event} AFTER ${event.toUpperCase()} ON ${table} ${bump}`);
      }
    })();
    this.watched.add(table);
  }

  /**
   * The counters of `tables` as one number: their sum (each counter only grows between commits, so
   * the sum changes exactly when one of them does). The usual answer reads no table: SQLite's count
   * of this connection's changes (triggers included) and its data version (which moves when another
   * connection commits); only when one of those moved are the tables' counters summed again.
   */
  versionReader(tables: readonly string[]): () => number {
    for (const table of tables) this.watch(table);
    const sum = this.sqlite.query<{ v: number }, []>(`SELECT sum(version) AS v FROM ${VERSIONS_TABLE} WHERE name IN (${tables.map((t) => `'${t}'`).join(", ")})`);
    let seen = "";
    let version = -1;
    return () => {
      const now = this.changeMark();
      if (now !== seen) {
        version = sum.get()?.v ?? 0;
        seen = now;
      }
      return version;
    };
  }

  /**
   * Changes by this connection and commits by others, as one mark (equal marks: nothing was written
   * in between). The product writes its database through this one connection, whose count SQLite
   * keeps in memory (no read at all); another process's commits (an operator's tool) show in the
   * data version, which costs a read of the WAL index, so it is looked at once per OTHER_WRITERS_MS.
   */
  private changeMark(): string {
    if (this.pinned !== undefined) return this.pinned;
    const own = this.ownChanges.values()[0]![0] as number;
    const now = performance.now();
    if (now - this.otherCheckedAt >= OTHER_WRITERS_MS) {
      this.otherVersion = this.dataVersion.values()[0]![0] as number;
      this.otherCheckedAt = now;
    }
    return `${own}/${this.otherVersion}`;
  }
  private otherCheckedAt = -Infinity;
  private otherVersion = 0;
  private pinned: string | undefined;

  /**
   * Runs `read`, which only reads (read models and queries, no write, no await), with the change mark
   * read once for all the read models it asks: nothing can be written between its reads, since this
   * connection is the product's one writer and `read` runs to its end before anything else does.
   */
  readTogether<T>(read: () => T): T {
    if (this.pinned !== undefined) return read();
    this.pinned = this.changeMark();
    try {
      return read();
    } finally {
      this.pinned = undefined;
    }
  }

  /** A value built from `tables`, rebuilt after any write to one of them. */
  model<T>(tables: readonly string[], build: () => T): ReadModel<T> {
    return new ReadModel(this.versionReader(tables), () => this.sqlite.inTransaction, build);
  }

  /** Values per key (a wallet, a page) built from `tables`; every key is dropped after any write to one of them. */
  keyed<K, T>(tables: readonly string[], build: (key: K) => T): KeyedReadModel<K, T> {
    return new KeyedReadModel(this.versionReader(tables), () => this.sqlite.inTransaction, build);
  }
}

/** One cached value (see ReadModels). */
export class ReadModel<T> {
  private version = -1;
  private value: T | undefined;

  constructor(
    private readonly readVersion: () => number,
    private readonly inTransaction: () => boolean,
    private readonly build: () => T,
  ) {}

  get(): T {
    if (this.inTransaction()) return this.build();
    const version = this.readVersion();
    if (version !== this.version) {
      this.value = forgetIfRejected(this.build(), () => (this.version = -1));
      this.version = version;
    }
    return this.value as T;
  }

  /**
   * The value when it is built, fresh and (for an async build) resolved, else undefined (get() builds it):
   * a cached answer taken this way goes out without a promise or a query.
   */
  now(): Awaited<T> | undefined {
    if (this.version === -1 || this.inTransaction() || this.readVersion() !== this.version) return undefined;
    return resolvedOf(this.value as T);
  }
}

/** A built value as it is now: itself, or its promise's value once resolved (undefined before). */
function resolvedOf<T>(value: T): Awaited<T> | undefined {
  return value instanceof Promise ? (settledValue(value)?.value as Awaited<T> | undefined) : (value as Awaited<T>);
}

/** The values of read models' promises that have resolved (a cached value is its promise: see forgetIfRejected). */
const settledValues = new WeakMap<Promise<unknown>, unknown>();

/** A read model's promise's value once it has resolved, without a turn of the event loop; undefined before. */
export function settledValue<T>(value: Promise<T>): { value: T } | undefined {
  return settledValues.has(value) ? { value: settledValues.get(value) as T } : undefined;
}

/**
 * A read model's value handed to `then` in the same tick once its promise has resolved (else once it does): a read
 * model built by an async query still answers a hot read synchronously while nothing changed.
 */
export function settledThen<T, R>(value: Promise<T>, then: (v: T) => R): R | Promise<R> {
  const settled = settledValue(value);
  return settled ? then(settled.value) : value.then(then);
}

/** The values of read models' promises, in the same tick when every one has resolved (else once they do). */
export function settledAll<T>(values: Promise<T>[]): T[] | Promise<T[]> {
  const out: T[] = [];
  for (const value of values) {
    const settled = settledValue(value);
    if (!settled) return Promise.all(values);
    out.push(settled.value);
  }
  return out;
}

/** A value built by an async build is its promise (cached like any value, its value remembered once resolved); a rejected one is forgotten, so the next read builds again. */
function forgetIfRejected<T>(value: T, forget: () => void): T {
  if (value instanceof Promise) value.then((v: unknown) => settledValues.set(value, v), forget);
  return value;
}

/** Cached values per key (see ReadModels). */
export class KeyedReadModel<K, T> {
  private version = -1;
  private values = new Map<K, T>();

  constructor(
    private readonly readVersion: () => number,
    private readonly inTransaction: () => boolean,
    private readonly build: (key: K) => T,
  ) {}

  get(key: K): T {
    return this.getMany([key])[0]!;
  }

  /** The values of several keys, checking the tables' version once for all of them. */
  getMany(keys: readonly K[]): T[] {
    if (this.inTransaction()) return keys.map((key) => this.build(key));
    const version = this.readVersion();
    if (version !== this.version || this.values.size + keys.length > MAX_KEYED_ENTRIES) {
      this.values = new Map();
      this.version = version;
    }
    return keys.map((key) => {
      if (this.values.has(key)) return this.values.get(key) as T;
      const values = this.values;
      const value = forgetIfRejected(this.build(key), () => values.delete(key));
      values.set(key, value);
      return value;
    });
  }

  /** The key's value when it is built, fresh and (for an async build) resolved, else undefined: see ReadModel.now. */
  now(key: K): Awaited<T> | undefined {
    if (!this.values.has(key) || this.inTransaction() || this.readVersion() !== this.version) return undefined;
    return resolvedOf(this.values.get(key) as T);
  }
}

const byConnection = new WeakMap<Database, ReadModels>();

/** The read models of one SQLite connection (made on first use; every service on it shares one). */
export function readModelsOf(sqlite: Database): ReadModels {
  let models = byConnection.get(sqlite);
  if (!models) byConnection.set(sqlite, (models = new ReadModels(sqlite)));
  return models;
}

/**
 * The read models on PostgreSQL: the tables' versions are counters in memory (tableVersions.ts), raised after
 * this instance's commits and by the other instances' notices through the broker. Builds read through the
 * pool, which sees committed rows only; inside an open transaction a read model builds afresh (as on SQLite).
 */
export class PgReadModels implements ReadModelSet {
  constructor(private readonly versions: TableVersions) {}

  model<T>(tables: readonly string[], build: () => T): ReadModel<T> {
    return new ReadModel(() => this.versions.sum(tables), inTransaction, build);
  }

  keyed<K, T>(tables: readonly string[], build: (key: K) => T): KeyedReadModel<K, T> {
    return new KeyedReadModel(() => this.versions.sum(tables), inTransaction, build);
  }

  readTogether<T>(read: () => T): T {
    return read();
  }
}

const byVersions = new WeakMap<TableVersions, PgReadModels>();

/** The read models of a store, for either driver (made on first use; every service on it shares one). */
export function readModelsFor(db: Db): ReadModelSet {
  const writer = writerOf(db);
  if (writer) return readModelsOf(writer);
  const versions = tableVersionsOf(db);
  if (!versions) throw new Error("readModelsFor: a store of neither driver");
  let models = byVersions.get(versions);
  if (!models) byVersions.set(versions, (models = new PgReadModels(versions)));
  return models;
}
