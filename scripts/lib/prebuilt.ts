// `bun scripts/lib/prebuilt.ts DIR`: what the binary's entry hands its server before it starts (scripts/build.ts), made
// once for a scripts/test.sh run: the SPA bundled with its compressed copies, and the signed transactions of the
// sandbox's genesis. Without them the first test server of a file (of a worker, where workers keep their modules)
// bundles the SPA (about 0.2 s of CPU and 0.6 s of wall time) and every test server signs the genesis (40 to 180 ms
// of CPU; ~150 starts a run). Prints the manifest's path; scripts/lib/testPreload.ts installs it in the test files.
import { join, resolve } from "node:path";
import { keptGenesis } from "../../src/server/app/binary";
import { loadConfig } from "../../src/server/platform/config";
import { compressInBackground, type Compressed } from "../../src/server/platform/http/compression";
import { PREBUILT_SPA } from "../../src/server/platform/http/spa";
import { writeSpa } from "./spaFiles";

const dir = resolve(process.argv[2] ?? ".");
// The copies a server from source makes (compression.ts's cache: made once per chunk on this machine), awaited here.
const { spa } = await writeSpa(join(dir, "spa"), async (bytes) => {
  const copies: Compressed = {};
  await compressInBackground(bytes, copies);
  return copies;
});
// The test servers' sandbox runs on the default SANDBOX_SEED and VVX_CURRENCY unless a test sets its own (then it signs).
const genesis = keptGenesis(loadConfig({}));
const manifest = join(dir, "prebuilt.json");
await Bun.write(manifest, JSON.stringify({ globals: { [PREBUILT_SPA.description!]: spa, [genesis.symbol]: { blobs: genesis.blobs } } }));
console.log(manifest);
