import { canSpinToday, nextSpinAvailableAtMs, streakAfterSpin, streakTier, utcDayNumber, wheelSpinFromFloat } from "../../../engine";
import type { FairSeedService } from "../../fair";
import type { Clock } from "../../platform/clock";
import type { Db } from "../../platform/db";
import { ConflictError, ForbiddenError, NotFoundError } from "../../platform/errors";
import type { Logger } from "../../platform/log";
import type { NotePlayed } from "../../platform/playedMarks";
import type { Hub } from "../../platform/ws/hub";
import { COME_BACK_TOMORROW, DAILY_SPIN_ERRORS, HOLDERS_ONLY, type SpinCredit } from "./model";
import { DailySpinRepository, type DailySpinRow } from "./repository";

export interface DailySpinDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  fair: FairSeedService;
  /** Where prize spins go (the slots, wired by the composition root). */
  creditSpins: SpinCredit;
  /** Records (outside the database) that a spin is about to be shown: DATA_DIR/vvx.played. */
  notePlayed: NotePlayed;
  /** Whether a wallet may spin at all (DAILY_SPIN_ELIGIBILITY=holders); every wallet may when absent. */
  eligible?: (wallet: string) => Promise<boolean>;
  /** Tells the wallet's open pages of each spin (its other windows, the slots page a prize goes to). */
  hub: Pick<Hub, "emit">;
}

/** 409: this wallet has spun today (UTC). */
export class AlreadySpunError extends ConflictError {
  constructor() {
    super(DAILY_SPIN_ERRORS.alreadySpun, COME_BACK_TOMORROW);
  }
}

/** 403: DAILY_SPIN_ELIGIBILITY=holders and the wallet neither holds a VVX NFT nor played lately. */
export class HoldersOnlyError extends ForbiddenError {
  constructor() {
    super(HOLDERS_ONLY, DAILY_SPIN_ERRORS.holdersOnly);
  }
}

/**
 * The daily spin wheel: one spin per wallet per UTC day of the product clock, decided by the
 * wallet's seed pair (the nonce sequence it shares with the slots), a streak of consecutive days,
 * and prize spins credited to the slots in the same transaction as the spin's record.
 */
export class DailySpinService {
  readonly repo: DailySpinRepository;

  constructor(private readonly deps: DailySpinDeps) {
    this.repo = new DailySpinRepository(deps.db);
  }

  /** The wallet's (every wallet's when null) newest `limit` wheel spins, newest first, with their seeds (the server seed once revealed). */
  async spinList(wallet: string | null, limit: number, beforeId?: number) {
    return this.items(await this.repo.spinsOf(wallet, limit, beforeId));
  }

  /** One wheel spin (its page); 404 for an unknown id. */
  async spinDetail(id: number) {
    const row = await this.repo.spin(id);
    if (!row) throw new NotFoundError(`No wheel spin #${id}`, "ROUND_NOT_FOUND");
    return { success: true as const, spin: (await this.items([row]))[0]! };
  }

  private async items(rows: DailySpinRow[]) {
    const seeds = await this.deps.fair.seedFacts(rows.map((r) => r.serverSeedHash));
    return rows.map((r) => ({
      id: r.id,
      walletAddress: r.wallet,
      date: r.createdAt.toISOString(),
      position: r.position,
      prizeLabel: r.prizeLabel,
      prizeAmount: r.prizeAmount,
      streak: r.streak,
      serverSeedHash: r.serverSeedHash,
      committedAt: seeds.get(r.serverSeedHash)?.committedAt?.toISOString() ?? null,
      serverSeed: seeds.get(r.serverSeedHash)?.serverSeed ?? null,
      clientSeed: r.clientSeed,
      nonce: r.nonce,
      slotSessionId: r.slotSessionId,
    }));
  }

  /** The spec's eligibility fields at the product clock's now (and whether the holders rule lets the wallet in). */
  async eligibility(wallet: string) {
    const eligible = (await this.deps.eligible?.(wallet)) ?? true;
    const now = this.deps.clock.now();
    const last = await this.repo.latest(wallet);
    const canSpin = eligible && canSpinToday(last ? last.createdAt.getTime() : null, now);
    // A streak survives until the end of the day after its last spin.
    const currentStreak = last && utcDayNumber(now) - last.utcDay <= 1 ? last.streak : 0;
    const { total, longest } = await this.repo.stats(wallet);
    return {
      canSpin,
      reason: canSpin ? null : eligible ? COME_BACK_TOMORROW : HOLDERS_ONLY,
      eligible,
      totalSpins: total,
      currentStreak,
      longestStreak: longest,
      streakTier: streakTier(currentStreak),
      nextSpinAvailable: new Date(canSpin ? now : nextSpinAvailableAtMs(now)).toISOString(),
      now: new Date(now).toISOString(),
    };
  }

  /** Spins once for today: 409 when the wallet already has (two concurrent spins give one result); 403 when the holders rule leaves it out. */
  async spin(wallet: string) {
    if (this.deps.eligible && !(await this.deps.eligible(wallet))) throw new HoldersOnlyError();
    const now = this.deps.clock.now();
    const day = utcDayNumber(now);
    const row = await this.deps.db.transaction(async (tx) => {
      if (await this.repo.onDay(wallet, day, tx)) return undefined;
      const last = await this.repo.latest(wallet, tx);
      const seeds = await this.deps.fair.draw(tx, wallet);
      const result = wheelSpinFromFloat(this.deps.fair.floats(seeds, 1)[0]!);
      const streak = streakAfterSpin(last?.streak ?? 0, last ? last.createdAt.getTime() : null, now);
      const credit = result.prizeAmount > 0 ? await this.deps.creditSpins(tx, wallet, result.prizeAmount) : null;
      return this.repo.insert(tx, {
        wallet,
        utcDay: day,
        position: result.position,
        prizeType: result.prizeType,
        prizeAmount: result.prizeAmount,
        prizeLabel: result.prizeLabel,
        streak,
        serverSeedHash: seeds.serverSeedHash,
        clientSeed: seeds.clientSeed,
        nonce: seeds.nonce,
        slotSessionId: credit?.sessionId ?? null,
        creditedTo: credit?.addedTo ?? null,
        createdAt: new Date(now),
      });
    });
    if (!row) throw new AlreadySpunError();
    this.deps.notePlayed("wheel", row.id);
    this.deps.log.info("daily spin", { wallet, prize: row.prizeLabel, streak: row.streak, session: row.slotSessionId });
    const result = resultView(row);
    await this.publish(wallet, result);
    return result;
  }

  /** The spin and the eligibility after it, on the wallet's channel (a push that fails never fails the spin). */
  private async publish(wallet: string, result: ReturnType<typeof resultView>): Promise<void> {
    try {
      this.deps.hub.emit("wallet", wallet, { type: "wheel.spin", result, eligibility: await this.eligibility(wallet) });
    } catch (err) {
      this.deps.log.warn("daily spin push failed", { wallet, error: err instanceof Error ? err.message : String(err) });
    }
  }
}

/** The spin result: the spec's fields plus the seeds and where the spins went. */
export function resultView(row: DailySpinRow) {
  return {
    spinId: row.id,
    position: row.position,
    prizeType: row.prizeType === "none" ? "none" : "slot_spins",
    prizeAmount: row.prizeAmount,
    prizeLabel: row.prizeLabel,
    streak: row.streak,
    streakTier: streakTier(row.streak),
    slotSessionId: row.slotSessionId,
    creditedTo: row.creditedTo,
    serverSeedHash: row.serverSeedHash,
    clientSeed: row.clientSeed,
    nonce: row.nonce,
  };
}
