// Runs xrpl.js's own integration tests (packages/xrpl/test/integration of an
// xrpl.js checkout, unmodified) against the sandbox ledger and prints a pass table.
//
//   bun scripts/xrpljs-integration/run.ts --upstream <xrpl.js git dir or checkout> [--all] [--faucet] [--markdown] [--keep] [file filter...]
//
// Nothing is downloaded here: the tests come from the checkout you name, and their
// test-only packages (chai, lodash) from `bun install` run once in this folder.
// The harness changes only what rippled's CI set-up provides: the server URL
// (serverUrl.ts) and ledger_accept (POST /sandbox/api/ledger/close); the genesis
// account is the sandbox's own (rippled's), or with --faucet a funded account from
// POST /sandbox/api/accounts.
// The server runs in-process on a free port, closing ledgers only on demand, as a
// standalone rippled does.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { startTestServer } from "../../src/server/testing/testServer";
import { RELEVANT } from "./relevant";

const here = dirname(new URL(import.meta.url).pathname);
const repoRoot = resolve(here, "../..");
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    upstream: { type: "string" },
    all: { type: "boolean", default: false },
    markdown: { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
    faucet: { type: "boolean", default: false },
  },
});
if (!values.upstream) throw new Error("--upstream <path to an xrpl.js git directory or checkout> is required");
for (const dep of ["chai", "lodash"]) {
  if (!existsSync(join(here, "node_modules", dep))) throw new Error(`missing ${dep}: run \`bun install\` once in scripts/xrpljs-integration`);
}

const TEST_PATHS = ["packages/xrpl/test/integration", "packages/xrpl/test/testUtils.ts", "packages/xrpl/test/fixtures/addresses.json"];

