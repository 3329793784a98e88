import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useSnapshot } from "valtio";
import { Dialog } from "../../components/Dialog";
import { NftLabel } from "../../components/TokenId";
import { formatVvx } from "../../lib/format";
import { toast } from "../../state/toast";
import { connectWallet, isMobile, walletState } from "../wallet/walletStore";
import { openWalletApp } from "./api";
import { launchConfetti } from "./confetti";
import { useChannel } from "../../lib/useChannel";
import { PurchaseFlow, stepTitle, type PurchaseState, type PurchaseTiming } from "./purchaseFlow";
import { QrRequest } from "./QrRequest";
import { priceVvx } from "./tiers";

export interface PurchaseDialogProps {
  open: boolean;
  tierId: number;
  tierName: string;
  /** The tier's price without the " VVX" suffix ("500,000"). */
  price: string;
  walletAddress: string | null;
  onClose: () => void;
  /** Called once when a purchase completes (the marketplace refreshes supply). */
  onComplete?: () => void;
  /** Reports the current step (the tier card shows 'Processing...' while a purchase runs). */
  onStepChange?: (step: string) => void;
  timing?: Partial<PurchaseTiming>;
}

/** The purchase dialog of one tier: pay VVX, accept the NFT offer, done. */
export function PurchaseDialog({ open, tierId, tierName, price, walletAddress, onClose, onComplete, onStepChange, timing }: PurchaseDialogProps) {
  const { flow, state, scan, finish, signing } = usePurchaseDialog({ open, tierId, tierName, price, walletAddress, onClose, onComplete, onStepChange, timing });
  const { step } = state;
  // Closing by Escape or the backdrop would abandon a payment in progress: only the buttons close then.
  const dismissable = !signing && (step === "initiate" || step === "complete");
  const amount = formatVvx(priceVvx(price));

  return (
    <Dialog open={open} onClose={finish} title={stepTitle(step, tierName)} dismissable={dismissable} labelledBy="purchase-title">
      <div className="purchase" data-testid="purchase-dialog" data-step={step}>
        <StepList step={step} />
        {state.error ? (
          <FailedStep error={state.error} onRetry={() => flow.reset()} onCancel={finish} />
        ) : step === "initiate" ? (
          <InitiateStep state={state} flow={flow} tierName={tierName} amount={amount} walletAddress={walletAddress} onCancel={finish} />
        ) : step === "vvx_payment" ? (
          <PaymentStep state={state} scan={scan} tierName={tierName} amount={amount} onCancel={finish} />
        ) : step === "nft_offer" ? (
          <OfferStep state={state} flow={flow} scan={scan} tierName={tierName} onCancel={finish} />
        ) : (
          <CompleteStep state={state} tierName={tierName} onDone={finish} />
        )}
      </div>
    </Dialog>
  );
}

/** The dialog's flow and the wiring around it: push channel, wallet, auto-close, completion callback. */
function usePurchaseDialog({ open, tierId, tierName, price, walletAddress, onClose, onComplete, onStepChange, timing }: PurchaseDialogProps) {
  const handlers = useRef({ onClose, onComplete });
  handlers.current = { onClose, onComplete };
  const completedNotified = useRef(false);
  const finishRef = useRef<() => void>(() => {});
  const [flow] = useState(
    () =>
      new PurchaseFlow(
        { tierId, tierName, price, walletAddress },
        {
          timing,
          isMobile,
          openWalletApp,
          celebrate: (ms) => launchConfetti(ms),
          onAutoClose: () => finishRef.current(),
        },
      ),
  );
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState);
  // Each step arrives by push on the wallet's private channel; the spec's polls run only while it is down.
  const { connected } = useChannel("wallet", open ? walletAddress : null, (message) => flow.onPush(message));
  useEffect(() => flow.setPush(connected), [flow, connected]);
  const { signing, environment } = useSnapshot(walletState);
  const scan = (environment?.isMobile ?? isMobile()) ? "Open Xaman" : "Scan with Xaman";

  // Cancel, Done, Escape and the auto-close all end here: reset to initiate and close (stable, so the dialog keeps focus).
  const finish = useCallback(() => {
    const completed = flow.getState().step === "complete";
    flow.reset();
    if (completed && !completedNotified.current) {
      completedNotified.current = true;
      handlers.current.onComplete?.();
    }
    handlers.current.onClose();
  }, [flow]);
  finishRef.current = finish;

  useEffect(() => flow.setWallet(walletAddress), [flow, walletAddress]);
  useEffect(() => () => flow.dispose(), [flow]);
  useEffect(() => {
    if (open) completedNotified.current = false;
  }, [open]);
  useEffect(() => onStepChange?.(state.step), [state.step, onStepChange]);
  return { flow, state, scan, finish, signing };
}

interface StepProps {
  state: PurchaseState;
  tierName: string;
}

/** The three steps as a progress list. */
function StepList({ step }: { step: PurchaseState["step"] }) {
  return (
    <ol className="purchase-steps" aria-label="Purchase progress">
      {(["Pay VVX", "Accept NFT offer", "Done"] as const).map((label, i) => {
        const index = ["vvx_payment", "nft_offer", "complete"].indexOf(step);
        const cls = i < index || step === "complete" ? "done" : i === index ? "current" : "";
        return (
          <li key={label} className={cls} aria-current={i === index ? "step" : undefined}>
            <span className="purchase-step-dot" aria-hidden="true">
              {i < index || step === "complete" ? "✓" : i + 1}
            </span>
            {label}
          </li>
        );
      })}
    </ol>
  );
}

