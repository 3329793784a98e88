import type { AccountInfoRequest, AccountLinesRequest } from "xrpl";
import { microFromValue } from "../ledger/amounts";
import type { LedgerGateway } from "../ledger/gateway";
import { LedgerRequestError } from "../ledger/errors";

/** What the balance read needs from the ledger gateway. */
export type LedgerReader = Pick<LedgerGateway, "request" | "vvx">;

/** A wallet's balances: XRP in drops and VVX in micro-units, both as exact integer strings. */
export interface WalletBalance {
  address: string;
  /** Whether the account exists on the ledger (an unfunded address has no balances). */
  funded: boolean;
  drops: bigint;
  hasVvxTrustline: boolean;
  microVvx: bigint;
  vvxValue: string;
}

/** Reads the validated XRP balance and VVX trust line of `address`. */
export async function walletBalance(ledger: LedgerReader, address: string): Promise<WalletBalance> {
  let drops = 0n;
  let funded = true;
  try {
    const info = await ledger.request({ command: "account_info", account: address, ledger_index: "validated" } as AccountInfoRequest);
    drops = BigInt(info.result.account_data.Balance);
  } catch (err) {
    if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") funded = false;
    else throw err;
  }
  let hasVvxTrustline = false;
  let vvxValue = "0";
  if (funded) {
    const lines = await ledger.request({ command: "account_lines", account: address, peer: ledger.vvx.issuer, ledger_index: "validated" } as AccountLinesRequest);
    const line = lines.result.lines.find((l) => l.currency === ledger.vvx.currency && l.account === ledger.vvx.issuer);
    if (line) {
      hasVvxTrustline = true;
      vvxValue = line.balance;
    }
  }
  return { address, funded, drops, hasVvxTrustline, microVvx: microFromValue(vvxValue).micro, vvxValue };
}
