import { timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import type { AccountLinesRequest } from "xrpl";
import { burns, moneyIn, moneyOut, outboxQueue, playCounts, swapTotals } from "../books/service";
import { Bankroll } from "../games/kit";
import { givenUpCount } from "../payouts";
import { microFromValue } from "../ledger/amounts";
import { UnauthorizedError } from "../platform/errors";
import { eventLoopDelay, MetricsRegistry } from "../platform/metrics";
import type { ObserveRequest } from "../platform/http/requestLog";
import type { AppContext } from "./context";

/** Latency buckets of the API (seconds): cached reads take well under a millisecond, sign requests a network round trip. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** How long a scrape waits for the ledger's treasury figures before it shows the last ones. */
const LEDGER_READ_MS = 2_000;
const LEDGER_STATES = ["idle", "connecting", "connected", "reconnecting", "stopped"] as const;

type Ctx = Pick<AppContext, "config" | "store" | "hub" | "ledger" | "outbox" | "payments" | "crash" | "racing" | "clock" | "leadership">;

/** The treasury as last read from the ledger (a scrape refreshes it, waiting at most LEDGER_READ_MS). */
interface Treasury {
  balanceDrops: bigint;
  reserveDrops: bigint;
  spendableDrops: bigint;
  vvxMicro: bigint;
}

/**
 * GET /metrics: the server's metrics in Prometheus' text format, for an operator's Prometheus. Money and
 * plays come from the books at each scrape (so they equal them); HTTP, sockets and messages are counted
 * as they happen; the treasury is read from the ledger. Built only when METRICS_TOKEN is set.
 */
export class ServerMetrics {
  readonly registry = new MetricsRegistry();
  /** Given to the API's request hook. */
  readonly observe: ObserveRequest;
  private readonly loop = eventLoopDelay();
  private treasury: Treasury | undefined;
  private lastValidated: { index: number; closeTimeS: number } | undefined;
  /** Scrapes so far: a books read several families show is made once per scrape (`perScrape`). */
  private scrapes = 0;
  private readonly off: () => void;

  constructor(private readonly ctx: Ctx) {
    const r = this.registry;
    const requests = r.counter("vvx_http_requests_total", "API requests answered, by method, route pattern and status.");
    const latency = r.histogram("vvx_http_request_duration_seconds", "API request latency by method and route pattern (seconds).", LATENCY_BUCKETS);
    this.observe = (method, route, status, seconds) => {
      requests.inc({ method, route, status: String(status) });
      latency.observe(seconds, { method, route });
    };
    this.off = ctx.ledger.on("ledgerClosed", (l) => (this.lastValidated = { index: l.ledger_index, closeTimeS: l.ledger_time + 946_684_800 }));
    this.sockets();
    this.books();
    this.chain();
    this.process();
  }

  private sockets(): void {
    const { hub, crash, racing } = this.ctx;
    this.registry.gauge("vvx_websocket_connections", "Open WebSocket connections by channel (site: /ws; a game's: /ws/games/<game>).", (set) => {
      const games = { crash: crash.channel.watchers, "unicorn-racing": racing.channel.watchers };
      set(Math.max(0, hub.size - games.crash - games["unicorn-racing"]), { channel: "site" });
      for (const [channel, n] of Object.entries(games)) set(n, { channel });
    });
    this.registry.counter("vvx_ws_messages_published_total", "Messages published to WebSocket subscribers, by channel.", (set) => {
      for (const [channel, n] of hub.published) set(n, { channel });
    });
  }

  /** `read` made once per scrape however many families show its answer (the first to ask starts it). */
  private perScrape<T>(read: () => Promise<T>): () => Promise<T> {
    let at = -1;
    let value: Promise<T> | undefined;
    return () => {
      if (at !== this.scrapes || !value) [at, value] = [this.scrapes, read()];
      return value;
    };
  }

  /** The books' families, read from the store (either driver) at each scrape. */
  private books(): void {
    const { ledger, store } = this.ctx;
    const db = store.db;
    const plays = this.perScrape(() => playCounts(db));
    const swaps = this.perScrape(() => swapTotals(db));
    const queue = this.perScrape(() => outboxQueue(db));
    const flows = { in: this.perScrape(() => moneyIn(db, ledger.vvx)), out: this.perScrape(() => moneyOut(db)) };
    this.registry.counter("vvx_game_rounds_total", "Rounds played to their end, by game and result (finished or voided).", async (set) => {
      for (const row of (await plays()).rounds) set(row.n, { game: row.game, result: row.result });
    });
    this.registry.counter("vvx_game_bets_total", "Settled bets and spins by game and result (from the books).", async (set) => {
      for (const row of (await plays()).bets) set(row.n, { game: row.game, result: row.result });
    });
    for (const direction of ["in", "out"] as const) {
      for (const unit of ["drops", "micro_vvx"] as const) {
        const what = unit === "drops" ? "XRP in drops" : "VVX in micro-units";
        const verb = direction === "in" ? "received by the treasury (delivered amounts of the payments the watcher processed)" : "sent by the treasury (delivered amounts of validated payments)";
        this.registry.counter(`vvx_money_${direction}_${unit}_total`, `${what} ${verb}, by purpose.`, async (set) => {
          for (const flow of await flows[direction]()) if (flow.unit === unit) set(flow.amount, { purpose: flow.purpose });
        });
      }
    }
    this.registry.counter("vvx_swaps_total", "XRP to VVX swaps by how they ended (the player's own payment through the AMM).", async (set) => {
      for (const row of (await swaps()).byResult) set(row.n, { result: row.result });
    });
    this.registry.counter("vvx_swapped_drops_total", "XRP the completed swaps spent, in drops.", async (set) => set((await swaps()).spentDrops));
    this.registry.counter("vvx_swapped_micro_vvx_total", "VVX the completed swaps delivered, in micro-VVX.", async (set) => set((await swaps()).deliveredMicroVvx));
    this.registry.counter("vvx_crash_burned_micro_vvx_total", "VVX bought with 1% of crash bets and destroyed by the issuer (validated burns).", async (set) => set((await burns(db)).vvxBurnedMicro));
    this.registry.gauge("vvx_outbox_open_entries", "Outbox transactions queued or pending (not yet validated).", async (set) => set((await queue()).open));
    this.registry.gauge("vvx_outbox_failed_for_good", "Payments the outbox gave up on after their last resend, waiting for an admin to send again or mark settled (/admin).", async (set) => set(await givenUpCount(db)));
    this.registry.gauge("vvx_outbox_oldest_open_age_seconds", "Age of the oldest open outbox entry (0 with none).", async (set) => {
      const oldest = (await queue()).oldestAt;
      set(oldest === null ? 0 : Math.max(0, (this.ctx.clock.now() - oldest) / 1000));
    });
  }

  private chain(): void {
    const { ledger, crash } = this.ctx;
    this.registry.gauge("vvx_ledger_connection_state", "The XRP Ledger connection: 1 for the current state.", (set) => {
      for (const state of LEDGER_STATES) set(ledger.state === state ? 1 : 0, { state });
    });
    this.registry.gauge("vvx_ledger_last_validated_age_seconds", "Seconds since the close time of the last validated ledger the stream reported (by the product clock).", (set) => {
      if (this.lastValidated) set(Math.max(0, this.ctx.clock.now() / 1000 - this.lastValidated.closeTimeS));
    });
    this.registry.gauge("vvx_payment_watcher_lag_ledgers", "Validated ledgers the payment watcher has not processed yet.", async (set) => {
      const done = (await this.ctx.payments.cursor())?.ledgerIndex;
      if (this.lastValidated && done !== undefined) set(Math.max(0, this.lastValidated.index - done));
    });
    this.registry.gauge("vvx_treasury_xrp_drops", "The treasury's XRP balance (validated ledger), in drops.", (set) => this.treasury && set(this.treasury.balanceDrops));
    this.registry.gauge("vvx_treasury_reserve_drops", "The treasury's reserves (base plus owner reserves), in drops.", (set) => this.treasury && set(this.treasury.reserveDrops));
    this.registry.gauge("vvx_treasury_vvx_micro", "The treasury's VVX balance (validated ledger), in micro-VVX.", (set) => this.treasury && set(this.treasury.vvxMicro));
    this.registry.gauge("vvx_bankroll_spendable_drops", "What the XRP games may promise: balance - reserves - outbox payments in flight, in drops.", (set) => this.treasury && set(this.treasury.spendableDrops));
    this.registry.gauge("vvx_crash_max_profit_drops", "The current crash round's combined profit cap, in drops.", (set) => set(BigInt(Math.round(crash.rounds.state().maxProfit * 1_000_000))));
  }

  private process(): void {
    this.registry.gauge("vvx_cluster_role", "This instance's role in its cluster: 1 for the current one (alone on SQLite it always leads).", (set) => {
      for (const role of ["leader", "follower"] as const) set(this.ctx.leadership.role === role ? 1 : 0, { role });
    });
    this.registry.gauge("vvx_process_resident_memory_bytes", "Resident memory of the server process.", (set) => set(process.memoryUsage.rss()));
    this.registry.gauge("vvx_event_loop_delay_seconds", "Event-loop delay since the previous scrape (mean, p99 and max).", (set) => {
      const d = this.loop.read();
      set(d.meanS, { stat: "mean" });
      set(d.p99S, { stat: "p99" });
      set(d.maxS, { stat: "max" });
    });
  }

  /** Begins a scrape: reads the treasury from the ledger (at most LEDGER_READ_MS; the last figures stay when it does not answer in time). */
  async refresh(): Promise<void> {
    const { ledger, outbox } = this.ctx;
    this.scrapes++;
    const read = (async () => {
      const facts = await new Bankroll(ledger, outbox).facts();
      const lines = await ledger.request({ command: "account_lines", account: ledger.platformAddress, peer: ledger.vvx.issuer, ledger_index: "validated" } as AccountLinesRequest);
      const line = lines.result.lines.find((l) => l.currency === ledger.vvx.currency);
      const vvxMicro = line ? microFromValue(line.balance).micro : 0n;
      this.treasury = { balanceDrops: facts.balanceDrops, reserveDrops: facts.reserveDrops, spendableDrops: facts.spendableDrops, vvxMicro };
    })().catch(() => undefined);
    await Promise.race([read, Bun.sleep(LEDGER_READ_MS)]);
  }

  stop(): void {
    this.off();
    this.loop.stop();
  }
}

/** GET /metrics behind `Authorization: Bearer <METRICS_TOKEN>` (the route exists only when the token is set). */
export function metricsRoutes(metrics: ServerMetrics, token: string) {
  const expected = Buffer.from(`Bearer ${token}`);
  return new Elysia({ name: "metrics" }).get(
    "/metrics",
    async ({ request, set }) => {
      const given = Buffer.from(request.headers.get("authorization") ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        set.headers["www-authenticate"] = 'Bearer realm="metrics"';
        throw new UnauthorizedError("GET /metrics needs Authorization: Bearer <METRICS_TOKEN>");
      }
      await metrics.refresh();
      return new Response(await metrics.registry.render(), { headers: { "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store" } });
    },
    { detail: { summary: "Prometheus metrics (needs METRICS_TOKEN as a bearer token)", tags: ["system"] } },
  );
}
