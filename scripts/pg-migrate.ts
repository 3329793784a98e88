// Creates or brings up to date the PostgreSQL schema at DATABASE_URL (the migrations of
// src/server/platform/db/pg/migrations; instances starting together wait for one another).
//
//   DATABASE_URL=postgres://vvx:<password>@127.0.0.1:5432/vvx bun run db:migrate-pg
import { SQL } from "bun";
import { applyPgMigrations, PG_SCHEMA_VERSION } from "../src/server/platform/db/pg";

const url = process.env.DATABASE_URL?.trim();
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  console.error("DATABASE_URL: must be set to a postgres:// or postgresql:// URL");
  process.exit(1);
}
const sql = new SQL(url, { max: 1, connectionTimeout: 5 });
try {
  const applied = await applyPgMigrations(sql);
  console.log(applied.length ? `applied ${applied.join(", ")}; schema version ${PG_SCHEMA_VERSION}` : `up to date (schema version ${PG_SCHEMA_VERSION})`);
} catch (err) {
  console.error(`cannot migrate the database at DATABASE_URL: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await sql.close();
}
