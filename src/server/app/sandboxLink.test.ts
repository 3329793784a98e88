import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "../platform/config";
import { eventually, faucet } from "../testing/ledgerKit";
import { purchaseReaches, sessionBrowser, signPayload } from "../testing/nftKit";
import { runVvx, spawnServer, type ServerProcess } from "../testing/processKit";
import { freePort, startTestServer, type TestServer } from "../testing/testServer";

// One `vvx sandbox` process and two instances (SQLite each) that use it through SANDBOX_URL.
const LEDGER_KEY = "test-ledger-key-0123456789";
let sandbox: ServerProcess;
let sandboxDir: string;
let instances: TestServer[] = [];

beforeAll(async () => {
  sandboxDir = mkdtempSync(join(tmpdir(), "vvx-sandbox-"));
  sandbox = await spawnServer(sandboxDir, { SANDBOX_LEDGER_KEY: LEDGER_KEY, SANDBOX_FAUCET_PER_MINUTE: "1000", QUIET: "1" }, ["sandbox"]);
  if (!(await sandbox.healthy())) throw new Error(`vvx sandbox did not start: ${sandbox.output}`);
  instances = await Promise.all([0, 1].map(() => startTestServer({ SANDBOX_URL: sandbox.url, SANDBOX_LEDGER_KEY: LEDGER_KEY })));
});

afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop(true)));
  await sandbox?.stop();
  rmSync(sandboxDir, { recursive: true, force: true });
});

describe("vvx sandbox and SANDBOX_URL", () => {
  test("instances embed no sandbox: the ledger, the Xaman API and the explorer are the shared one's, and an NFT is bought through it", async () => {
    const [a] = instances;
    expect(a!.ctx.sandbox!.ledger).toBeUndefined();
    expect(a!.ctx.config.xrplUrl).toBe(`${sandbox.url.replace("http", "ws")}/sandbox/ledger`);
    expect(a!.ctx.config.explorerUrl).toBe(`${sandbox.url}/sandbox/explorer`);
    // Its own pages (wallet, explorer) have an icon: a browser's automatic /favicon.ico gets the logo, not a 404.
    expect((await fetch(`${sandbox.url}/favicon.ico`)).headers.get("content-type")).toBe("image/svg+xml");
    expect((await fetch(`${a!.url}/sandbox/api/accounts`, { method: "POST" })).status).toBe(404);
    for (const i of instances) await eventually(async () => ((await (await fetch(`${i.url}/api/health`)).json()) as { ledger: string }).ledger === "connected" || undefined, "ledger connected");
    // The QR image is the sandbox's: the product's pages may show it.
    expect((await fetch(`${a!.url}/`)).headers.get("content-security-policy")).toContain(`img-src 'self' data: blob: https://xumm.app https://xaman.app ${sandbox.url}`);

    const wallet = await faucet(sandbox.url, { xrp: 100, vvx: 600_000 });
    const browser = await sessionBrowser(a!, wallet.classicAddress);
    const start = await browser.json("/api/payments/vvx-payment-qr", { method: "POST", json: { amount: "500,000", walletAddress: wallet.classicAddress, tierId: 1 } });
    expect(start.body).toMatchObject({ success: true });
    expect(start.body.qrUrl).toStartWith(`${sandbox.url}/sandbox/xumm/qr/`);
    expect(start.body.xummUrl).toBe(`${sandbox.url}/sandbox/wallet/sign/${start.body.uuid}`);
    expect((await signPayload(sandbox, start.body.uuid, { account: wallet.classicAddress })).dispatchedResult).toBe("tesSUCCESS");
    const offered = await purchaseReaches(browser, start.body.requestId, ["offer_created"]);
    expect(offered.offerId).toMatch(/^[0-9A-F]{64}$/);
  });

  test("a clock advance reaches every instance at the close it makes, before that close reaches any service", async () => {
    const seen = instances.map((i) => {
      const closes: { index: number; offsetMs: number }[] = [];
      // Registered after every service: it hears each close after the clock's follower and the services did.
      i.ctx.ledger.on("ledgerClosed", (l) => void closes.push({ index: l.ledger_index, offsetMs: i.ctx.sandbox!.clock.offsetMs }));
      return closes;
    });
    const res = await fetch(`${sandbox.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: 86_400_000 }) });
    const moved = (await res.json()) as { offsetMs: number; ledgerIndex: number };
    expect(moved.offsetMs).toBeGreaterThanOrEqual(86_400_000);
    for (const closes of seen) {
      const close = await eventually(() => closes.find((c) => c.index === moved.ledgerIndex), `close ${moved.ledgerIndex}`);
      expect(close.offsetMs).toBe(moved.offsetMs);
    }
    for (const i of instances) expect(Math.abs(i.ctx.clock.now() - (Date.now() + moved.offsetMs))).toBeLessThan(1_000);
    // An instance started later takes the offset before it starts anything.
    const late = await startTestServer({ SANDBOX_URL: sandbox.url });
    try {
      expect(late.ctx.sandbox!.clock.offsetMs).toBe(moved.offsetMs);
    } finally {
      await late.stop(true);
    }
  });

  test("start is refused, naming the variable, when the sandbox does not answer or was made from another seed", async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const dataDir = mkdtempSync(join(tmpdir(), "vvx-link-"));
    try {
      const down = await runVvx([], { SANDBOX_URL: dead, DATA_DIR: dataDir, PORT: String(await freePort()), HOST: "127.0.0.1" });
      expect(down.code).toBe(1);
      expect(down.stderr.trim()).toStartWith(`Configuration error: SANDBOX_URL: ${dead} does not answer`);
      const itself = await runVvx(["sandbox"], { SANDBOX_URL: sandbox.url, DATA_DIR: dataDir });
      expect(itself.code).toBe(1);
      expect(itself.stderr.trim()).toBe("Configuration error: SANDBOX_URL: is what instances set to reach this sandbox; vvx sandbox is the sandbox itself: unset it here");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
    const other = startTestServer({ SANDBOX_URL: sandbox.url, SANDBOX_SEED: "another-seed" });
    await expect(other).rejects.toBeInstanceOf(ConfigError);
    await expect(other).rejects.toThrow(/^SANDBOX_SEED: differs from the sandbox's at SANDBOX_URL/);
  });
});
