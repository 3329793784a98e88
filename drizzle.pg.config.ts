import { defineConfig } from "drizzle-kit";

// The PostgreSQL schema (DATABASE_URL): every feature's schema.pg.ts mirrors its schema.ts; migrations of its own.
export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/server/*/schema.pg.ts", "./src/server/*/*/schema.pg.ts"],
  out: "./src/server/platform/db/pg/migrations",
});
