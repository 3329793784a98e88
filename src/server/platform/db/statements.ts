import type { Database, Statement } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { PreparedQuery } from "drizzle-orm/bun-sqlite/session";

/** Compiled statements kept per connection, the least recently used dropped past this many. */
export const STATEMENT_CACHE_SIZE = 256;

type OneTimeArgs = [query: { sql: string }, ...rest: unknown[]];
interface Session {
  logger: unknown;
  prepareOneTimeQuery(...args: OneTimeArgs): unknown;
}

/**
 * The SQLite statements of one connection, finalized together when the store closes: a statement left to the
 * GC keeps its connection open (the WAL not checkpointed) until the GC gets to it. Holds the store's own
 * (BEGIN, COMMIT...), those `prepared` made, and the compiled statements of one-time queries.
 */
export class ConnectionStatements {
  private readonly kept = new Set<Statement>();
  /** One-time queries' statements by SQL text, least recently used first. */
  private readonly bySql = new Map<string, Statement>();

  constructor(private readonly connection: Database) {}

  keep(stmt: Statement): Statement {
    this.kept.add(stmt);
    return stmt;
  }

  /**
   * drizzle compiles a new statement for every awaited builder (`client.prepare`, left to the GC): here the
   * statement of a SQL text is compiled once and reused (a quarter of a small query's time). A statement is
   * run at once by the query that took it (drizzle's sync driver), so reusing or dropping it later is safe.
   */
  cacheOneTimeQueries(d: BunSQLiteDatabase): void {
    const session = (d as unknown as { session: Session }).session;
    session.prepareOneTimeQuery = (query, ...rest) =>
      new (PreparedQuery as unknown as new (stmt: Statement, ...args: unknown[]) => unknown)(this.compiled(query.sql), query, session.logger, ...rest);
  }

  finalize(): void {
    for (const stmt of [...this.kept, ...this.bySql.values()]) stmt.finalize();
    this.kept.clear();
    this.bySql.clear();
  }

  private compiled(sql: string): Statement {
    let stmt = this.bySql.get(sql);
    if (stmt) this.bySql.delete(sql);
    else stmt = this.connection.prepare(sql);
    this.bySql.set(sql, stmt);
    if (this.bySql.size > STATEMENT_CACHE_SIZE) {
      const [oldest, dropped] = this.bySql.entries().next().value!;
      this.bySql.delete(oldest);
      dropped.finalize();
    }
    return stmt;
  }
}
