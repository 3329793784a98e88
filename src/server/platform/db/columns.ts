import { customType } from "drizzle-orm/sqlite-core";

// Money is never a float: VVX in integer micro-units (10^-6), XRP in drops.

/** A bigint amount (drops or micro-VVX) in an INTEGER column; exact up to 2^53, which service code enforces. */
export const bigintAmount = customType<{ data: bigint; driverData: number | bigint }>({
  dataType: () => "integer",
  toDriver: (value) => value,
  fromDriver: (value) => BigInt(value),
});
