import { Elysia } from "elysia";
import type { WriteLock } from "../db";
import { DatabaseBusyError } from "../errors";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * While another process holds the database's write lock, an API request that changes state is answered
 * 503 `degraded` before its handler runs: it could only fail, after doing its other work first (a Xaman
 * payload, a ledger read). Reads go on. `applies` says which paths write the product's database (the
 * sandbox keeps its own).
 */
export function writeGate(lock: Pick<WriteLock, "heldElsewhere">, applies: (path: string) => boolean) {
  return new Elysia({ name: "write-gate" }).onTransform({ as: "scoped" }, ({ request, path }) => {
    if (lock.heldElsewhere && !READS.has(request.method) && applies(path)) throw new DatabaseBusyError();
  });
}
