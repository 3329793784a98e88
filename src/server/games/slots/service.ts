import { randomUUID } from "node:crypto";
import { convertStringToHex } from "xrpl";
import { MICRO_PER_VVX, SLOT_FLOATS_PER_SPIN, slotSpinFromFloats, unplayedPaidSpins, vvxToMicro, type SlotSpin } from "../../../engine";
import type { DrawnSeeds, FairSeedService } from "../../fair";
import { vvxAmount } from "../../ledger/amounts";
import type { DbOrTx, OutboxInput } from "../../ledger/outbox";
import { NotFoundError } from "../../platform/errors";
import type { Hub } from "../../platform/ws/hub";
import type { KitDeps } from "../kit";
import {
  BONUS_SPIN_COST_VVX,
  SESSION_IDLE_MS,
  SessionRefusedError,
  SLOTS_ERRORS,
  slotKeys,
} from "./model";
import { SlotsRepository, type SessionRow, type SpinTaken } from "./repository";
import { slotSessions } from "./schema";
import { payoutView, sessionView, spinListItem, spinView, vvxNumber } from "./views";

/** The games kit's services, and what slots adds. */
export interface SlotsDeps extends KitDeps {
  fair: FairSeedService;
  hub: Hub;
}

/** The outbox owner of expiry refunds: the session's row. */
const SLOTS_SESSION_OWNER = "slots-session";
const hex = (text: string) => convertStringToHex(text).toUpperCase();

type RefusalCode = (typeof SLOTS_ERRORS)[keyof typeof SLOTS_ERRORS];
/** What the spin transaction decided: a refusal, or the recorded spin. */
type SpinOutcome = { refused: RefusalCode } | { refused?: undefined; id: number; spin: SlotSpin; seeds: DrawnSeeds; taken: SpinTaken };

/** Where a daily-wheel prize went: added to an active Standard (or Bonus) session, or a new Bonus session. */
export interface BonusCredit {
  sessionId: string;
  addedTo: "existing" | "new_bonus";
}

/**
 * VVX Slots sessions and spins: a session is a run of spins at one spin cost (a paid package, or
 * daily-wheel spins); a spin is decided from the wallet's seed pair, recorded and counted in one
 * transaction. Packages are bought in purchases.ts; winnings are paid by payouts.ts.
 */
export class SlotsService {
  readonly repo: SlotsRepository;

  constructor(private readonly deps: SlotsDeps) {
    this.repo = new SlotsRepository(deps.db);
    // The session owns its expiry refund: one the ledger refused goes again under the outbox's next key (the view reads its txid).
    deps.outbox.owner(SLOTS_SESSION_OWNER, { resend: ["refund"], keyColumns: [slotSessions.refundKey] });
  }

  // --- Sessions -----------------------------------------------------------------------

  /** Active sessions of a wallet, oldest first; ones whose time ran out are expired on the way. */
  async currentSessions(wallet: string): Promise<SessionRow[]> {
    const now = this.deps.clock.now();
    const rows = await this.repo.activeSessions(wallet);
    const live = rows.filter((s) => s.expiresAt.getTime() > now);
    if (live.length < rows.length) {
      for (const s of rows) if (s.expiresAt.getTime() <= now) await this.expire(s.id);
    }
    return live;
  }

  /** The session played now (the oldest active one), or null. */
  async activeSession(wallet: string) {
    const [current, ...queued] = await this.currentSessions(wallet);
    return current ? this.view(current, queued.length) : null;
  }

  async view(row: SessionRow, queued = 0) {
    const refund = row.refundKey ? await this.deps.outbox.get(row.refundKey) : undefined;
    return sessionView(row, { queued, refundTxid: refund?.status === "validated" ? refund.hash : null });
  }

