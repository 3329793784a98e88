import { expect, setDefaultTimeout, test } from "bun:test";
import { busyLedger, type BusyLedger } from "../../testing/serverSuite";
import type { TestServer } from "../../testing/testServer";
import { CONNECTION_LIMITS, DecayingBalance, DECAY_WINDOW_MS } from "./resources";
import { MAX_PENDING } from "./sockets";

// Issue 18, medium 6: the sandbox ledger's WebSocket as an amplifier. Real server, real sockets.
setDefaultTimeout(60_000);

let server: TestServer;
let wsUrl: string;
let accountTx: BusyLedger["accountTx"];
busyLedger((t) => ({ server, wsUrl, accountTx } = t));

async function openSocket(): Promise<WebSocket> {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  return ws;
}

test("2,000 account_tx pipelined on one connection: it is closed after a bounded amount of output, and another client is served meanwhile", async () => {
  const flood = await openSocket();
  let bytes = 0;
  let largest = 0;
  let answers = 0;
  let firstWarning: number | undefined;
  flood.onmessage = (e) => {
    const text = String(e.data);
    bytes += text.length;
    largest = Math.max(largest, text.length);
    answers++;
    if ((JSON.parse(text) as { warning?: string }).warning === "load") firstWarning ??= answers;
  };
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (flood.onclose = (e) => resolve({ code: e.code, reason: e.reason })));
  // 2,000 requests (about 170 KB sent) would ask for about 400 MB of answers.
  for (let i = 0; i < 2_000; i++) flood.send(accountTx(i));

  // A well-behaved client on another connection gets its answer while the flood is being worked off.
  const other = await openSocket();
  const t0 = performance.now();
  const answered = new Promise<string>((resolve) => (other.onmessage = (e) => resolve(String(e.data))));
  other.send(JSON.stringify({ id: 1, command: "server_info" }));
  expect(JSON.parse(await answered).status).toBe("success");
  const otherMs = performance.now() - t0;

  const { code, reason } = await closed;
  console.log(`flood: ${answers} answers, ${(bytes / 1024 / 1024).toFixed(1)} MB, first warning at ${firstWarning}, closed ${code} ${reason}; other client answered in ${otherMs.toFixed(0)} ms`);
  expect(code).toBe(1008);
  expect(["threshold exceeded", "client is too slow"]).toContain(reason);
  // Warned before it was closed, and closed long before the 2,000 answers.
  if (reason === "threshold exceeded") expect(firstWarning).toBeGreaterThan(0);
  expect(answers).toBeLessThan(1_000);
  expect(bytes).toBeLessThan(64 * 1024 * 1024);
  expect(otherMs).toBeLessThan(1_000);
  const otherClosed = new Promise((resolve) => (other.onclose = resolve));
  other.close();
  await otherClosed;
});

/** Asks account_tx after account_tx, each after the previous answer, until the server closes the socket. */
async function oneAfterAnother(ws: WebSocket) {
  let bytes = 0;
  let largest = 0;
  let answers = 0;
  let firstWarning: number | undefined;
  let next = (_: string) => {};
  ws.onmessage = (e) => next(String(e.data));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => (ws.onclose = (e) => resolve({ code: e.code, reason: e.reason })));
  let open = true;
  void closed.then(() => (open = false));
  const started = performance.now();
  for (let i = 0; open && i < 1_000; i++) {
    const answer = new Promise<string | undefined>((resolve) => ((next = resolve), void closed.then(() => resolve(undefined))));
    ws.send(accountTx(i));
    const text = await answer;
    if (text === undefined) break;
    bytes += text.length;
    largest = Math.max(largest, text.length);
    answers++;
    const body = JSON.parse(text) as { warning?: string; result?: { transactions: unknown[] } };
    if (!firstWarning) expect(body.result?.transactions).toHaveLength(400);
    if (body.warning === "load") firstWarning ??= answers;
  }
  return { bytes, largest, answers, firstWarning, closed: await closed, elapsedMs: performance.now() - started };
}

