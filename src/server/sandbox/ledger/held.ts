/** Future-sequence transactions kept per account, so a client cannot fill memory with gaps. */
const MAX_HELD_PER_ACCOUNT = 32;

/** A transaction with a future sequence, kept until the gap is filled or its LastLedgerSequence passes (rippled's held transactions). */
export interface HeldTx {
  tx_blob: string;
  tx: Record<string, any>;
  hash: string;
}

/** rippled's held transactions, per account. */
export class HeldTransactions {
  private readonly byAccount = new Map<string, HeldTx[]>();

  /** "kept" (newly or already), or "full" when the account has as many held as allowed. */
  hold(held: HeldTx): "new" | "already" | "full" {
    const queue = this.byAccount.get(held.tx.Account) ?? [];
    if (queue.some((h) => h.hash === held.hash)) return "already";
    if (queue.length >= MAX_HELD_PER_ACCOUNT) return "full";
    queue.push(held);
    this.byAccount.set(held.tx.Account, queue);
    return "new";
  }

  /** Removes and returns the account's held transaction with this sequence, if any. */
  take(account: string, sequence: number | undefined): HeldTx | undefined {
    const queue = this.byAccount.get(account);
    const i = queue?.findIndex((h) => h.tx.Sequence === sequence) ?? -1;
    if (i < 0) return undefined;
    const [held] = queue!.splice(i, 1);
    if (!queue!.length) this.byAccount.delete(account);
    return held;
  }

  /** Drops those whose LastLedgerSequence is before the open ledger. */
  expire(openIndex: number): void {
    for (const [account, queue] of this.byAccount) {
      const alive = queue.filter((h) => h.tx.LastLedgerSequence === undefined || h.tx.LastLedgerSequence >= openIndex);
      if (alive.length) this.byAccount.set(account, alive);
      else this.byAccount.delete(account);
    }
  }

  all(): HeldTx[] {
    return [...this.byAccount.values()].flat();
  }
}
