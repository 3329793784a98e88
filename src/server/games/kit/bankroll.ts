import type { AccountInfoRequest, ServerStateRequest } from "xrpl";
import type { LedgerGateway } from "../../ledger/gateway";
import type { Outbox } from "../../ledger/outbox";

/** The treasury's XRP as the games see it, in drops. */
export interface BankrollFacts {
  /** The platform account's XRP balance in the latest validated ledger. */
  balanceDrops: bigint;
  /** Base reserve plus one owner reserve per object the account owns. */
  reserveDrops: bigint;
  /** XRP the outbox still has to send (queued or pending: payouts, refunds, burns' SendMax). */
  inFlightDrops: bigint;
  /** balance - reserves - in flight (never below 0): what the games may promise. */
  spendableDrops: bigint;
  ledgerIndex: number;
}

/** XRP a queued or pending outbox transaction may take from the treasury: an XRP Amount, else an XRP SendMax. */
export function xrpOutOf(tx: Record<string, unknown>): bigint {
  if (tx.TransactionType !== "Payment") return 0n;
  if (typeof tx.SendMax === "string") return BigInt(tx.SendMax);
  if (typeof tx.Amount === "string") return BigInt(tx.Amount);
  return 0n;
}

/**
 * The bankroll every XRP game caps its promises with (DESIGN.md: spendable treasury balance minus
 * outbox payments in flight). Reads the validated ledger (account_info, server_state) each time it is
 * asked; games ask once per round.
 */
export class Bankroll {
  constructor(
    private readonly ledger: LedgerGateway,
    private readonly outbox: Outbox,
  ) {}

  /** XRP of the outbox's open entries (queued or pending), in drops. */
  async inFlightDrops(): Promise<bigint> {
    let total = 0n;
    for (const entry of await this.outbox.open()) total += xrpOutOf(entry.tx);
    return total;
  }

  async facts(): Promise<BankrollFacts> {
    const [info, state] = await Promise.all([
      this.ledger.request({ command: "account_info", account: this.ledger.platformAddress, ledger_index: "validated" } as AccountInfoRequest),
      this.ledger.request({ command: "server_state" } as ServerStateRequest),
    ]);
    const v = state.result.state.validated_ledger;
    if (!v) throw new Error("the ledger has no validated ledger yet");
    const balanceDrops = BigInt(info.result.account_data.Balance);
    const reserveDrops = BigInt(v.reserve_base) + BigInt(info.result.account_data.OwnerCount) * BigInt(v.reserve_inc);
    const inFlightDrops = await this.inFlightDrops();
    const free = balanceDrops - reserveDrops - inFlightDrops;
    return { balanceDrops, reserveDrops, inFlightDrops, spendableDrops: free > 0n ? free : 0n, ledgerIndex: info.result.ledger_index ?? 0 };
  }

  /** Just the spendable drops. */
  async spendableDrops(): Promise<bigint> {
    return (await this.facts()).spendableDrops;
  }
}
