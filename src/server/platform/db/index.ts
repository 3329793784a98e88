import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { migrations } from "./migrations";

/** The product database (tables are declared by each feature's schema.ts). */
export type Db = BunSQLiteDatabase;
/** The database or an open drizzle transaction on it (writes that must commit together take this). */
export type DbOrTx = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Store {
  db: Db;
  sqlite: Database;
  path: string;
  close(): void;
}

/** Opens (or creates) the product database under dataDir in WAL mode and brings its schema up to date. */
export function openStore(dataDir: string, file = "vvx.db"): Store {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, file);
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  applyMigrations(sqlite);
  const db = drizzle(sqlite);
  return { db, sqlite, path, close: () => sqlite.close() };
}

/** Applies the embedded migrations not yet recorded, each in its own transaction. */
export function applyMigrations(sqlite: Database): string[] {
  sqlite.exec("CREATE TABLE IF NOT EXISTS _migrations (tag TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)");
  const done = new Set(sqlite.query<{ tag: string }, []>("SELECT tag FROM _migrations").all().map((r) => r.tag));
  const applied: string[] = [];
  for (const m of migrations) {
    if (done.has(m.tag)) continue;
    sqlite.transaction(() => {
      for (const statement of m.sql.split("--> statement-breakpoint")) {
        if (statement.trim()) sqlite.exec(statement);
      }
      sqlite.query("INSERT INTO _migrations (tag, applied_at) VALUES (?, ?)").run(m.tag, Date.now());
    })();
    applied.push(m.tag);
  }
  return applied;
}
