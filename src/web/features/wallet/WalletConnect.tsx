import { useCallback, useRef, useState } from "react";
import { useDismiss } from "../../lib/useDismiss";
import { useSnapshot } from "valtio";
import { shortAddress } from "../../lib/format";
import { explorerAccountLink, useSiteConfig } from "../../state/site";
import { copyWithToast } from "../../lib/clipboard";
import { PushToSignSettings } from "./PushToSignSettings";
import { connectWallet, disconnectWallet, walletState } from "./walletStore";

export type WalletConnectStyle = "default" | "landing-page" | "connect-xumm";

/** The wallet connect widget: a connect button, or the shortened address with an 'Active' badge and a menu. */
export function WalletConnect({ variant = "default" }: { variant?: WalletConnectStyle }) {
  const { isConnected, walletAddress, connecting, checking } = useSnapshot(walletState);
  const { data: site } = useSiteConfig();
  const [open, setOpen] = useState(false);
  const [settings, setSettings] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);

  if (!isConnected || !walletAddress) return <ConnectButton variant={variant} connecting={connecting} disabled={connecting || checking} />;

  const explorer = explorerAccountLink(site, walletAddress);
  const copy = () => {
    setOpen(false);
    void copyWithToast(walletAddress, "Address Copied");
  };
  return (
    <div className={`dropdown wallet-menu wallet-${variant}`} ref={root}>
      <button className="btn btn-outline wallet-button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="wallet-button">
        <span className="wallet-address">{shortAddress(walletAddress)}</span>
        <span className="badge badge-active">Active</span>
      </button>
      {open && (
        <div className="dropdown-menu dropdown-right" role="menu">
          <div className="dropdown-label mono small" title={walletAddress}>
            {walletAddress}
          </div>
          <button role="menuitem" className="dropdown-item" onClick={copy}>
            Copy Address
          </button>
          {explorer && (
            <a role="menuitem" className="dropdown-item" href={explorer} target="_blank" rel="noopener noreferrer" onClick={() => setOpen(false)}>
              View on XRPL Explorer
            </a>
          )}
          <button
            role="menuitem"
            className="dropdown-item"
            onClick={() => {
              setOpen(false);
              setSettings(true);
            }}
          >
            Settings
          </button>
          <button
            role="menuitem"
            className="dropdown-item danger"
            onClick={() => {
              setOpen(false);
              void disconnectWallet();
            }}
          >
            Disconnect
          </button>
        </div>
      )}
      {settings && <PushToSignSettings walletAddress={walletAddress} onClose={() => setSettings(false)} />}
    </div>
  );
}

/** Shown while no wallet is connected. */
function ConnectButton({ variant, connecting, disabled }: { variant: WalletConnectStyle; connecting: boolean; disabled: boolean }) {
  const label = connecting ? "Connecting..." : variant === "connect-xumm" ? "Connect XUMM" : "Connect Wallet";
  return (
    <button
      className={`btn ${variant === "landing-page" ? "btn-primary btn-lg" : "btn-primary"} wallet-connect wallet-${variant}`}
      onClick={() => void connectWallet()}
      disabled={disabled}
      aria-busy={connecting}
      data-testid="wallet-connect"
    >
      {connecting && <span className="spinner" aria-hidden="true" />}
      {label}
    </button>
  );
}
