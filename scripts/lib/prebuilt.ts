// `bun scripts/lib/prebuilt.ts DIR`: what the binary's entry hands its server before it starts (scripts/build.ts), made
// once for a scripts/test.sh run: the SPA bundled with its compressed copies, and the signed transactions of the
// sandbox's genesis. Every test file used to bundle the SPA again at its first server's start (about 0.2 s of CPU
// and 0.6 s of wall time) and every test server signed the genesis again (40 to 180 ms of CPU): ~130 files, ~150
// starts a run. Prints the manifest's path; scripts/lib/testPreload.ts installs it in every test file.
import { join, resolve } from "node:path";
import { keptGenesis } from "../../src/server/app/binary";
import { loadConfig } from "../../src/server/platform/config";
import { compressInBackground, type Compressed } from "../../src/server/platform/http/compression";
import { PREBUILT_SPA } from "../../src/server/platform/http/spa";
import { writeSpa } from "./spaFiles";

const dir = resolve(process.argv[2] ?? ".");
// The copies a server from source makes (compression.ts's cache: made once per chunk on this machine), awaited here.
const { raw: _raw, br: _br, ...spa } = await writeSpa(join(dir, "spa"), async (bytes) => {
  const copies: Compressed = {};
  await compressInBackground(bytes, copies);
  return copies;
});
// The test servers' sandbox runs on the default SANDBOX_SEED and VVX_CURRENCY unless a test sets its own (then it signs).
const genesis = keptGenesis(loadConfig({}));
const manifest = join(dir, "prebuilt.json");
await Bun.write(manifest, JSON.stringify({ globals: { [PREBUILT_SPA.description!]: spa, [genesis.symbol]: { blobs: genesis.blobs } } }));
console.log(manifest);