  /**
   * Ends an active session whose time ran out; its unplayed paid spins (played spins count against
   * the paid ones first) go back to the wallet in VVX through the outbox (wheel spins lapse).
   * Idempotent: a session already ended is left alone.
   */
  async expire(sessionId: string): Promise<SessionRow | undefined> {
    const now = this.deps.clock.date();
    const ended = await this.deps.db.transaction(async (tx) => {
      const s = await this.repo.session(sessionId, tx);
      if (!s || s.status !== "active" || s.expiresAt > now) return undefined;
      const refundable = BigInt(unplayedPaidSpins(s)) * s.spinCostMicro;
      const refundKey = refundable > 0n ? slotKeys.expiryRefund(s.id) : null;
      if (refundKey) await this.deps.outbox.record(tx, { key: refundKey, purpose: "refund", tx: this.refundTx(s, refundable), owner: { name: SLOTS_SESSION_OWNER, id: s.id } });
      return this.repo.updateSession(tx, s.id, { status: "expired", endedAt: now, refundKey, refundMicro: refundable > 0n ? refundable : null });
    });
    if (ended) {
      if (ended.refundKey) this.deps.outbox.kick();
      this.deps.log.info("slots session expired", { session: ended.id, wallet: ended.wallet, unplayed: ended.remainingSpins, refundMicro: ended.refundMicro?.toString() });
      this.deps.hub.emit("wallet", ended.wallet, { type: "slots.session", sessionId: ended.id, status: "expired" });
    }
    return ended;
  }

  private refundTx(s: SessionRow, micro: bigint): OutboxInput["tx"] {
    return {
      TransactionType: "Payment",
      Destination: s.wallet,
      Amount: vvxAmount(micro, this.deps.ledger.vvx),
      Memos: [{ Memo: { MemoType: hex("vvx/refund"), MemoData: hex(`slots_session_expired ${s.id}`) } }],
    } as OutboxInput["tx"];
  }

  /**
   * Credits daily-wheel spins inside the caller's transaction: added to the wallet's active
   * 1,000 VVX session (Standard or Bonus) if it has one, otherwise a new Bonus session.
   */
  async creditBonusSpins(db: DbOrTx, wallet: string, spins: number): Promise<BonusCredit> {
    const now = this.deps.clock.now();
    const cost = vvxToMicro(BONUS_SPIN_COST_VVX);
    const target = (await this.repo.activeSessions(wallet, db)).find((s) => s.spinCostMicro === cost && s.expiresAt.getTime() > now);
    const expiresAt = new Date(now + SESSION_IDLE_MS);
    if (target) {
      await this.repo.updateSession(db, target.id, {
        totalSpins: target.totalSpins + spins,
        remainingSpins: target.remainingSpins + spins,
        bonusSpins: target.bonusSpins + spins,
        expiresAt: expiresAt > target.expiresAt ? expiresAt : target.expiresAt,
      });
      return { sessionId: target.id, addedTo: "existing" };
    }
    const session = await this.repo.insertSession(db, {
      id: randomUUID(),
      wallet,
      kind: "bonus",
      packageIndex: null,
      spinCostMicro: cost,
      totalSpins: spins,
      remainingSpins: spins,
      paidSpins: 0,
      bonusSpins: spins,
      totalPayoutMicro: 0n,
      paidMicro: 0n,
      status: "active",
      createdAt: new Date(now),
      lastActivityAt: new Date(now),
      expiresAt,
    });
    return { sessionId: session.id, addedTo: "new_bonus" };
  }

  // --- Spins --------------------------------------------------------------------------

  /**
   * One spin: checks the session, takes the wallet's next nonce, decides the reels, records the
   * spin and takes the spin from the session, all in one immediate transaction (two concurrent
   * spins on the last spin: one spins, the other gets 403). Winnings are paid by the batcher.
   */
  async spin(wallet: string, sessionId: string) {
    const now = this.deps.clock.now();
    const outcome = await this.spinOnce(wallet, sessionId, now);
    if (outcome.refused !== undefined) throw await this.refusal(outcome.refused, sessionId);
    this.deps.notePlayed("slots", outcome.id);
    const { taken } = outcome;
    return {
      spin: spinView(outcome.id, outcome.spin, outcome.seeds),
      remainingSpins: taken.remainingSpins,
      sessionStatus: taken.status === "completed" ? "completed" : "active",
      totalWinnings: vvxNumber(taken.totalPayoutMicro),
    };
  }

