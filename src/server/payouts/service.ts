import { unscaleDecimal } from "../ledger/amounts";
import { attemptOfKey } from "../ledger/resend";
import type { Outbox } from "../ledger/outbox";
import type { Clock } from "../platform/clock";
import type { Db } from "../platform/db";
import { ConflictError, ValidationError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { PayoutRepository, type GivenUpRow, type PayoutActionRow } from "./repository";

/** Actions shown with the list (the audit record keeps them all). */
const SHOWN_ACTIONS = 50;
const MAX_NOTE = 500;

export interface PayoutDeps {
  db: Db;
  outbox: Pick<Outbox, "retryGivenUp">;
  clock: Clock;
  log: Logger;
}

/** Amount of a Payment as text: XRP from drops, a token's value as the ledger writes it. */
function amountOf(tx: Record<string, unknown>): { amount: string; currency: string } {
  const a = tx.Amount;
  if (typeof a === "string" && /^\d+$/.test(a)) return { amount: unscaleDecimal(BigInt(a), 6), currency: "XRP" };
  if (a && typeof a === "object" && "value" in a && "currency" in a) return { amount: String(a.value), currency: String(a.currency) };
  return { amount: "", currency: String(tx.TransactionType ?? "") };
}

function payoutView(row: GivenUpRow) {
  const tx = JSON.parse(row.txJson) as Record<string, unknown>;
  return {
    key: row.key,
    purpose: row.purpose,
    destination: typeof tx.Destination === "string" ? tx.Destination : null,
    ...amountOf(tx),
    reason: row.result ?? row.error ?? "failed",
    attempts: attemptOfKey(row.key).attempt,
    failedAt: row.updatedAt.toISOString(),
  };
}

export function actionView(row: PayoutActionRow) {
  return { id: row.id, key: row.outboxKey, action: row.action as "retried" | "settled", admin: row.admin, note: row.note, nextKey: row.nextKey, at: row.createdAt.toISOString() };
}

function note(text: string | undefined, required: boolean): string | null {
  const trimmed = text?.trim() ?? "";
  if (required && !trimmed) throw new ValidationError("note", "Field 'note' is required: say how it was settled (paid by hand with its txid, not owed ...)");
  if (trimmed.length > MAX_NOTE) throw new ValidationError("note", `Field 'note' must be at most ${MAX_NOTE} characters`);
  return trimmed || null;
}

/**
 * Payments the outbox gave up on after their last resend (ledger/resend.ts): listed for admins with why
 * they failed, sent again under their next key, or marked settled (paid another way, or not owed). Every
 * action is an audit record (who, when, why) written in the same transaction as what it did.
 */
export class FailedPayouts {
  readonly repo: PayoutRepository;

  constructor(private readonly deps: PayoutDeps) {
    this.repo = new PayoutRepository(deps.db);
  }

  async list() {
    const [payouts, actions] = await Promise.all([this.repo.givenUp(), this.repo.actions(SHOWN_ACTIONS)]);
    return { payouts: payouts.map(payoutView), actions: actions.map(actionView) };
  }

  /** Sends the payment again under its next key (its payer's record follows); 409 when it is not waiting. */
  async retry(key: string, admin: string, text?: string): Promise<PayoutActionRow> {
    const why = note(text, false);
    let action: PayoutActionRow | undefined;
    await this.deps.outbox.retryGivenUp(key, async (tx, nextKey) => {
      action = await this.repo.insertAction(tx, { outboxKey: key, action: "retried", admin, note: why, nextKey, createdAt: this.deps.clock.date() });
    });
    this.deps.log.warn("failed payment sent again by an admin", { key, next: action!.nextKey, admin });
    return action!;
  }

  /** Records that the payment was settled another way; it leaves the list (nothing is sent). 409 when it is not waiting. */
  async settle(key: string, admin: string, text: string): Promise<PayoutActionRow> {
    const why = note(text, true);
    const action = await this.deps.db.transaction(async (tx) => {
      if (!(await this.repo.waiting(tx, key))) throw new ConflictError("PAYOUT_NOT_GIVEN_UP", `${key} is not a payment waiting for an admin (it was sent, sent again, or settled already)`);
      return this.repo.insertAction(tx, { outboxKey: key, action: "settled", admin, note: why, nextKey: null, createdAt: this.deps.clock.date() });
    });
    this.deps.log.warn("failed payment marked settled by an admin", { key, admin, note: why });
    return action;
  }
}