test("a client asking one account_tx after another gets \"warning\": \"load\" first, then is closed at its byte budget (threshold exceeded)", async () => {
  const { bytes, largest, answers, firstWarning, closed, elapsedMs } = await oneAfterAnother(await openSocket());
  expect(closed).toEqual({ code: 1008, reason: "threshold exceeded" });
  // The address's budget is shared by its connections: after the flood above it may warn from the first answer.
  expect(firstWarning).toBeGreaterThanOrEqual(1);
  expect(answers).toBeGreaterThan(firstWarning!);
  // The byte budget (32 MB) with at most one answer past it; the balance decays meanwhile (by e^(-t/32 s)),
  // so a slower run gets that much more through: ~35 MB when a loaded machine takes 3 s.
  expect(bytes).toBeLessThanOrEqual(CONNECTION_LIMITS.bytes.drop * Math.exp(elapsedMs / DECAY_WINDOW_MS) + largest);
});

test("a client that stops reading is not answered into memory: its requests wait, then it is closed", async () => {
  const rssBefore = process.memoryUsage.rss();
  // A separate process floods and then stops itself (SIGSTOP): its socket stops reading, as a stalled client's does.
  const child = Bun.spawn(
    [
      "bun",
      "-e",
      `const ws = new WebSocket(${JSON.stringify(wsUrl)});
       ws.onopen = () => { for (let i = 0; i < ${MAX_PENDING * 4}; i++) ws.send(${JSON.stringify(accountTx(0))}); setTimeout(() => process.kill(process.pid, "SIGSTOP"), 50); };`,
    ],
    { stdout: "ignore", stderr: "inherit" },
  );
  // Watch the ledger's subscriber list: the child's connection joins it, then leaves it when the server closes it.
  const ledger = server.ctx.sandbox!.ledger!;
  const joined = new Set<unknown>();
  const left = new Set<unknown>();
  const add = ledger.addSubscriber.bind(ledger);
  const remove = ledger.removeSubscriber.bind(ledger);
  ledger.addSubscriber = (sub) => (joined.add(sub), add(sub));
  ledger.removeSubscriber = (sub) => (left.add(sub), remove(sub));
  try {
    for (let i = 0; i < 400 && !(joined.size === 1 && left.has([...joined][0])); i++) await Bun.sleep(25);
    expect(joined.size).toBe(1);
    expect(left.has([...joined][0])).toBe(true);
    Bun.gc(true);
    // 2,000 answers of ~200 KB would be ~400 MB buffered for it.
    expect(process.memoryUsage.rss() - rssBefore).toBeLessThan(150 * 1024 * 1024);
  } finally {
    ledger.addSubscriber = add;
    ledger.removeSubscriber = remove;
    child.kill("SIGKILL");
    await child.exited;
  }
});

test("a balance decays over rippled's 32 s window", () => {
  let now = 0;
  const balance = new DecayingBalance(() => now);
  balance.charge(1000);
  now = DECAY_WINDOW_MS;
  expect(balance.get()).toBeCloseTo(1000 / Math.E, 3);
  expect(balance.charge(10)).toBeCloseTo(1000 / Math.E + 10, 3);
});

// Last: it leaves this machine's address refused for a while.
test("reconnecting does not start afresh: every dropped connection charges its address, and past four connections' budgets the address is refused (429 with retry-after) before the upgrade", async () => {
  let connections = 0;
  for (; connections < 10; connections++) {
    const ws = new WebSocket(wsUrl);
    const opened = await new Promise<boolean>((resolve) => ((ws.onopen = () => resolve(true)), (ws.onerror = () => resolve(false))));
    if (!opened) break;
    expect((await oneAfterAnother(ws)).closed.reason).toBe("threshold exceeded");
  }
  // The three connections the tests above had closed count too: each drop charges the address a connection's budget.
  expect(connections).toBeGreaterThanOrEqual(1);
  expect(connections).toBeLessThan(4);
  const upgrade = await fetch(`${server.url}/sandbox/ledger`, { headers: { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" } });
  expect(upgrade.status).toBe(429);
  expect(Number(upgrade.headers.get("retry-after"))).toBeGreaterThan(0);
  // The HTTP side is not limited by it.
  expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
});
