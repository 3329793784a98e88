import { randomBytes } from "node:crypto";
import { raceFromSeeds, serverSeedCommitment, type RaceOutcome } from "../../../engine";
import type { LedgerGateway } from "../../ledger/gateway";
import type { Clock } from "../../platform/clock";
import type { RacingConfig } from "../../platform/config";
import { sqliteOf, type Db, type DbOrTx } from "../../platform/db";
import { TypedEmitter } from "../../platform/emitter";
import type { Logger } from "../../platform/log";
import type { NotePlayed } from "../../platform/playedMarks";
import { NATIVE_HASHES } from "../../platform/nativeHashes";
import { BackgroundLoop } from "../../platform/loop";
import { RetryGate } from "../../platform/retry";
import type { Scheduler } from "../../platform/scheduler";
import { RACING_FINISHED_MS, RACING_TICK_MS } from "./model";
import type { RaceRow, RacingRepository } from "./repository";

export interface RoundEvents {
  /** The current race moved to another status (or a new race began its countdown). */
  changed: RaceRow;
}

/** What the round loop needs from the money side; the bets module provides it. */
export interface RoundHooks {
  /** The highest ledger of a payment already accepted as a bet of `round` (0 when none). */
  lastBetLedger(db: DbOrTx, round: number): Promise<number>;
  /** Whether every payment in ledgers up to `ledgerIndex` has been judged by the watcher. */
  paymentsProcessedThrough(ledgerIndex: number): Promise<boolean>;
  /** Settles the race's bets inside the transaction that records its winner (payouts recorded there). */
  settle(db: DbOrTx, race: RaceRow): Promise<void>;
}

/**
 * The race loop on the server: waiting (countdown, bets open) -> closed (RACING_BET_CLOSE_MS
 * before the start: the last ledger whose payments count is fixed, the next ledger's hash becomes
 * the client seed) -> racing (seed revealed; the engine's timeline) -> finished (winner, payouts
 * recorded with it) -> after RACING_FINISHED_MS the next round. Every step is a row update from
 * the status it expects, so a restart resumes the race where its row stands: a race whose betting
 * closed finishes and pays exactly once; one in its countdown simply goes on counting down.
 */
