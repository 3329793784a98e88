import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { ConnectionStatements, STATEMENT_CACHE_SIZE } from "./statements";

function connection() {
  const sqlite = new Database(":memory:");
  sqlite.exec("CREATE TABLE t (n INTEGER NOT NULL)");
  const compiled: string[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((text: string) => (compiled.push(text), prepare(text))) as typeof sqlite.prepare;
  const statements = new ConnectionStatements(sqlite);
  const d = drizzle(sqlite);
  statements.cacheOneTimeQueries(d);
  return { sqlite, d, statements, compiled };
}

test("a one-time query's SQL is compiled once and its statement reused with new values", async () => {
  const { d, compiled } = connection();
  for (let n = 0; n < 5; n++) d.run(sql`INSERT INTO t (n) VALUES (${n})`);
  const rows = await d.all<{ n: number }>(sql`SELECT n FROM t WHERE n >= ${3} ORDER BY n`);
  expect(rows.map((r) => r.n)).toEqual([3, 4]);
  expect(compiled).toEqual(["INSERT INTO t (n) VALUES (?)", "SELECT n FROM t WHERE n >= ? ORDER BY n"]);
});

test("past the cache's size the least recently used statement is finalized; its SQL compiles again when next run", () => {
  const { d, compiled, statements, sqlite } = connection();
  const countOf = (k: number) => d.all<{ c: number }>(sql.raw(`SELECT count(*) + ${k} AS c FROM t`))[0]!.c;
  for (let k = 0; k <= STATEMENT_CACHE_SIZE; k++) expect(countOf(k)).toBe(k);
  expect(compiled).toHaveLength(STATEMENT_CACHE_SIZE + 1);
  // The newest are kept; the first was dropped and is compiled anew.
  expect(countOf(STATEMENT_CACHE_SIZE)).toBe(STATEMENT_CACHE_SIZE);
  expect(compiled).toHaveLength(STATEMENT_CACHE_SIZE + 1);
  expect(countOf(0)).toBe(0);
  expect(compiled).toHaveLength(STATEMENT_CACHE_SIZE + 2);
  statements.finalize();
  sqlite.close(true);
});
