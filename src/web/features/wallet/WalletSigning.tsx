import { useEffect } from "react";
import { useSnapshot } from "valtio";
import { SigningModal } from "./SigningModal";
import { detectEnvironment, onWalletSigned, onWalletSigningEnded, refreshAuthStatus, walletState } from "./walletStore";

/** Mounted once in the layout: checks the session on load and shows the wallet-connect QR modal. */
export function WalletSigning() {
  const { signing } = useSnapshot(walletState);
  useEffect(() => {
    void refreshAuthStatus();
    void detectEnvironment();
  }, []);
  return (
    <SigningModal
      request={signing ? { ...signing } : null}
      onSuccess={(r) => r.account && onWalletSigned(r.account)}
      onError={(m) => console.warn("wallet connection ended:", m)}
      onClose={onWalletSigningEnded}
    />
  );
}
