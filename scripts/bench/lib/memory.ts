// Resident memory of this process after a full collection, the same way on both sides of a comparison.
import { readFileSync } from "node:fs";

/** VmRSS of this process in bytes, read after a full GC and a moment for the allocator to settle. */
export async function rssBytes(): Promise<number> {
  Bun.gc(true);
  await Bun.sleep(100);
  Bun.gc(true);
  const status = readFileSync("/proc/self/status", "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) * 1024;
}
