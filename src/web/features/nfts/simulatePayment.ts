import { useState } from "react";
import useSWR from "swr";
import type { SimulatePaymentResponse } from "../../../shared/api/nfts";
import { getJson, sendJson } from "../../lib/api";
import { toast } from "../../state/toast";
import type { SigningRequest } from "../wallet/walletStore";
import { statusText, type PurchaseStatusResponse } from "./api";
import { simulatedPaymentAmount, type NftTier } from "./tiers";

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

/**
 * The test page's Simulate Payment: asks the server for the tier's payment (it reserves the NFT and
 * answers with the Xaman sign request: nothing moves until the wallet signs), opens the signing modal,
 * and follows the purchase once signed. `onOffer` runs when the payment was asked for and when the offer is ready.
 */
export function useSimulatedPayment(walletAddress: string | null, onOffer: () => void) {
  const [simulating, setSimulating] = useState<number | null>(null);
  const [signing, setSigning] = useState<SigningRequest | null>(null);
  const [phase, setPhase] = useState<SimulationPhase | null>(null);
  // After the signature: follow the purchase until its offer is ready (or it ended otherwise).
  useSWR<PurchaseStatusResponse>(phase?.kind === "paid" ? `/api/nfts/purchase-status/${encodeURIComponent(phase.requestId)}` : null, getJson, {
    refreshInterval: simulationWaiting(phase) ? 2000 : 0,
    onSuccess: (purchase) => {
      setPhase((p) => (p ? withStatus(p, purchase) : p));
      if (purchase.status === "offer_created" || purchase.status === "completed") onOffer();
    },
  });

  const simulate = async (tier: NftTier) => {
    if (!walletAddress) {
      toast({ title: "Wallet not connected", description: "Please connect your wallet first", variant: "destructive" });
      return;
    }
    setSimulating(tier.id);
    try {
      const res = await sendJson<SimulatePaymentResponse>("POST", "/api/test/simulate-payment", { walletAddress, tierId: tier.id, amount: simulatedPaymentAmount(tier.id) });
      setPhase({ kind: "signing", tierName: res.tierName, price: res.price, requestId: res.requestId });
      setSigning({ uuid: res.uuid, qrUrl: res.qrUrl, xummUrl: res.xummUrl, purpose: "payment", title: `Simulate Payment: ${res.price} for ${res.tierName}` });
      onOffer();
    } catch (err) {
      toast({ title: "Simulation failed", description: statusText(err), variant: "destructive" });
    } finally {
      setSimulating(null);
    }
  };

  const notPaid = (reason: string) =>
    setPhase((p) => (p?.kind === "signing" ? { kind: "not-paid", tierName: p.tierName, price: p.price, reason: reason.endsWith(".") ? reason : `${reason}.` } : p));
  return {
    simulating,
    signing,
    phase,
    simulate,
    signed: (txid: string | null) => setPhase((p) => (p?.kind === "signing" ? { ...p, kind: "paid", txid, status: "pending", paymentTxHash: null } : p)),
    notPaid,
    /** The modal closed: signed already, or nothing was paid. */
    closed: () => {
      setSigning(null);
      notPaid("You closed the request before signing it.");
    },
  };
}