  /** The spin's transaction. */
  private spinOnce(wallet: string, sessionId: string, now: number): Promise<SpinOutcome> {
    return this.deps.db.transaction(async (tx): Promise<SpinOutcome> => {
      const s = await this.repo.spinSession(tx, sessionId);
      if (!s) return { refused: SLOTS_ERRORS.sessionNotFound };
      if (s.wallet !== wallet) return { refused: SLOTS_ERRORS.sessionForbidden };
      if (s.status === "expired" || s.expiresAt <= now) return { refused: SLOTS_ERRORS.sessionExpired };
      if (s.status !== "active" || s.remainingSpins <= 0) return { refused: SLOTS_ERRORS.sessionFinished };
      const seeds = await this.deps.fair.draw(tx, wallet);
      const spin = slotSpinFromFloats(this.deps.fair.floats(seeds, SLOT_FLOATS_PER_SPIN), Number(s.spinCostMicro / MICRO_PER_VVX));
      const taken = await this.repo.takeSpin(tx, s.id, s.remainingSpins, spin.totalPayoutMicro, now, now + SESSION_IDLE_MS);
      if (!taken) return { refused: SLOTS_ERRORS.sessionFinished };
      const id = await this.repo.insertSpin(tx, {
        sessionId: s.id,
        wallet,
        serverSeedHash: seeds.serverSeedHash,
        clientSeed: seeds.clientSeed,
        nonce: seeds.nonce,
        reels: spin.reels.join(","),
        winType: spin.winType,
        multipleHundredths: spin.multipleHundredths,
        mysteryMultiple: spin.mysteryMultiple,
        spinCostMicro: spin.spinCostMicro,
        winMicro: spin.winAmountMicro,
        partialMicro: spin.partialPayoutMicro,
        totalPayoutMicro: spin.totalPayoutMicro,
        createdAt: now,
      });
      return { id, spin, seeds, taken };
    });
  }

  /** A wallet's spins (every wallet's when null), newest first, with their payout and the server seed once it is revealed. */
  async spinList(wallet: string | null, limit: number, beforeId?: number) {
    const rows = await this.repo.spinsOf(wallet, limit, beforeId);
    const seeds = await this.deps.fair.seedFacts(rows.map((r) => r.spin.serverSeedHash));
    return rows.map((r) => spinListItem(r.spin, { status: r.payoutStatus, txid: r.payoutTxid }, seeds.get(r.spin.serverSeedHash)));
  }

  /** One spin (its page) and the payout that carried its winnings; 404 for an unknown id. */
  async spinDetail(id: number) {
    const row = await this.repo.spinById(id);
    if (!row) throw new NotFoundError(`No slots spin #${id}`, "ROUND_NOT_FOUND");
    const seeds = await this.deps.fair.seedFacts([row.spin.serverSeedHash]);
    const payout = row.spin.payoutId ? await this.repo.payout(row.spin.payoutId) : undefined;
    return {
      success: true as const,
      spin: spinListItem(row.spin, { status: row.payoutStatus, txid: row.payoutTxid }, seeds.get(row.spin.serverSeedHash)),
      payout: payout ? payoutView(payout, await this.repo.spinIdsOf(payout.id)) : null,
    };
  }

  private async refusal(code: RefusalCode, sessionId: string): Promise<SessionRefusedError> {
    switch (code) {
      case SLOTS_ERRORS.sessionExpired:
        await this.expire(sessionId);
        return new SessionRefusedError(code, "Your session has expired. Please purchase new spins to continue playing.");
      case SLOTS_ERRORS.sessionFinished:
        return new SessionRefusedError(code, "No Spins Left: this session has no spins left. Buy a package to keep playing.");
      case SLOTS_ERRORS.sessionForbidden:
        return new SessionRefusedError(code, "This session belongs to another wallet.");
      default:
        return new SessionRefusedError(SLOTS_ERRORS.sessionNotFound, "Your session has expired. Please purchase new spins to continue playing.");
    }
  }
}
