import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { eq, getTableColumns, is } from "drizzle-orm";
import { getTableConfig as pgConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { openStore } from "../platform/db";
import { applyPgMigrations, NewerPgSchemaError, openPgStore, PG_SCHEMA_VERSION } from "../platform/db/pg";
import { testDatabase } from "../testing/clusterServices";

// The PostgreSQL schema must not drift from the SQLite one: every feature's schema.pg.ts mirrors its
// schema.ts (same tables, columns, TypeScript types, keys and indexes), and the two migration folders
// build the same database (checked on a real SQLite file and a real PostgreSQL database).

const SERVER = join(import.meta.dir, "..");
const schemaFiles = [...new Bun.Glob("**/schema.ts").scanSync(SERVER)].filter((f) => !f.startsWith("sandbox/")).sort();

/** Every table of a module, by export name. */
function tablesOf<T>(module: Record<string, unknown>, kind: new (...args: never[]) => T): Map<string, T> {
  return new Map(Object.entries(module).filter(([, v]) => is(v, kind as never)) as [string, T][]);
}

const sqliteTables = new Map<string, SQLiteTable>();
const pgTables = new Map<string, PgTable>();
const missingMirrors: string[] = [];
for (const file of schemaFiles) {
  for (const [name, table] of tablesOf(await import(join(SERVER, file)), SQLiteTable)) sqliteTables.set(name, table);
  const mirror = join(SERVER, file.replace(/\.ts$/, ".pg.ts"));
  if (!existsSync(mirror)) missingMirrors.push(relative(SERVER, mirror));
  else for (const [name, table] of tablesOf(await import(mirror), PgTable)) pgTables.set(name, table);
}

interface ColumnLike {
  name: string;
  dataType: string;
  notNull: boolean;
  primary: boolean;
  default?: unknown;
  isUnique: boolean;
  uniqueName?: string;
  mapFromDriverValue(value: unknown): unknown;
}

/**
 * A column as both schemas must agree on it: SQL name, TypeScript type, nullability, key, uniqueness, default. A custom
 * column (SQLite's bigintAmount) has the type of what it reads from the driver.
 */
function columnShape(column: ColumnLike) {
  const dataType = column.dataType === "custom" ? typeof column.mapFromDriverValue(0) : column.dataType;
  return { name: column.name, dataType, notNull: column.notNull, primary: column.primary, unique: column.isUnique ? column.uniqueName : undefined, default: column.default };
}

/** Indexes, keys and references of a table by SQL names, in one comparable list. */
function constraintsOf(config: ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>): string[] {
  const names = (columns: { name: string }[]) => columns.map((c) => c.name).join(",");
  return [
    ...config.indexes.map((i) => `${i.config.unique ? "unique " : ""}index ${i.config.name} (${names(i.config.columns as { name: string }[])})`),
    ...config.primaryKeys.map((k) => `primary key (${names(k.columns)})`),
    ...config.foreignKeys.map((fk) => {
      const ref = fk.reference();
      return `(${names(ref.columns)}) references ${getTableName(ref.foreignTable)} (${names(ref.foreignColumns)})`;
    }),
  ].sort();
}

function getTableName(table: SQLiteTable | PgTable): string {
  return is(table, SQLiteTable) ? sqliteConfig(table).name : pgConfig(table as PgTable).name;
}

describe("schema.pg.ts mirrors schema.ts", () => {
  test("every schema.ts has a schema.pg.ts, with the same tables under the same names", () => {
    expect(missingMirrors).toEqual([]);
    expect([...sqliteTables.keys()]).toContain("ledgerOutbox");
    const names = (tables: Map<string, SQLiteTable | PgTable>) => [...tables].map(([key, t]) => `${key}=${getTableName(t)}`).sort();
    expect(names(pgTables)).toEqual(names(sqliteTables));
  });

  test("every table has the same columns (SQL name, TypeScript type, null, key, default), keys and indexes", () => {
    for (const [key, lite] of sqliteTables) {
      const pg = pgTables.get(key);
      if (!pg) continue; // the test above names it
      const shape = (columns: Record<string, ColumnLike>) => Object.fromEntries(Object.entries(columns).map(([k, c]) => [k, columnShape(c)]));
      expect({ table: key, columns: shape(getTableColumns(pg)) }).toEqual({ table: key, columns: shape(getTableColumns(lite)) });
      expect({ table: key, constraints: constraintsOf(pgConfig(pg)) }).toEqual({ table: key, constraints: constraintsOf(sqliteConfig(lite)) });
    }
  });

  test("whole numbers are 64-bit on PostgreSQL (micro-VVX prices, DestinationTags and ledger sequences pass 2^31)", () => {
    const narrow = [...pgTables].flatMap(([key, table]) =>
      Object.entries(getTableColumns(table))
        .filter(([, c]) => c.dataType === "number" && !["PgBigInt53", "PgDoublePrecision"].includes(c.columnType))
        .map(([col, c]) => `${key}.${col}: ${c.columnType}`),
    );
    expect(narrow).toEqual([]);
  });
});

describe("the two migration folders build the same database", () => {
  let pgUrl: string;
  let drop: () => Promise<void>;
  let dataDir: string;
  beforeAll(async () => {
    ({ url: pgUrl, drop } = await testDatabase());
    dataDir = mkdtempSync(join(tmpdir(), "vvx-pgschema-"));
  });
  afterAll(async () => {
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** SQLite's declared type of a column against PostgreSQL's, as kinds. */
  const KINDS: Record<string, string[]> = { INTEGER: ["bigint", "boolean", "timestamp with time zone"], TEXT: ["text"], REAL: ["double precision"], BLOB: ["bytea"] };

  test("same tables, columns (kind, null), primary keys and indexes on a migrated SQLite file and a migrated PostgreSQL database", async () => {
    const store = openStore(dataDir);
    const pg = await openPgStore(pgUrl, { max: 2 });
    try {
      const lite = store.sqlite;
      const liteTables = lite.query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\' ORDER BY name").all().map((r) => r.name);
      const pgTableNames = (await pg.sql`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name NOT LIKE '\\_%' ORDER BY table_name`).map((r: { name: string }) => r.name);
      expect(pgTableNames).toEqual(liteTables);

      const pgColumns = await pg.sql`SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`;
      const pgIndexes = await pg.sql`
        SELECT t.relname AS table_name, i.relname AS index_name, x.indisunique AS unique, x.indisprimary AS primary,
               array_to_string(ARRAY(SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY k(n, o) JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.n ORDER BY k.o), ',') AS columns
        FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace
        WHERE s.nspname = 'public'`;
      for (const table of liteTables) {
        const liteCols = lite.query<{ name: string; type: string; notnull: number; pk: number }, []>(`PRAGMA table_info(${table})`).all();
        const pgCols = pgColumns.filter((c: { table_name: string }) => c.table_name === table);
        const kindsMatch = (c: { name: string; type: string }) => KINDS[c.type.toUpperCase()]?.includes(pgCols.find((p: { column_name: string }) => p.column_name === c.name)?.data_type);
        expect({ table, columns: pgCols.map((c: { column_name: string; is_nullable: string }) => `${c.column_name}${c.is_nullable === "NO" ? " not null" : ""}`).sort() }).toEqual({
          table,
          columns: liteCols.map((c) => `${c.name}${c.notnull || c.pk ? " not null" : ""}`).sort(),
        });
        expect({ table, otherKind: liteCols.filter((c) => !kindsMatch(c)).map((c) => `${c.name} ${c.type}`) }).toEqual({ table, otherKind: [] });

        const liteIndexes = lite.query<{ name: string; unique: number; origin: string }, []>(`PRAGMA index_list(${table})`).all();
        const describe = (name: string, unique: boolean, columns: string) => `${unique ? "unique " : ""}${name} (${columns})`;
        const litePk = liteCols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name).join(",");
        const liteShape = [
          `primary key (${litePk})`,
          ...liteIndexes.filter((i) => i.origin === "c").map((i) => describe(i.name, i.unique === 1, lite.query<{ name: string }, []>(`PRAGMA index_info(${i.name})`).all().map((c) => c.name).join(","))),
        ].sort();
        const pgShape = pgIndexes
          .filter((i: { table_name: string }) => i.table_name === table)
          .map((i: { index_name: string; unique: boolean; primary: boolean; columns: string }) => (i.primary ? `primary key (${i.columns})` : describe(i.index_name, i.unique, i.columns)))
          .sort();
        expect({ table, indexes: pgShape }).toEqual({ table, indexes: liteShape });
      }
    } finally {
      store.close();
      await pg.close();
    }
  });

  test("migrating again applies nothing; instances migrating at once apply each migration once", async () => {
    const { url, drop: dropFresh } = await testDatabase();
    const clients = [new SQL(url, { max: 1 }), new SQL(url, { max: 1 }), new SQL(url, { max: 1 })];
    try {
      const applied = await Promise.all(clients.map((sql) => applyPgMigrations(sql)));
      expect(applied.flat()).toHaveLength(PG_SCHEMA_VERSION);
      expect(await applyPgMigrations(clients[0]!)).toEqual([]);
      const [row] = await clients[0]!`SELECT count(*)::int AS n FROM _migrations`;
      expect(row.n).toBe(PG_SCHEMA_VERSION);
    } finally {
      await Promise.all(clients.map((sql) => sql.close()));
      await dropFresh();
    }
  });

  test("a database migrated by a newer VVX is refused before anything is written", async () => {
    const { url, drop: dropFresh } = await testDatabase();
    const sql = new SQL(url, { max: 1 });
    try {
      await applyPgMigrations(sql);
      await sql`INSERT INTO _migrations (tag) VALUES ('9999_from_the_future')`;
      const err = await applyPgMigrations(sql).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NewerPgSchemaError);
      expect((err as Error).message).toContain("9999_from_the_future");
    } finally {
      await sql.close();
      await dropFresh();
    }
  });

  test("drizzle's bun-sql driver reads back what it wrote with the types the repositories see on SQLite", async () => {
    const { gameBets } = await import("../games/kit/schema.pg");
    const pg = await openPgStore(pgUrl, { max: 1 });
    try {
      const bet = {
        id: "bet-1",
        game: "crash",
        wallet: "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY",
        amountDrops: 9_007_199_254_740_993n, // past 2^53: a bigint survives whole
        paymentRequestId: 1,
        destinationTag: 4_294_967_295, // the largest DestinationTag, past 2^31
        status: "confirmed",
        createdAt: new Date(1_700_000_000_123),
      };
      await pg.db.insert(gameBets).values(bet);
      const [row] = await pg.db.select().from(gameBets).where(eq(gameBets.id, "bet-1"));
      expect(row).toMatchObject({ ...bet, paramsJson: "{}", round: null, payoutDrops: null });
      expect(typeof row!.amountDrops).toBe("bigint");
      expect(row!.createdAt).toBeInstanceOf(Date);
    } finally {
      await pg.close();
    }
  });
});
