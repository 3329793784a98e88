import type { AccountInfoRequest, AccountLinesRequest } from "xrpl";
import { microFromValue, sameCurrency, type Token } from "../ledger/amounts";
import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";

/** A wallet's XRP and VVX trust line as of the latest validated ledger. */
export interface AccountFacts {
  funded: boolean;
  drops: bigint;
  ownerCount: number;
  line: { balance: string; limit: string; microBalance: bigint; microLimit: bigint } | null;
}

/** Reads `address`'s balance, owner count and VVX trust line (validated ledger; an unfunded account has none). */
export async function accountFacts(ledger: Pick<LedgerGateway, "request">, vvx: Token, address: string): Promise<AccountFacts> {
  let info;
  try {
    info = await ledger.request({ command: "account_info", account: address, ledger_index: "validated" } as AccountInfoRequest);
  } catch (err) {
    if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") return { funded: false, drops: 0n, ownerCount: 0, line: null };
    throw err;
  }
  const lines = await ledger.request({ command: "account_lines", account: address, peer: vvx.issuer, ledger_index: "validated" } as AccountLinesRequest);
  const line = lines.result.lines.find((l) => sameCurrency(l.currency, vvx.currency) && l.account === vvx.issuer);
  return {
    funded: true,
    drops: BigInt(info.result.account_data.Balance),
    ownerCount: info.result.account_data.OwnerCount,
    line: line ? { balance: line.balance, limit: line.limit, microBalance: microFromValue(line.balance).micro, microLimit: microFromValue(line.limit).micro } : null,
  };
}

/** XRP the wallet can send: balance minus its reserves (base + one increment per owned object) and one fee. */
export function spendableDrops(facts: AccountFacts, fees: { reserveBaseDrops: bigint; reserveIncDrops: bigint; feeDrops: bigint }): bigint {
  const free = facts.drops - fees.reserveBaseDrops - BigInt(facts.ownerCount) * fees.reserveIncDrops - fees.feeDrops;
  return free > 0n ? free : 0n;
}
