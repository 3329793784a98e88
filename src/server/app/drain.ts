import { Elysia } from "elysia";
import { requireAdmin, walletSession } from "../auth/guard";
import type { AuthService } from "../auth/service";
import { openRequests, outboxQueue, unsettledBets } from "../books/service";
import type { AppContext } from "./context";
import { DrainState } from "../../shared/api/system";

type Ctx = Pick<AppContext, "store" | "log" | "clock" | "crash" | "racing" | "nfts" | "slots">;

/** How often a drain looks again at what is still open. */
const CHECK_MS = 1_000;
/** How often a long drain says what it still waits for. */
const REPORT_MS = 15_000;

/**
 * Draining before a restart (an upgrade): no new bets, NFT purchases or slots packages are taken (503
 * DRAINING); the crash round under way plays out and no new one opens. `forRestart` (SIGTERM) waits for
 * that round at most a grace period; `untilIdle` (SIGUSR2, POST /api/admin/drain) waits until nothing is
 * open at all: no crash round, no paid bet unsettled, no payment request a wallet could still pay, no
 * outbox payment on its way. Then the server stops and nothing is voided at its next start.
 */
export class Drain {
  private started: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;
  /** What runs once a drain asked by SIGUSR2 or an admin found nothing open (main stops the server and exits). */
  onIdle: (() => Promise<void> | void) | undefined;

  constructor(private readonly ctx: Ctx) {}

  get active(): boolean {
    return this.started !== undefined;
  }

  /** Stops taking new business; resolves once the crash loop has no round left to play out. */
  start(reason: string): Promise<void> {
    if (this.started) return this.started;
    const { crash, racing, nfts, slots, log } = this.ctx;
    crash.bets.draining = racing.bets.draining = nfts.purchases.draining = slots.purchases.draining = true;
    void this.open().then(
      (open) => log.info("draining: no new bets or purchases; open ones finish", { reason, open: open.join("; ") || "nothing" }),
      (err: unknown) => log.warn("draining: what is open could not be read", { reason, error: String(err) }),
    );
    // Once no round is left to play out, bets paid for a round that will not open now are refunded at once.
    // On a follower the fence refuses it (the leader's rounds are not this instance's to void): nothing to refund here.
    this.started = crash.rounds
      .drain()
      .then(() => crash.bets.voidInterrupted("while draining (no round opens again before the restart)"))
      .then(
        () => undefined,
        (err: unknown) => log.warn("draining: open crash bets not voided here", { error: String(err) }),
      );
    return this.started;
  }

  /** What is still open (empty when the server may stop without voiding or abandoning anything), from the books on either driver. */
  async open(): Promise<string[]> {
    const out: string[] = [];
    const live = this.ctx.crash.rounds.state();
    if (live.round > 0 && live.status === "running") out.push(`crash round ${live.round} running`);
    const { db } = this.ctx.store;
    const [bets, requests, outbox] = await Promise.all([unsettledBets(db), openRequests(db, this.ctx.clock.now()), outboxQueue(db)]);
    for (const { game, n } of bets) out.push(`${n} ${game} bet(s) not settled`);
    if (requests) out.push(`${requests} payment request(s) a wallet may still pay`);
    if (outbox.open) out.push(`${outbox.open} outbox transaction(s) on their way`);
    return out;
  }

  /** SIGTERM: drains, then waits for the crash round under way at most `graceMs`; false when it ran out of time (that round is voided at the next start). */
  async forRestart(graceMs: number): Promise<boolean> {
    const ended = await Promise.race([this.start("SIGTERM").then(() => true), Bun.sleep(graceMs).then(() => false)]);
    if (!ended) this.ctx.log.warn("the crash round under way did not end in time; it is voided and its bets refunded at the next start", { graceMs });
    return ended;
  }

  /** SIGUSR2 or the admin's call: drains and resolves once nothing is open. */
  async untilIdle(reason: string): Promise<void> {
    await this.start(reason);
    let reported = performance.now();
    for (let open = await this.open(); open.length; open = await this.open()) {
      // A bet paid while draining has no crash round to join: refunded as it comes.
      if (open.some((o) => o.includes("crash bet"))) await this.ctx.crash.bets.voidInterrupted("while draining (no round opens again before the restart)");
      if (performance.now() - reported >= REPORT_MS) {
        this.ctx.log.info("draining: waiting for", { open: open.join("; ") });
        reported = performance.now();
      }
      await Bun.sleep(CHECK_MS);
    }
    this.ctx.log.info("drained: nothing is open; stopping");
  }

  /** SIGUSR2 or the admin's call: drains, and once nothing is open runs `onIdle` (once, however often it is asked). */
  stopWhenIdle(reason: string): void {
    this.stopping ??= this.untilIdle(reason).then(() => this.onIdle?.());
  }
}

/**
 * POST /api/admin/drain (admins): starts draining; the server stops by itself once nothing is open
 * (`onIdle`, set by the process's main). GET tells whether it drains and what is still open.
 */
export function drainRoutes(drain: Drain, auth: AuthService, adminWallets: readonly string[]) {
  return new Elysia({ name: "drain" })
    .use(walletSession(auth))
    .get(
      "/api/admin/drain",
      async ({ session }) => {
        requireAdmin(session, adminWallets);
        return { success: true as const, draining: drain.active, open: await drain.open() };
      },
      { response: DrainState, detail: { summary: "Admins: whether the server drains before a restart, and what is still open", tags: ["admin"] } },
    )
    .post(
      "/api/admin/drain",
      async ({ session }) => {
        requireAdmin(session, adminWallets);
        drain.stopWhenIdle("POST /api/admin/drain");
        return { success: true as const, draining: true, open: await drain.open() };
      },
      { response: DrainState, detail: { summary: "Admins: stop taking bets and purchases, finish what is open, then stop the server (for an upgrade)", tags: ["admin"] } },
    );
}
