import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxXummCredentials } from "../signing/credentials";
import { freePort } from "../testing/testServer";

const MAIN = join(import.meta.dir, "main.ts");

// The real server in its own process, so a crash of the process shows as a crash.
let proc: ReturnType<typeof Bun.spawn>;
let dir = "";
let url = "";
let output = "";
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "vvx-lock-"));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  proc = Bun.spawn(["bun", MAIN], { env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dir, SANDBOX_LEDGER_MS: "200" }, stdout: "pipe", stderr: "pipe" });
  for (const stream of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[]) {
    void (async () => {
      const reader = stream.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) output += new TextDecoder().decode(chunk.value);
    })();
  }
  for (let i = 0; i < 200; i++) {
    if (await fetch(`${url}/api/health`).then((r) => r.ok, () => false)) return;
    await Bun.sleep(50);
  }
  throw new Error(`server did not start: ${output}`);
});
afterAll(async () => {
  proc?.kill();
  await proc?.exited;
  rmSync(dir, { recursive: true, force: true });
});

const { apiKey, apiSecret } = sandboxXummCredentials("vvx-sandbox");
const xumm = (path: string, init: RequestInit = {}) =>
  fetch(`${url}/sandbox/xumm/api/v1/platform${path}`, { ...init, headers: { "content-type": "application/json", "x-api-key": apiKey, "x-api-secret": apiSecret } });

async function timedHealth() {
  const t0 = performance.now();
  const res = await fetch(`${url}/api/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: performance.now() - t0 };
}

describe("a database lock held elsewhere for longer than the busy timeout", () => {
  test("the process survives, /api/health says 503 degraded with the reason at once, and every loop resumes after", async () => {
    // A sign request that expires while the product database is locked: the sandbox Xaman (own database) still expires it.
    const created = (await (await xumm("/payload", { method: "POST", body: JSON.stringify({ txjson: { TransactionType: "SignIn" }, options: { expire: 0.02 } }) })).json()) as { uuid: string };
    expect(created.uuid).toBeString();

    const lock = new Database(join(dir, "vvx.db"));
    lock.exec("PRAGMA busy_timeout = 0");
    lock.exec("BEGIN IMMEDIATE");
    const during: Awaited<ReturnType<typeof timedHealth>>[] = [];
    const until = performance.now() + 8000;
    while (performance.now() < until) {
      during.push(await timedHealth());
      await Bun.sleep(500);
    }
    expect(proc.exitCode).toBeNull();
    lock.exec("ROLLBACK");
    lock.close();

    for (const h of during) {
      expect(h.status).toBe(503);
      expect(h.body).toMatchObject({ status: "degraded", db: "locked" });
      expect(String(h.body.reason)).toContain("locked");
    }
    // No request waited out the 5 s busy timeout: background loops skip while locked instead of blocking the server.
    expect(Math.max(...during.map((h) => h.ms))).toBeLessThan(2000);

    let after = await timedHealth();
    for (let i = 0; i < 50 && after.status !== 200; i++) after = await (Bun.sleep(100), timedHealth());
    expect(after.body).toMatchObject({ status: "ok", db: "ok" });
    // The sweep retried after its backoff and expired the request.
    let expired = false;
    for (let i = 0; i < 100 && !expired; i++) {
      const view = (await (await xumm(`/payload/${created.uuid}`)).json()) as { meta: { expired: boolean } };
      expired = view.meta.expired;
      if (!expired) await Bun.sleep(200);
    }
    expect(expired).toBe(true);
    expect(proc.exitCode).toBeNull();
    // Every loop that writes the product database paused and resumed (the sandbox Xaman keeps its own database).
    const loops = ["outbox", "payment catch-up", "nft sweep", "slots payouts", "swap settler"];
    for (const loop of loops) expect(output).toContain(`${loop} paused`);
    for (let i = 0; i < 50 && !loops.every((loop) => output.includes(`${loop} resumed`)); i++) await Bun.sleep(100);
    for (const loop of loops) expect(output).toContain(`${loop} resumed`);
  });
});
