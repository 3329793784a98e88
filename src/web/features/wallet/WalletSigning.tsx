import { useEffect } from "react";
import { useSnapshot } from "valtio";
import { SigningModal } from "./SigningModal";
import { detectEnvironment, onWalletSigned, onWalletSigningEnded, startSession, walletState } from "./walletStore";

/** Mounted once in the layout: checks the session on load (inside Xaman, the xApp's account) and shows the wallet-connect QR modal. */
export function WalletSigning() {
  const { signing } = useSnapshot(walletState);
  useEffect(() => {
    void startSession();
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
