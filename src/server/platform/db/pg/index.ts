import { SQL } from "bun";
import { drizzle, type BunSQLDatabase } from "drizzle-orm/bun-sql";
import { migrations } from "./migrations";
import { pgDb, type Db } from "../store";

// The PostgreSQL side of the store (DATABASE_URL): drizzle's bun-sql driver over Bun's native client, the
// schema of every feature's schema.pg.ts, its own migrations (./migrations, embedded like SQLite's). The
// repositories still run on SQLite (platform/db/index.ts); `async` is the store they move onto (../store.ts).

/** The product database on PostgreSQL. */
export type PgDb = BunSQLDatabase;

export interface PgStore {
  db: PgDb;
  /** The same database as the async store every repository is written against (SERIALIZABLE transactions, retried). */
  async: Db;
  sql: SQL;
  close(): Promise<void>;
}

/** The schema this binary writes on PostgreSQL: its number of migrations. */
export const PG_SCHEMA_VERSION = migrations.length;

/** Migrations run one instance at a time: instances starting together wait on this advisory lock ("VVX", 2). */
const MIGRATION_LOCK: readonly [number, number] = [0x565658, 2];

/** A database written by a newer VVX: running on it would misread it. */
export class NewerPgSchemaError extends Error {
  constructor(unknown: string[]) {
    super(`the PostgreSQL database has migrations this VVX does not know (${unknown.join(", ")}): run the newer VVX, or restore a backup made with this version`);
    this.name = "NewerPgSchemaError";
  }
}

/** Connects to DATABASE_URL and brings its schema up to date. */
export async function openPgStore(url: string, options: { max?: number } = {}): Promise<PgStore> {
  const sql = new SQL(url, { max: options.max ?? 10 });
  try {
    await applyPgMigrations(sql);
  } catch (err) {
    await sql.close();
    throw err;
  }
  const db = drizzle({ client: sql });
  return { db, async: pgDb(db), sql, close: () => sql.close() };
}

/**
 * Applies the embedded migrations not yet recorded in `_migrations`, each in its own transaction, under
 * an advisory lock held by one reserved connection (so two instances never run the same one); returns
 * the tags it applied. Refuses a database with migrations this binary does not know.
 */
export async function applyPgMigrations(sql: SQL): Promise<string[]> {
  const conn = await sql.reserve();
  try {
    const [k1, k2] = MIGRATION_LOCK;
    await conn`SELECT pg_advisory_lock(${k1}, ${k2})`;
    try {
      await conn`CREATE TABLE IF NOT EXISTS _migrations (tag text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
      const rows: { tag: string }[] = await conn`SELECT tag FROM _migrations`;
      const done = new Set(rows.map((r) => r.tag));
      const known = new Set(migrations.map((m) => m.tag));
      const unknown = [...done].filter((tag) => !known.has(tag));
      if (unknown.length > 0) throw new NewerPgSchemaError(unknown);
      const applied: string[] = [];
      for (const m of migrations) {
        if (done.has(m.tag)) continue;
        await conn.begin(async (tx) => {
          for (const statement of m.sql.split("--> statement-breakpoint")) {
            if (statement.trim()) await tx.unsafe(statement);
          }
          await tx`INSERT INTO _migrations (tag) VALUES (${m.tag})`;
        });
        applied.push(m.tag);
      }
      return applied;
    } finally {
      await conn`SELECT pg_advisory_unlock(${k1}, ${k2})`;
    }
  } finally {
    await conn.release();
  }
}
