import type { IssuedCurrencyAmount } from "xrpl";
import type { PaymentRequest } from "../payments/model";
import type { PaymentWatcher } from "../payments/watcher";
import type { RequestedAmount, SignRequestCreated, SigningService } from "./service";

/** What the payer is shown and asked in Xaman for a payment request. */
export interface PaymentAsk {
  /** The sign request's kind (nft_purchase, crash_bet, slots_package ...). */
  kind: string;
  /** The feature's own id of the row the payment is for. */
  reference: string;
  instruction: string;
  expireSeconds: number;
  clientToken?: string;
}

/**
 * The one way money comes in, for every feature (NFT purchases, bets, slots packages): the feature writes
 * its row and a payment request with its own DestinationTag in one transaction (`insertPaymentRequest`);
 * this asks Xaman for exactly that payment from the request's wallet; the watcher credits the validated
 * payment once and calls the feature's handler (`payments.handle`) inside the credit's transaction. The
 * caller withdraws the request when this throws (no way to pay).
 */
export function signPayment(deps: { payments: PaymentWatcher; signing: SigningService }, request: PaymentRequest, ask: PaymentAsk): Promise<SignRequestCreated> {
  if (!request.wallet) throw new Error(`payment request ${request.id} names no wallet to sign it`);
  const { Destination, DestinationTag, Amount } = deps.payments.paymentTx(request);
  const token = Amount as IssuedCurrencyAmount;
  const amount: RequestedAmount = request.currency === "XRP" ? { drops: request.amount } : { currency: token.currency, issuer: token.issuer, micro: request.amount };
  return deps.signing.createPaymentRequest({ ...ask, wallet: request.wallet, destination: Destination, destinationTag: DestinationTag, amount });
}
