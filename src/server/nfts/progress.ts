import type { AcceptIssue, PurchaseUpdatedMessage } from "../../shared/channels";
import type { Clock } from "../platform/clock";
import { TypedEmitter } from "../platform/emitter";
import type { Logger } from "../platform/log";
import type { Hub } from "../platform/ws/hub";
import type { PurchaseRow } from "./repository";

/** What the purchase flow reports as it moves (tests and the benchmark listen). */
export interface NftEvents {
  "purchase.updated": { purchase: PurchaseRow; at: number; message: PurchaseUpdatedMessage };
}

/** What a step adds to the stored row: the buyer signed the payment, or the accept request ended without the NFT. */
export interface ProgressNote {
  signed?: boolean;
  acceptIssue?: AcceptIssue;
}

/** The status the client shows: a pending purchase whose payment is signed is "payment_detected". */
export function shownStatus(purchase: PurchaseRow, signed: boolean): string {
  return purchase.status === "pending" && signed ? "payment_detected" : purchase.status;
}

/**
 * Every state change of a purchase, told twice: to in-process listeners, and pushed to the buyer's
 * private `wallet:<address>` channel so the open dialog follows it without polling.
 */
export class PurchaseProgress {
  private readonly events: TypedEmitter<NftEvents>;

  constructor(
    private readonly hub: Pick<Hub, "emit">,
    private readonly clock: Clock,
    log: Logger,
  ) {
    this.events = new TypedEmitter((event, err) => log.error("nft listener failed", { event, error: String(err) }));
  }

  on<K extends keyof NftEvents & string>(event: K, listener: (payload: NftEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  emit(purchase: PurchaseRow, note: ProgressNote = {}): void {
    const message: PurchaseUpdatedMessage = {
      type: "purchase",
      requestId: purchase.requestId,
      status: shownStatus(purchase, note.signed ?? false),
      offerId: purchase.offerId,
      tokenId: purchase.tokenId,
      tierId: purchase.tierId,
      reason: purchase.reason,
      acceptIssue: note.acceptIssue ?? null,
    };
    this.hub.emit("wallet", purchase.wallet, message);
    this.events.emit("purchase.updated", { purchase, at: this.clock.now(), message });
  }
}