/** Copies the upstream test folder into `dest` from a bare git directory (git archive) or a checkout. */
function copyUpstream(upstream: string, dest: string): string {
  const isCheckout = existsSync(join(upstream, "packages/xrpl/test/integration"));
  if (isCheckout) {
    for (const p of TEST_PATHS) {
      mkdirSync(dirname(join(dest, p)), { recursive: true });
      spawnSync("cp", ["-r", join(upstream, p), join(dest, p)], { stdio: "inherit" });
    }
    return "working tree";
  }
  const rev = spawnSync("git", ["--git-dir", upstream, "rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim();
  const archive = spawnSync("git", ["--git-dir", upstream, "archive", "HEAD", ...TEST_PATHS], { maxBuffer: 1 << 28 });
  if (archive.status !== 0) throw new Error(`git archive failed: ${archive.stderr}`);
  const tar = spawnSync("tar", ["-x", "-C", dest], { input: archive.stdout });
  if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
  return rev;
}

/** Replaces one exact piece of a harness file, failing loudly when upstream changed it. */
function patch(file: string, from: string | RegExp, to: string): void {
  const text = readFileSync(file, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file}: anchor not found (${String(from)}); the upstream harness changed`);
  writeFileSync(file, next);
}

/** node_modules for the copy: the project's packages plus the harness's chai and lodash. */
function linkModules(dir: string): void {
  const target = join(dir, "node_modules");
  mkdirSync(target);
  for (const source of [join(repoRoot, "node_modules"), join(here, "node_modules")]) {
    for (const name of readdirSync(source)) {
      if (name.startsWith(".") || existsSync(join(target, name))) continue;
      symlinkSync(join(source, name), join(target, name));
    }
  }
}

interface Result {
  file: string;
  name: string;
  passed: boolean;
  message?: string;
}

/** Reads bun's JUnit report into one row per test. */
function readJunit(path: string, root: string): Result[] {
  const xml = readFileSync(path, "utf8");
  const results: Result[] = [];
  const suiteFile = /<testsuite name="([^"]+)"[^>]*>([\s\S]*?)<\/testsuite>/g;
  for (const [, suiteName, body] of xml.matchAll(suiteFile)) {
    if (!suiteName!.endsWith(".test.ts")) continue;
    const file = suiteName!.replace(/^.*test\/integration\//, "").replace(root, "");
    for (const [, attrs, inner] of body!.matchAll(/<testcase ([^>]*?)(?:\/>|>([\s\S]*?)<\/testcase>)/g)) {
      const name = /name="([^"]*)"/.exec(attrs!)?.[1] ?? "?";
      const failure = /<failure[^>]*message="([^"]*)"/.exec(inner ?? "")?.[1] ?? (/<(failure|error)/.test(inner ?? "") ? "failed" : undefined);
      const skipped = /<skipped/.test(inner ?? "");
      if (!skipped) results.push({ file, name: decode(name), passed: failure === undefined, message: failure && decode(failure) });
    }
  }
  return results;
}

function decode(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

const work = mkdtempSync(join(tmpdir(), "xrpljs-integration-"));
const server = await startTestServer({ SANDBOX_LEDGER_MS: "60000" });
try {
  const ledger = server.ctx.sandbox!.ledger!;
  ledger.stopAutoClose(); // a standalone rippled closes only on ledger_accept
  const revision = copyUpstream(values.upstream, work);
  const pkg = join(work, "packages/xrpl");
  symlinkSync(join(repoRoot, "node_modules/xrpl/dist/npm"), join(pkg, "src"));
  linkModules(work);
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "xrpl-integration-copy", private: true }));

  // The sandbox's genesis account is rippled's (the "masterpassphrase" seed), so utils.ts funds wallets
  // from it unchanged. With --faucet a funded faucet account stands in for it instead.
  let genesis: { address: string; seed: string } | undefined;
  if (values.faucet) {
    const res = await fetch(`${server.url}/sandbox/api/accounts`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ xrp: 50_000_000, algorithm: "secp256k1" }) });
    if (res.status !== 201) throw new Error(`faucet answered ${res.status}: ${await res.text()}`);
    genesis = (await res.json()) as { address: string; seed: string };
  }
  const integration = join(pkg, "test/integration");
  writeFileSync(join(integration, "serverUrl.ts"), `const serverUrl = ${JSON.stringify(`ws://127.0.0.1:${server.port}${ledger.wsPath}`)}\n\nexport default serverUrl\n`);
  const utils = join(integration, "utils.ts");
  if (genesis) {
    patch(utils, /export const GENESIS_ACCOUNT = '[^']+'/, `export const GENESIS_ACCOUNT = '${genesis.address}'`);
    patch(utils, /const GENESIS_SECRET = '[^']+'/, `const GENESIS_SECRET = '${genesis.seed}'`);
  }
  patch(
    utils,
    /return client\.connection\.request\(\{ command: 'ledger_accept' \}\)/,
    `return fetch(${JSON.stringify(`${server.url}/sandbox/api/ledger/close`)}, { method: 'POST' }).then(async (r) => r.json())`,
  );

  const files = (values.all ? listTests(integration) : Object.keys(RELEVANT)).filter((f) => !positionals.length || positionals.some((p) => f.includes(p)));
  const report = join(work, "junit.xml");
  // Asynchronous: the server under test runs in this process and must keep answering.
  const run = Bun.spawn([process.execPath, "test", "--timeout", "60000", "--reporter=junit", `--reporter-outfile=${report}`, ...files.map((f) => `./packages/xrpl/test/integration/${f}`)], {
    cwd: work,
    stdio: ["ignore", values.markdown ? "ignore" : "inherit", values.markdown ? "ignore" : "inherit"],
    env: { ...process.env, FORCE_COLOR: "0" },
  });
  await run.exited;
  if (!existsSync(report)) throw new Error(`bun test wrote no report (exit ${run.exitCode})`);
  printTable(readJunit(report, work), files, revision);
} finally {
  await server.stop(true);
  if (!values.keep) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
}

function listTests(dir: string, prefix = ""): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return listTests(full, `${prefix}${name}/`);
    return name.endsWith(".test.ts") ? [`${prefix}${name}`] : [];
  });
}

function printTable(results: Result[], files: string[], revision: string): void {
  const relevant = results.filter((r) => RELEVANT[r.file] !== undefined);
  const passed = relevant.filter((r) => r.passed).length;
  const expected = Object.values(RELEVANT).reduce((a, b) => a + b, 0);
  if (values.markdown) {
    console.log(`\n| file | test | result |\n|---|---|---|`);
    for (const r of results) console.log(`| ${r.file} | ${r.name.replace(/\|/g, "\\|")} | ${r.passed ? "pass" : "FAIL"} |`);
  } else {
    for (const r of results) console.log(`${r.passed ? "pass" : "FAIL"}  ${r.file} > ${r.name}${r.passed ? "" : `\n        ${(r.message ?? "").slice(0, 300)}`}`);
  }
  const missing = files.filter((f) => RELEVANT[f] !== undefined && !results.some((r) => r.file === f));
  if (missing.length) console.log(`files that reported no result: ${missing.join(", ")}`);
  console.log(`\nxrpl.js ${revision}: ${passed} of ${expected} relevant tests passed (${results.length} run, ${results.filter((r) => r.passed).length} passed in all)`);
}
