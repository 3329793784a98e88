import { msToReachHundredths } from "../../engine";
import { foldCrashPlayers, NO_CRASH_PLAYERS, type CrashRoundPlayers } from "../../shared/crashPlayers";
import { eventually } from "./ledgerKit";
import { signPayload } from "./nftKit";
import type { TestBrowser } from "./testBrowser";
import type { TestInstance, TestServer } from "./testServer";

/** Test helpers for the crash game against a real server, its sandbox ledger and sandbox Xaman. */

// Loosely typed on purpose: tests read the fields of whichever message they waited for.
type Msg = { type: string; [k: string]: any };

/** A socket on /ws/games/crash (with the browser's cookies when given) that keeps every message. */
export class CrashSocket {
  readonly messages: Msg[] = [];
  /** The players table as a page shows it, folded from every message so far (its first gameState and the deltas). */
  table: CrashRoundPlayers = NO_CRASH_PLAYERS;
  private waiters: { pred: (m: Msg) => boolean; resolve: (m: Msg) => void }[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as Msg;
      this.messages.push(m);
      this.table = foldCrashPlayers(this.table, m as never);
      for (const w of [...this.waiters]) {
        if (w.pred(m)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    };
  }

  static async open(server: Pick<TestServer, "url">, browser?: TestBrowser): Promise<CrashSocket> {
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
export function crashOf(server: Pick<TestInstance, "ctx">, round: number): number {
  return server.ctx.crash.chains.seedFor(round).crashHundredths;
}

/**
 * Crash test servers count down for a minute and pause a minute between rounds: nothing moves on its own
 * during a test, which moves the game's scheduler instead (skipToRound, startFlight, flyTo).
 */
export const CRASH_TEST_ENV = { CRASH_WAIT_MS: "60000", CRASH_PAUSE_MS: "60000" } as const;

/** The round counting down now, once the loop has opened it and read its bankroll (the cap a bet can win). */
export async function waitingRound(server: Pick<TestInstance, "ctx">): Promise<{ round: number; crash: number }> {
  return eventually(
    () => {
      const s = server.ctx.crash.rounds.state();
      return s.status === "waiting" && s.round > 0 && s.maxProfit > 0 ? { round: s.round, crash: crashOf(server, s.round) } : undefined;
    },
    "a counting-down crash round",
    30_000,
    10,
  );
}

/**
 * Plays rounds without bets (moving the scheduler through countdown, flight and pause) until the
 * counting-down round's crash point, known from the chain before it is played, satisfies `ok`.
 */
export async function skipToRound(server: Pick<TestInstance, "ctx">, ok: (crashHundredths: number) => boolean, maxRounds = 500): Promise<{ round: number; crash: number }> {
  if (server.ctx.crash.rounds.state().status !== "waiting") await finishRound(server);
  for (let i = 0; i < maxRounds; i++) {
    const next = await waitingRound(server);
    if (ok(next.crash)) return next;
    await finishRound(server);
  }
  throw new Error(`no round of the next ${maxRounds} has a crash point the test wants`);
}

/** Plays the current round to its crash and through the pause: the next round opens. */
export async function finishRound(server: Pick<TestInstance, "ctx">): Promise<void> {
  const rounds = server.ctx.crash.rounds;
  const { status, round } = rounds.state();
  if (status === "waiting" && round > 0) await startFlight(server);
  if (rounds.state().status === "running") flyTo(server, crashOf(server, round));
  if (rounds.state().status === "crashed") {
    server.ctx.scheduler.advance(server.ctx.config.crashPauseMs);
    await rounds.settled();
  }
}

/** Ends the countdown now: the round starts flying (once it has read its bets, its crash is timed). */
export async function startFlight(server: Pick<TestInstance, "ctx">): Promise<void> {
  const rounds = server.ctx.crash.rounds;
  if (rounds.state().status !== "waiting") throw new Error(`startFlight: the round is ${rounds.state().status}`);
  server.ctx.scheduler.advance(rounds.countdownLeftMs());
  await rounds.settled();
}

/** Moves the running round to the moment its multiplier reaches `hundredths` (its crash, if that comes first). */
export function flyTo(server: Pick<TestInstance, "ctx">, hundredths: number): void {
  const rounds = server.ctx.crash.rounds;
  const { status, round } = rounds.state();
  // A 1.00x round crashes as it starts: it is already where any flight would end.
  if (status === "crashed" && crashOf(server, round) <= hundredths) return;
  if (status !== "running") throw new Error(`flyTo: the round is ${status}`);
  server.ctx.scheduler.advance(Math.max(0, msToReachHundredths(hundredths) - rounds.flightMs()));
}

/** Initiates a bet through the API and signs its payment in the sandbox Xaman (the server's, or a cluster's `sandbox`); returns the initiate body. */
export async function placeBet(server: Pick<TestServer, "url">, browser: TestBrowser, seed: string, betAmount: number | string, autoCashOut?: number | null, sandbox: Pick<TestServer, "url"> = server) {
  const res = await browser.json("/api/crash-bet/initiate", { method: "POST", json: { betAmount, ...(autoCashOut !== undefined ? { autoCashOut } : {}) } });
  if (res.status !== 200) throw new Error(`initiate answered ${res.status}: ${JSON.stringify(res.body)}`);
  await signPayload(sandbox, res.body.uuid, { seed });
  return res.body as { betId: string; uuid: string; betAmount: number; autoCashOut: number | null; destinationTag: number };
}

/** Polls GET /api/crash/bets until the bet satisfies `pred`. */
export function betReaches(server: Pick<TestServer, "url">, wallet: string, betId: string, pred: (bet: Record<string, any>) => boolean, what: string, timeoutMs = 60_000) {
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
