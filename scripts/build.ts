// `bun run build`: one self-contained binary, dist/vvx, embedding the production
// SPA (split into chunks), assets and database migrations.
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const outfile = join(root, "dist", "vvx");
mkdirSync(join(root, "dist"), { recursive: true });
const t0 = performance.now();
const result = Bun.spawnSync(
  ["bun", "build", "--compile", "--production", "--minify", "--splitting", "--sourcemap=none", "src/server/app/main.ts", "--outfile", outfile],
  { cwd: root, stdout: "inherit", stderr: "inherit", env: { ...process.env, NODE_ENV: "production" } },
);
if (result.exitCode !== 0) process.exit(result.exitCode ?? 1);
const mb = statSync(outfile).size / 1024 / 1024;
console.log(`built ${outfile} (${mb.toFixed(1)} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