export class RaceRounds {
  private readonly events: TypedEmitter<RoundEvents>;
  private readonly gate: RetryGate;
  private readonly loop: BackgroundLoop;
  private busy = false;
  /** The newest validated ledger the stream told us about. */
  private validated: { index: number; hash: string } | undefined;
  private race: RaceRow | undefined;
  /**
   * Whether `race` is the database's row: this loop alone writes races (one server per DATA_DIR), so a
   * tick reads the row only at start and after a transition found it moved on.
   */
  private raceIsStored = false;
  private outcome: { round: number; race: RaceOutcome } | undefined;
  /** The one timer armed for the stored race's next step (its due time and its cancel). */
  private wake: { at: number; cancel: () => void } | undefined;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      scheduler: Scheduler;
      log: Logger;
      ledger: LedgerGateway;
      config: RacingConfig;
      notePlayed: NotePlayed;
      /** In a cluster: a deposed leader's race writes (its winner and settlement among them) are refused (Leadership.fence). */
      fence?: (tx: Db) => Promise<void>;
    },
    private readonly repo: RacingRepository,
    private readonly hooks: RoundHooks,
  ) {
    this.events = new TypedEmitter((event, err) => deps.log.error("racing listener failed", { event, error: String(err) }));
    this.gate = new RetryGate("racing rounds", deps.log, sqliteOf(deps.db));
    // The loop beats on the games' scheduler; its steps fall due on the product clock (the sandbox moves both).
    this.loop = new BackgroundLoop(RACING_TICK_MS, () => this.tick(), deps.scheduler);
  }

  on<K extends keyof RoundEvents & string>(event: K, listener: (payload: RoundEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** The current race (undefined only before the first tick). */
  get current(): RaceRow | undefined {
    return this.race;
  }

  /** The timeline of the current race once its seeds are known. */
  outcomeOf(race: RaceRow): RaceOutcome | undefined {
    if (race.clientSeed === null || (race.status !== "racing" && race.status !== "finished")) return undefined;
    if (this.outcome?.round !== race.round) {
      this.outcome = { round: race.round, race: raceFromSeeds({ serverSeed: race.serverSeed, clientSeed: race.clientSeed, nonce: race.round }, NATIVE_HASHES) };
    }
    return this.outcome.race;
  }

  start(): void {
    this.loop.start(() => [this.deps.ledger.on("ledgerClosed", (l) => this.sawLedger(l.ledger_index, l.ledger_hash))]);
  }

  stop(): void {
    this.loop.stop();
    this.wake?.cancel();
    this.wake = undefined;
  }

  private sawLedger(index: number, hash: string): void {
    if (!this.validated || index > this.validated.index) this.validated = { index, hash };
    this.tick();
  }

  /** One pass of the loop; failures (ledger, a locked database) are logged and back off. */
  tick(): void {
    if (this.busy || !this.loop.running) return;
    // The stored race's next step is not due yet: no pass (no database probe, no read) until it is.
    if (this.raceIsStored && this.race && this.deps.clock.now() < (dueAt(this.race) ?? 0) && !this.commitLedgerDue(this.race)) return this.wakeAtDue(this.race);
    this.busy = true;
    void this.gate
      .run(async () => {
        // Several steps may be due at once (after a restart or a clock advance): take them all.
        try {
          for (let steps = 0; steps < 5 && this.loop.running; steps++) if (!(await this.step())) break;
        } catch (err) {
          this.raceIsStored = false; // a failed transition may or may not have written: read the row again
          throw err;
        }
      })
      .finally(() => {
        this.busy = false;
        if (this.raceIsStored && this.race) this.wakeAtDue(this.race);
      });
  }

  /**
   * Arms one timer on the scheduler for the race's next step when it lies ahead, so an idle countdown
   * wakes the process at its steps only (the loop's beat and the ledger closes are the safety net: a step
   * already due, a failed pass backing off).
   */
  private wakeAtDue(race: RaceRow): void {
    const due = dueAt(race);
    if (due === undefined || this.wake?.at === due) return;
    const wait = due - this.deps.clock.now();
    if (wait <= 0) return;
    this.wake?.cancel();
    const cancel = this.deps.scheduler.after(wait, () => {
      this.wake = undefined;
      this.tick();
    });
    this.wake = { at: due, cancel };
  }

  /** One step's write transaction, fenced in a cluster (without a fence, no await is added before the body). */
  private write<T>(body: (tx: Db) => Promise<T>): Promise<T> {
    const fence = this.deps.fence;
    return this.deps.db.transaction(fence ? async (tx) => (await fence(tx), body(tx)) : body);
  }

  /** Takes the next step that is due; false when nothing is due yet. */
  private async step(): Promise<boolean> {
    const race = this.raceIsStored ? this.race : await this.repo.current();
    this.race = race;
    this.raceIsStored = true;
    if (!race) return this.begin(1);
    if (this.commitLedgerDue(race)) {
      // A countdown begun before any ledger was seen: the first one seen is the ledger its hash was shown by.
      const index = this.validated!.index;
      this.race = (await this.write((tx) => this.repo.setCommitLedger(tx, race.round, index))) ?? race;
      return true;
    }
    const due = dueAt(race);
    if (due === undefined) throw new Error(`race ${race.round} has an unknown status ${race.status}`);
    if (this.deps.clock.now() < due) return false;
    switch (race.status) {
      case "waiting":
        return this.closeBetting(race);
      case "closed":
        return this.startRace(race);
      case "racing":
        return this.finish(race);
      default: // finished or voided
        return this.begin(race.round + 1);
    }
  }

  /** Whether a countdown still lacks its commitment's ledger while one is known. */
  private commitLedgerDue(race: RaceRow): boolean {
    return race.status === "waiting" && race.commitLedger === null && this.validated !== undefined;
  }

  private moved(row: RaceRow | undefined): boolean {
    if (!row) {
      this.raceIsStored = false;
      return false;
    }
    this.race = row;
    this.events.emit("changed", row);
    return true;
  }

  /**
   * A new round: a fresh server seed whose hash is shown from now on, with the newest validated ledger
   * then (the client seed's ledger comes after it); right after a start, before any ledger was seen,
   * the first one seen is recorded instead (sawLedger).
   */
  private async begin(round: number): Promise<boolean> {
    const { countdownMs, betCloseMs, payoutMultiple } = this.deps.config;
    const commitLedger = this.validated?.index ?? null;
    const now = this.deps.clock.now();
    const serverSeed = randomBytes(32).toString("hex");
    const row = await this.write(async (tx) => {
      if ((await this.repo.lastRound(tx)) >= round) return undefined;
      return this.repo.insertRace(tx, {
        round,
        status: "waiting",
        serverSeed,
        serverSeedHash: serverSeedCommitment(serverSeed),
        commitLedger,
        multipleHundredths: Math.round(payoutMultiple * 100),
        countdownAt: new Date(now),
        betsCloseAt: new Date(now + countdownMs - betCloseMs),
        startsAt: new Date(now + countdownMs),
      });
    });
    if (row) this.deps.log.info("race countdown", { round, serverSeedHash: row.serverSeedHash, startsAt: row.startsAt.toISOString() });
    return this.moved(row);
  }

  private async latestValidated(): Promise<{ index: number; hash: string }> {
    if (this.validated) return this.validated;
    const res = await this.deps.ledger.request({ command: "ledger", ledger_index: "validated" });
    this.validated = { index: res.result.ledger_index, hash: res.result.ledger_hash };
    return this.validated;
  }

  /** Betting closes: payments in ledgers up to `closeLedger` are this race's bets; the next ledger's hash is its client seed. */
  private async closeBetting(race: RaceRow): Promise<boolean> {
    const { index } = await this.latestValidated();
    const row = await this.write(async (tx) => {
      const closeLedger = Math.max(index, await this.hooks.lastBetLedger(tx, race.round));
      return this.repo.updateRace(tx, race.round, "waiting", { status: "closed", closeLedger, seedLedger: closeLedger + 1 });
    });
    if (row) this.deps.log.info("race betting closed", { round: race.round, closeLedger: row.closeLedger });
    return this.moved(row);
  }

  /** The start: once the seed ledger is validated and every bet payment up to the close ledger judged. */
  private async startRace(race: RaceRow): Promise<boolean> {
    const seedLedger = race.seedLedger!;
    if (!this.validated || this.validated.index < seedLedger) return false;
    if (!(await this.hooks.paymentsProcessedThrough(race.closeLedger!))) return false;
    const clientSeed = this.validated.index === seedLedger ? this.validated.hash : await this.ledgerHash(seedLedger);
    const now = this.deps.clock.now();
    const outcome = raceFromSeeds({ serverSeed: race.serverSeed, clientSeed, nonce: race.round }, NATIVE_HASHES);
    const durationMs = Math.ceil((outcome.durationTicks * 1000) / outcome.tickRate);
    const row = await this.write((tx) =>
      this.repo.updateRace(tx, race.round, "closed", { status: "racing", clientSeed, startedAt: new Date(now), endsAt: new Date(now + durationMs), winnerIndex: null }),
    );
    if (row) {
      // The seed is revealed with the next push: DATA_DIR/vvx.played knows this race was shown first.
      this.deps.notePlayed("racing", race.round);
      this.outcome = { round: race.round, race: outcome };
      this.deps.log.info("race started", { round: race.round, clientSeed, seedLedger });
    }
    return this.moved(row);
  }

  private async ledgerHash(index: number): Promise<string> {
    const res = await this.deps.ledger.request({ command: "ledger", ledger_index: index });
    if (!res.result.validated) throw new Error(`ledger ${index} is not validated yet`);
    return res.result.ledger_hash;
  }

  /** The finish: the winner and every bet's result (payouts recorded) in one transaction. */
  private async finish(race: RaceRow): Promise<boolean> {
    const outcome = this.outcomeOf(race)!;
    const row = await this.write(async (tx) => {
      const done = await this.repo.updateRace(tx, race.round, "racing", { status: "finished", winnerIndex: outcome.winnerIndex, finishedAt: this.deps.clock.date() });
      if (done) await this.hooks.settle(tx, done);
      return done;
    });
    if (row) this.deps.log.info("race finished", { round: race.round, winner: outcome.winner });
    return this.moved(row);
  }
}

/** When a race's next step is due (betting closes, the race starts, ends, the next countdown begins); undefined for a status no step knows. */
function dueAt(race: RaceRow): number | undefined {
  switch (race.status) {
    case "waiting":
      return race.betsCloseAt.getTime();
    case "closed":
      return race.startsAt.getTime();
    case "racing":
      return race.endsAt!.getTime();
    case "finished":
      return race.finishedAt!.getTime() + RACING_FINISHED_MS;
    case "voided": // no winner to show: the next countdown begins at once
      return race.finishedAt!.getTime();
    default:
      return undefined;
  }
}
