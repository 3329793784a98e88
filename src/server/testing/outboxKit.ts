import type { Client, Wallet } from "xrpl";
import { eventually, pay, submitValidated } from "./ledgerKit";
import type { TestServer } from "./testServer";

/**
 * Payments the ledger refuses, for tests of the outbox's resend: an account that wants a destination tag
 * (RequireDest) refuses a payment without one with tecDST_TAG_NEEDED, moving nothing.
 */
const REQUIRE_DEST = 1;

/** Turns the wallet's RequireDest flag on or off. */
export const requireDest = (client: Client, wallet: Wallet, on: boolean) =>
  submitValidated(client, wallet, { TransactionType: "AccountSet", ...(on ? { SetFlag: REQUIRE_DEST } : { ClearFlag: REQUIRE_DEST }) });

/** An outside wallet pays the platform `xrp` without a tag: the watcher refunds it in full (reason untagged). Returns the payment's hash. */
export async function untaggedPayment(server: TestServer, client: Client, wallet: Wallet, xrp: bigint): Promise<string> {
  const res = await pay(client, wallet, { Destination: server.ctx.ledger.platformAddress, Amount: String(xrp * 1_000_000n) });
  const hash = res.result.hash;
  await eventually(() => server.ctx.payments.incoming(hash), "the watcher to see the payment", 20_000);
  return hash;
}
