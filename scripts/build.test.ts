import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnServer, type ServerProcess } from "../src/server/testing/processKit";

// `bun run build` is what the Docker image and the self-hosters' binary come from: a bundling change (a dynamic
// import, --splitting's shared chunks) can break the binary while every test of the sources passes. This builds
// it as the Dockerfile does (into a folder of its own) and starts both of its programs.
const work = mkdtempSync(join(tmpdir(), "vvx-build-test-"));
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(work, { recursive: true, force: true });
});

test("the binary builds, `vvx sandbox` serves a sandbox network and `vvx` serves the product on it", async () => {
  const built = Bun.spawn(["bun", join(import.meta.dir, "build.ts")], { env: { ...process.env, BUILD_DIR: join(work, "dist") }, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(built.stdout).text(), new Response(built.stderr).text(), built.exited]);
  expect({ code, err: code === 0 ? "" : err.slice(-2000) }).toEqual({ code: 0, err: "" });
  expect(out).toContain("built ");
  const vvx = [join(work, "dist/vvx")];

  const sandbox = await spawnServer(join(work, "sandbox"), {}, ["sandbox"], vvx);
  servers.push(sandbox);
  expect({ healthy: await sandbox.healthy(), output: sandbox.output.slice(-2000) }).toMatchObject({ healthy: true });

  const product = await spawnServer(join(work, "data"), { SANDBOX_URL: sandbox.url }, [], vvx);
  servers.push(product);
  expect({ healthy: await product.healthy(), output: product.output.slice(-2000) }).toMatchObject({ healthy: true });
  const page = await fetch(`${product.url}/`);
  expect(page.status).toBe(200);
  const html = await page.text();
  // The page's own script, embedded in the binary, served compressed.
  const script = html.match(/<script[^>]+src="([^"]+\.js)"/)?.[1];
  expect(script).toBeDefined();
  const js = await fetch(new URL(script!, product.url), { headers: { "accept-encoding": "br" } });
  expect({ status: js.status, encoding: js.headers.get("content-encoding") }).toEqual({ status: 200, encoding: "br" });
  // The product reads its ledger from the sandbox process: the tiers come from its database on that network.
  const tiers = await fetch(`${product.url}/api/nft-tiers`);
  expect(tiers.status).toBe(200);
}, 120_000);
