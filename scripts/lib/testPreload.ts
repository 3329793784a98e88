// Preloaded by scripts/test.sh's bun test runs (once per worker where workers keep their modules, else in every
// file): the globals scripts/lib/prebuilt.ts made once for the run (VVX_TEST_PREBUILT, its manifest), the ones the
// binary's entry sets (the SPA as built, the genesis's signatures), so a test server starts as the binary's does
// instead of bundling and signing again. Nothing without the variable.
import { readFileSync } from "node:fs";

const manifest = process.env.VVX_TEST_PREBUILT;
if (manifest) {
  const { globals } = JSON.parse(readFileSync(manifest, "utf8")) as { globals: Record<string, unknown> };
  for (const [name, value] of Object.entries(globals)) (globalThis as Record<symbol, unknown>)[Symbol.for(name)] = value;
}
