import { bigint, timestamp } from "drizzle-orm/pg-core";

// How the PostgreSQL schema stores what SQLite keeps in INTEGER columns, with the TypeScript types the
// repositories see unchanged (each feature's schema.pg.ts mirrors its schema.ts with these).

/** A whole number (ids, counts, tags, ledger sequences, micro-VVX prices): bigint, since many pass 2^31; a JS number. */
export const whole = (name: string) => bigint(name, { mode: "number" });

/** A money amount kept as a bigint in TypeScript (drops or micro-VVX: platform/db/columns.ts's bigintAmount). */
export const amount = (name: string) => bigint(name, { mode: "bigint" });

/** A time to the millisecond (SQLite's timestamp_ms): timestamptz(3), a Date. */
export const timeMs = (name: string) => timestamp(name, { mode: "date", precision: 3, withTimezone: true });
