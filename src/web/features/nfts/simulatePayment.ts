import type { PurchaseStatusResponse } from "./api";

/** Where a simulated payment stands on the test page, from the click to the NFT offer. */
export type SimulationPhase =
  | { kind: "signing"; tierName: string; price: string; requestId: string }
  | { kind: "paid"; tierName: string; price: string; requestId: string; txid: string | null; status: string; paymentTxHash: string | null }
  | { kind: "not-paid"; tierName: string; price: string; reason: string };

/** The statuses after which the purchase needs nothing more from this page. */
const SETTLED = new Set(["offer_created", "completed", "refunded", "failed", "expired"]);

/** Whether the page should keep asking for the purchase's status. */
export function simulationWaiting(phase: SimulationPhase | null): boolean {
  return phase?.kind === "paid" && !SETTLED.has(phase.status);
}

/** The phase once the purchase's status is known. */
export function withStatus(phase: SimulationPhase, purchase: Pick<PurchaseStatusResponse, "status" | "paymentTxHash">): SimulationPhase {
  return phase.kind === "paid" ? { ...phase, status: purchase.status, paymentTxHash: purchase.paymentTxHash ?? phase.paymentTxHash } : phase;
}

/** What happened, in words: the page's result panel. */
export function simulationText(phase: SimulationPhase): { title: string; text: string } {
  switch (phase.kind) {
    case "signing":
      return { title: `Sign the payment of ${phase.price}`, text: `Approve it in Xaman (the sandbox wallet). Nothing leaves your wallet until you sign.` };
    case "not-paid":
      return { title: "Payment not made", text: `${phase.reason} Nothing was taken from your wallet.` };
    case "paid":
      switch (phase.status) {
        case "offer_created":
        case "completed":
          return { title: `Paid ${phase.price}: your ${phase.tierName} NFT offer is ready`, text: "Accept it in Xaman from Pending NFT offers below; the NFT is yours once you do." };
        case "refunded":
          return { title: `Paid ${phase.price}, then refunded`, text: "The NFT could not be given (sold out or the request had closed), so the payment came back to your wallet." };
        case "failed":
        case "expired":
          return { title: "The purchase did not go through", text: `Its status is ${phase.status}. Check your wallet's history; a payment that arrived is refunded.` };
        default:
          return { title: `Paid ${phase.price} for a ${phase.tierName} NFT`, text: "The payment is on the ledger; the NFT offer is being prepared (usually 5-15 seconds)." };
      }
  }
}