function FailedStep({ error, onRetry, onCancel }: { error: string; onRetry: () => void; onCancel: () => void }) {
  return (
    <div className="stack">
      <p className="alert alert-error" role="alert">
        {error}
      </p>
      <div className="purchase-actions">
        <button className="btn btn-primary" onClick={onRetry}>
          Try Again
        </button>
        <button className="btn btn-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function InitiateStep({ state, flow, tierName, amount, walletAddress, onCancel }: StepProps & { flow: PurchaseFlow; amount: string; walletAddress: string | null; onCancel: () => void }) {
  return (
    <div className="stack">
      <dl className="purchase-summary">
        <div>
          <dt>NFT</dt>
          <dd>{tierName}</dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd>{amount}</dd>
        </div>
      </dl>
      <p className="muted small">
        You pay {amount} from your wallet by scanning a QR code with Xaman. The platform then mints your NFT on the XRP Ledger and sends you an offer
        for it, which you accept in Xaman.
      </p>
      {!walletAddress && (
        <div className="alert alert-warning" role="alert">
          <p>You need to connect your XRPL wallet before purchasing an NFT.</p>
          <button
            className="btn btn-primary"
            onClick={() => {
              toast({ title: "Wallet Required", description: "Connect your Xaman wallet to continue with the purchase.", variant: "info" });
              void connectWallet();
            }}
          >
            Connect Wallet
          </button>
        </div>
      )}
      <div className="purchase-actions">
        <button className="btn btn-primary" disabled={!walletAddress || state.busy} aria-busy={state.busy} onClick={() => void flow.start()}>
          {state.busy && <span className="spinner" aria-hidden="true" />}
          Start Purchase
        </button>
        <button className="btn btn-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function PaymentStep({ state, scan, tierName, amount, onCancel }: StepProps & { scan: string; amount: string; onCancel: () => void }) {
  const { payment } = state;
  return (
    <div className="stack purchase-center">
      <p>
        {scan} to pay <strong>{amount}</strong> for your {tierName} NFT.
      </p>
      <QrRequest qrUrl={payment?.qrUrl ?? null} xummUrl={payment?.xummUrl ?? null} uuid={payment?.uuid ?? null} alt="QR code of the VVX payment request" testId="payment-qr" />
      <div className="purchase-status" role="status" aria-live="polite" data-testid="payment-status" data-status={state.paymentStatus ?? undefined}>
        <span className="spinner" aria-hidden="true" />
        <span>{state.paymentStatus === "detected" ? "Payment detected" : state.statusText ?? "Waiting for payment"}</span>
      </div>
      <p className="muted small">
        {state.paymentStatus === "detected"
          ? "Your payment is confirmed. Preparing your NFT offer usually takes 5-15 seconds."
          : "Payment verification usually takes 3-10 seconds after you sign. The QR code expires in 5 minutes."}
      </p>
      <div className="purchase-actions">
        <button className="btn btn-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function OfferStep({ state, flow, scan, tierName, onCancel }: StepProps & { flow: PurchaseFlow; scan: string; onCancel: () => void }) {
  const { offer } = state;
  return (
    <div className="stack purchase-center">
      <p>
        Payment received. Your <NftLabel tierName={tierName} tokenId={offer?.tokenId} /> is offered to your wallet for 0 VVX. {scan} and accept it.
      </p>
      {offer?.qrUrl || offer?.xummUrl ? (
        <QrRequest qrUrl={offer.qrUrl} xummUrl={offer.xummUrl} uuid={offer.uuid} alt="QR code of the NFT offer acceptance" testId="offer-qr" />
      ) : (
        <div className="purchase-status" role="status" aria-live="polite">
          <span className="spinner" aria-hidden="true" />
          <span>Preparing your NFT offer</span>
        </div>
      )}
      <p className="muted small" data-testid="offer-hint">
        {state.statusText ??
          (offer?.qrUrl || offer?.xummUrl
            ? "Accepting costs only the network fee. This dialog moves on by itself once the ledger confirms your acceptance."
            : "Preparing the offer usually takes 5-15 seconds.")}
      </p>
      <div className="purchase-actions">
        <button className="btn btn-primary" onClick={() => void flow.verify()} disabled={state.verifying} aria-busy={state.verifying}>
          {state.verifying && <span className="spinner" aria-hidden="true" />}
          I've Accepted the NFT Offer - Verify
        </button>
        <button className="btn btn-outline" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function CompleteStep({ state, tierName, onDone }: StepProps & { onDone: () => void }) {
  const { offer } = state;
  return (
    <div className="stack purchase-center">
      <svg className="purchase-done" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true">
        <circle cx="24" cy="24" r="22" fill="none" stroke="currentColor" strokeWidth="3" />
        <path d="M14 24.5l7 7 13-14" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <p>
        Your <NftLabel tierName={tierName} tokenId={offer?.tokenId} /> is in your wallet. Rewards start accruing today.
      </p>
      <div className="purchase-actions">
        <button className="btn btn-primary" onClick={onDone} autoFocus>
          Done
        </button>
      </div>
    </div>
  );
}
