import { convertStringToHex } from "xrpl";
import { vvxAmount } from "../../ledger/amounts";
import type { LedgerGateway } from "../../ledger/gateway";
import type { Outbox, OutboxInput, Settlement } from "../../ledger/outbox";
import { RESEND_POLICY } from "../../ledger/resend";
import type { Clock } from "../../platform/clock";
import { sqliteOf, type Db } from "../../platform/db";
import type { Logger } from "../../platform/log";
import { BackgroundLoop } from "../../platform/loop";
import { RetryGate } from "../../platform/retry";
import type { Hub } from "../../platform/ws/hub";
import { SLOTS_PAYOUT_PURPOSE, slotKeys } from "./model";
import { slotPayouts } from "./schema";
import type { PayoutRow, SlotsRepository } from "./repository";
import type { SlotsService } from "./service";
import { payoutView } from "./views";

const hex = (text: string) => convertStringToHex(text).toUpperCase();
/** The outbox owner of slots payouts: the payout's row. */
export const SLOTS_PAYOUT_OWNER = "slots-payout";
/** Safety-net tick when no ledger closes arrive (reconnecting, slow network). */
const TICK_MS = 2_000;

export interface PayoutDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  ledger: LedgerGateway;
  outbox: Outbox;
  hub: Hub;
  /** In a cluster: a deposed leader's payout batches are refused (Leadership.fence). */
  fence?: (tx: Db) => Promise<void>;
}

/**
 * Pays the winnings of spins: at each ledger close, every wallet's spins with unpaid winnings become
 * one VVX payment (a payout row, the spins pointing to it, and its outbox entry, written in one
 * transaction), so a restart can neither lose nor double a payout. A wallet has at most one payout
 * on its way: what it wins meanwhile goes in its next one, so a busy outbox gets fewer, larger
 * payments instead of a growing queue. Follows the outbox to fill
 * in txids (a failed payout goes again under the outbox's next key, the payout row following it), and
 * expires idle sessions.
 */
export class SlotPayouts {
  private readonly loop = new BackgroundLoop(TICK_MS, () => this.tick());
  private readonly gate: RetryGate;

  constructor(
    private readonly deps: PayoutDeps,
    private readonly repo: SlotsRepository,
    private readonly slots: SlotsService,
  ) {
    this.gate = new RetryGate("slots payouts", deps.log, sqliteOf(deps.db));
    // The payout row owns its payment: the outbox hands it the settlement, and a failed one goes again under the next key, the row pending again.
    deps.outbox.owner(SLOTS_PAYOUT_OWNER, {
      resend: [SLOTS_PAYOUT_PURPOSE],
      keyColumns: [slotPayouts.outboxKey],
      settled: (s) => this.settle(s),
      resent: async ({ db, id }) => !!(await repo.retryPayout(db, Number(id))),
    });
  }

  start(): void {
    this.loop.start(() => [this.deps.ledger.on("ledgerClosed", () => this.tick())]);
  }

  stop(): void {
    this.loop.stop();
  }

  /** One round of the background work; failures (a locked database too) are logged and back off, and a later tick retries. */
  tick(): void {
    if (!this.loop.running) return;
    void this.gate.run(async () => {
      await this.flush();
      await this.expireIdle();
    });
  }

  /** Batches every wallet's unpaid winnings into one payout each; returns the payouts made. */
  async flush(): Promise<PayoutRow[]> {
    // Nothing unpaid (the usual idle pass): no write transaction, so no write lock every 2 s.
    if ((await this.repo.unpaidByWallet()).length === 0) return [];
    const now = this.deps.clock.date();
    const made = await this.deps.db.transaction(async (tx) => {
      if (this.deps.fence) await this.deps.fence(tx);
      const rows: PayoutRow[] = [];
      // Read again inside the transaction: what another flush batched meanwhile is not batched twice.
      for (const { wallet, total, count } of await this.repo.unpaidByWallet(tx)) {
        const payout = await this.repo.insertPayout(tx, { wallet, amountMicro: total, spinCount: count, attempt: 1, outboxKey: `pending:${wallet}:${now.getTime()}`, status: "pending", createdAt: now });
        const key = slotKeys.payout(payout.id);
        const assigned = await this.repo.assignPayout(tx, wallet, payout.id);
        if (assigned !== count) throw new Error(`payout ${payout.id}: ${assigned} spins assigned, ${count} expected`);
        await this.deps.outbox.record(tx, { key, purpose: SLOTS_PAYOUT_PURPOSE, tx: this.paymentTx(payout), owner: { name: SLOTS_PAYOUT_OWNER, id: payout.id } });
        rows.push((await this.repo.updatePayout(tx, payout.id, { outboxKey: key }))!);
      }
      return rows;
    });
    if (made.length) {
      this.deps.outbox.kick();
      this.deps.log.info("slots payouts queued", { payouts: made.length, spins: made.reduce((n, p) => n + p.spinCount, 0) });
    }
    return made;
  }

  private paymentTx(payout: PayoutRow): OutboxInput["tx"] {
    return {
      TransactionType: "Payment",
      Destination: payout.wallet,
      Amount: vvxAmount(payout.amountMicro, this.deps.ledger.vvx),
      Memos: [{ Memo: { MemoType: hex("vvx/slots-payout"), MemoData: hex(`payout ${payout.id}: winnings of ${payout.spinCount} spin${payout.spinCount === 1 ? "" : "s"}`) } }],
    } as OutboxInput["tx"];
  }

  /** Records an outbox result on its payout, inside the settling transaction (validated: txid; failed: retried later or given up). */
  private async settle({ db, id, entry, goesAgain, after }: Settlement): Promise<void> {
    const payout = await this.repo.payout(Number(id), db);
    if (!payout || payout.status !== "pending") return;
    const now = this.deps.clock.date();
    let updated: PayoutRow | undefined;
    if (entry.status === "validated") {
      await this.repo.addPaid(db, payout.id);
      updated = await this.repo.updatePayout(db, payout.id, { status: "validated", txid: entry.hash, settledAt: now, error: null });
    } else {
      const retryAt = goesAgain ? new Date(now.getTime() + RESEND_POLICY.afterMs) : null;
      updated = await this.repo.updatePayout(db, payout.id, { status: "failed", error: entry.error ?? entry.result ?? "failed", settledAt: now, retryAt });
      this.deps.log.error("slots payout failed", { payout: payout.id, wallet: payout.wallet, attempt: payout.attempt, error: entry.error, retry: goesAgain });
    }
    if (updated) after(() => void this.publish(updated));
  }

  private async expireIdle(): Promise<void> {
    for (const s of await this.repo.expiredActive(this.deps.clock.date())) await this.slots.expire(s.id);
  }

  /** Tells the wallet's sockets (after the commit; a failed read is logged, the payout stands). */
  private async publish(payout: PayoutRow): Promise<void> {
    try {
      this.deps.hub.emit("wallet", payout.wallet, { type: "slots.payout", ...payoutView(payout, await this.repo.spinIdsOf(payout.id)) });
    } catch (err) {
      this.deps.log.error("slots payout not pushed", { payout: payout.id, error: String(err) });
    }
  }
}
