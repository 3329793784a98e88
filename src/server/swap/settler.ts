import { xrpFromDrops, type Token } from "../ledger/amounts";
import type { LedgerGateway } from "../ledger/gateway";
import type { Clock } from "../platform/clock";
import type { Logger } from "../platform/log";
import { RetryGate } from "../platform/retry";
import type { Database } from "bun:sqlite";
import type { SigningService, SignStatus } from "../signing/service";
import { readSwapTx } from "./ledgerTx";
import { OPEN_STATUSES, SETTLE_SWEEP_MS, SUBMITTED_GIVE_UP_MS } from "./model";
import type { SwapRepository, SwapRow } from "./repository";

/** The spec's texts for a swap that ends without VVX. */
export const REASONS = {
  cancelled: "Payment was cancelled",
  expired: "Payment request expired",
  interrupted: "The swap request was interrupted before it reached Xaman",
  notValidated: "The signed swap did not reach a validated ledger",
} as const;

/** Engine results that mean the transaction was never applied (nothing charged at all). */
const NOT_APPLIED = /^(tem|tef|tel|ter)/;

/** Why a swap failed on the ledger, for people. */
export function failureReason(result: string, feeDrops: bigint): string {
  const fee = `${xrpFromDrops(feeDrops)} XRP`;
  if (result === "tecPATH_PARTIAL" || result === "tecPATH_DRY") {
    return `The pool's price moved more than 5% before the swap reached the ledger, so nothing was swapped: your XRP stays in your wallet (only the network fee of ${fee} was charged).`;
  }
  return `The ledger refused the swap (${result}), so nothing was swapped: your XRP stays in your wallet (only the network fee of ${fee} was charged).`;
}

/**
 * Settles swaps: follows each open swap's sign request (Xaman) and then its transaction
 * (the ledger) until it ends, recording meta.delivered_amount. Idempotent and restart-safe:
 * every change is a conditional update, and a sweep resumes whatever is open after a restart.
 */
export class SwapSettler {
  private timer: ReturnType<typeof setInterval> | undefined;
  private sweeping = false;

  private readonly gate: RetryGate;

  constructor(
    private readonly deps: { repo: SwapRepository; signing: SigningService; ledger: Pick<LedgerGateway, "request">; vvx: Token; clock: Clock; log: Logger; sqlite?: Database },
  ) {
    this.gate = new RetryGate("swap settler", deps.log, deps.sqlite);
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), SETTLE_SWEEP_MS);
    this.timer.unref?.();
    void this.sweep();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Settles every open swap once (oldest first); errors are logged and retried on the next sweep. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      // A locked database skips the sweep (backing off) instead of blocking the server on the busy timeout.
      await this.gate.run(async () => {
        for (const row of await this.deps.repo.open(50)) {
          try {
            await this.settle(row);
          } catch (err) {
            this.deps.log.warn("swap settle failed", { swap: row.id, error: err instanceof Error ? err.message : String(err) });
          }
        }
      });
    } finally {
      this.sweeping = false;
    }
  }

  /** Moves one swap as far as Xaman and the ledger allow now; returns its current row. */
  async settle(row: SwapRow): Promise<SwapRow> {
    const { repo, signing, clock } = this.deps;
    if (!OPEN_STATUSES.includes(row.status as never)) return row;
    const now = clock.date();
    if (row.status === "creating" || !row.uuid) {
      if (row.expiresAt.getTime() < now.getTime()) await repo.transition(row.id, ["creating"], { status: "failed", reason: REASONS.interrupted, settledAt: now });
      return (await repo.byId(row.id))!;
    }
    const sign = await signing.status(row.uuid);
    if (row.status === "pending") {
      if (sign.signed && sign.txid) {
        await repo.transition(row.id, ["pending"], { status: "submitted", txid: sign.txid, signedAt: now });
      } else if (sign.cancelled || sign.expired) {
        const status = sign.cancelled ? "cancelled" : "expired";
        await repo.transition(row.id, ["pending"], { status, reason: REASONS[status], settledAt: now });
        return (await repo.byId(row.id))!;
      } else return row;
      row = (await repo.byId(row.id))!;
    }
    if (row.status === "submitted") await this.checkLedger(row, sign);
    return (await repo.byId(row.id))!;
  }

  private async checkLedger(row: SwapRow, sign: SignStatus): Promise<void> {
    const { repo, ledger, vvx, clock, log } = this.deps;
    const now = clock.date();
    const tx = await readSwapTx(ledger, vvx, row.txid!);
    if (tx.state === "missing") {
      const refused = sign.dispatchedResult && NOT_APPLIED.test(sign.dispatchedResult) && sign.dispatchedResult !== "terQUEUED";
      const waited = now.getTime() - (row.signedAt?.getTime() ?? now.getTime());
      if (refused || waited > SUBMITTED_GIVE_UP_MS) {
        const reason = refused ? `The ledger did not accept the swap (${sign.dispatchedResult}): nothing was swapped and nothing was charged.` : REASONS.notValidated;
        await repo.transition(row.id, ["submitted"], { status: "failed", result: sign.dispatchedResult ?? null, reason, settledAt: now });
      }
      return;
    }
    if (tx.state === "pending") return;
    // The txid comes from Xaman; the ledger must show this wallet's own payment to itself.
    if (tx.account !== row.wallet || tx.destination !== row.wallet) {
      log.error("swap transaction is not the wallet's self-payment", { swap: row.id, txid: row.txid });
      await repo.transition(row.id, ["submitted"], { status: "failed", result: tx.result, reason: "The signed transaction is not this swap", settledAt: now });
      return;
    }
    const common = { result: tx.result, feeDrops: tx.feeDrops, ledgerIndex: tx.ledgerIndex, settledAt: now };
    if (tx.result === "tesSUCCESS" && tx.delivered) {
      const done = await repo.transition(row.id, ["submitted"], {
        status: "completed",
        ...common,
        deliveredMicroVvx: tx.delivered.microVvx,
        deliveredVvx: tx.delivered.value,
        spentDrops: tx.spentDrops,
      });
      if (done) log.info("swap completed", { swap: row.id, spentDrops: tx.spentDrops.toString(), deliveredVvx: tx.delivered.value });
      return;
    }
    await repo.transition(row.id, ["submitted"], { status: "failed", ...common, spentDrops: 0n, reason: failureReason(tx.result, tx.feeDrops) });
  }
}
