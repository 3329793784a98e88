import { defineConfig } from "drizzle-kit";

// The product database: every feature declares its own tables in its schema.ts.
export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/server/*/schema.ts", "./src/server/*/*/schema.ts"],
  out: "./src/server/platform/db/migrations",
});
