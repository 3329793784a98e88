import { eventually } from "./ledgerKit";
import { signPayload } from "./nftKit";
import type { TestBrowser } from "./testBrowser";
import type { TestServer } from "./testServer";

/** Test helpers for the crash game against a real server, its sandbox ledger and sandbox Xaman. */

// Loosely typed on purpose: tests read the fields of whichever message they waited for.
type Msg = { type: string; [k: string]: any };

/** A socket on /ws/games/crash (with the browser's cookies when given) that keeps every message. */
export class CrashSocket {
  readonly messages: Msg[] = [];
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as Msg;
      this.messages.push(m);
      for (const w of [...this.waiters]) {
        if (w.pred(m)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    };
  }

  static async open(server: TestServer, browser?: TestBrowser): Promise<CrashSocket> {
    const headers: Record<string, string> = { origin: server.url };
    if (browser?.cookies.size) headers.cookie = browser.cookieHeader();
    const ws = new WebSocket(`${server.url.replace(/^http/, "ws")}/ws/games/crash`, { headers } as never);
    const socket = new CrashSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("crash socket failed to open"));
    });
    return socket;
  }

  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  /** The next message (from now on, or already received when `past`) matching `pred`. */
  next<T extends Msg = Msg>(pred: (m: Msg) => boolean, timeoutMs = 30_000, what = "a crash message"): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
      this.waiters.push({ pred, resolve: (m) => (clearTimeout(timer), resolve(m as T)) });
    });
  }

  /** The first message received so far (or the next) matching `pred`. */
  find<T extends Msg = Msg>(pred: (m: Msg) => boolean, timeoutMs = 30_000, what?: string): Promise<T> {
    const seen = this.messages.find(pred);
    return seen ? Promise.resolve(seen as T) : this.next<T>(pred, timeoutMs, what);
  }

  async auth(wallet: string): Promise<void> {
    const done = this.next((m) => m.type === "authenticated" || m.type === "error", 5_000, "auth answer");
    this.send({ type: "auth", walletAddress: wallet });
    const m = await done;
    if (m.type !== "authenticated") throw new Error(`auth refused: ${JSON.stringify(m)}`);
  }

  close(): void {
    this.ws.close();
  }
}

/** The crash point (hundredths) the chain gives round `round` (the test's view of the server's secret). */
export function crashOf(server: TestServer, round: number): number {
  return server.ctx.crash.chains.seedFor(round).crashHundredths;
}

/**
 * Waits for a round that is counting down with at least `minLeftMs` to go and whose crash point `ok`
 * accepts (a test that needs a win waits out rounds that bust early); returns its number and crash point.
 */
export async function waitForRound(server: TestServer, ok: (crashHundredths: number) => boolean, minLeftMs = 1_500, timeoutMs = 300_000) {
  return eventually(
    () => {
      const s = server.ctx.crash.rounds.state();
      if (s.status !== "waiting" || s.round === 0) return undefined;
      const left = server.ctx.crash.rounds.countdownLeftMs();
      const crash = crashOf(server, s.round);
      return left >= minLeftMs && ok(crash) ? { round: s.round, crash } : undefined;
    },
    "a suitable crash round",
    timeoutMs,
    20,
  );
}

/** Initiates a bet through the API and signs its payment in the sandbox Xaman; returns the initiate body. */
export async function placeBet(server: TestServer, browser: TestBrowser, seed: string, betAmount: number | string, autoCashOut?: number | null) {
  const res = await browser.json("/api/crash-bet/initiate", { method: "POST", json: { betAmount, ...(autoCashOut !== undefined ? { autoCashOut } : {}) } });
  if (res.status !== 200) throw new Error(`initiate answered ${res.status}: ${JSON.stringify(res.body)}`);
  await signPayload(server, res.body.uuid, { seed });
  return res.body as { betId: string; uuid: string; betAmount: number; autoCashOut: number | null; destinationTag: number };
}

/** Polls GET /api/crash/bets until the bet satisfies `pred`. */
export function betReaches(server: TestServer, wallet: string, betId: string, pred: (bet: Record<string, any>) => boolean, what: string, timeoutMs = 60_000) {
  return eventually(
    async () => {
      const res = await fetch(`${server.url}/api/crash/bets?wallet=${wallet}`).then((r) => r.json() as Promise<{ bets: Record<string, any>[] }>);
      const bet = res.bets.find((b) => b.betId === betId);
      return bet && pred(bet) ? bet : undefined;
    },
    what,
    timeoutMs,
    50,
  );
}

/** Drops delivered to `wallet` by a validated transaction. */
export async function deliveredDrops(server: TestServer, txid: string): Promise<bigint> {
  const res = await server.ctx.ledger.request({ command: "tx", transaction: txid });
  const meta = res.result.meta as { delivered_amount?: unknown; TransactionResult: string };
  if (meta.TransactionResult !== "tesSUCCESS" || typeof meta.delivered_amount !== "string") throw new Error(`tx ${txid}: ${meta.TransactionResult}`);
  return BigInt(meta.delivered_amount);
}
