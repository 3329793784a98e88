import { useCallback, useState, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import { connectWallet, walletState } from "../wallet/walletStore";
import { PurchaseDialog } from "./PurchaseDialog";
import { TierCard } from "./TierCard";
import { priceWithoutSuffix, type NftTier } from "./tiers";

/** Shown while no wallet is connected. */
export function ConnectBanner({ text }: { text: string }) {
  const { connecting } = useSnapshot(walletState);
  return (
    <div className="alert alert-warning banner" role="status" data-testid="no-wallet-banner">
      <p>{text}</p>
      <button className="btn btn-primary" onClick={() => void connectWallet()} disabled={connecting}>
        {connecting ? "Connecting..." : "Connect Wallet"}
      </button>
    </div>
  );
}

/** Tier cards with one purchase dialog at a time; used by the marketplace and the sandbox test page. */
export function TierGrid({
  tiers,
  onPurchased,
  onDialogChange,
  extraActions,
}: {
  tiers: NftTier[];
  onPurchased: () => void;
  onDialogChange?: (open: boolean) => void;
  extraActions?: (tier: NftTier) => ReactNode;
}) {
  const { walletAddress } = useSnapshot(walletState);
  const [selected, setSelected] = useState<NftTier | null>(null);
  const [step, setStep] = useState("initiate");
  const open = (tier: NftTier) => {
    setSelected(tier);
    onDialogChange?.(true);
  };
  const close = useCallback(() => {
    setSelected(null);
    setStep("initiate");
    onDialogChange?.(false);
  }, [onDialogChange]);
  return (
    <>
      <div className="grid grid-2 tier-grid">
        {tiers.map((t) => (
          <TierCard
            key={t.id}
            tier={t}
            processing={selected?.id === t.id && step !== "initiate" && step !== "complete"}
            onPurchase={open}
            extraActions={extraActions?.(t)}
          />
        ))}
      </div>
      {selected && (
        <PurchaseDialog
          key={selected.id}
          open
          tierId={selected.id}
          tierName={selected.name}
          price={priceWithoutSuffix(selected.price)}
          walletAddress={walletAddress}
          onClose={close}
          onComplete={onPurchased}
          onStepChange={setStep}
        />
      )}
    </>
  );
}
