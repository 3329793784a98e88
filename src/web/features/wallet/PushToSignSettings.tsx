import { useState } from "react";
import { createPortal } from "react-dom";
import useSWR from "swr";
import { Dialog } from "../../components/Dialog";
import { errorMessage, getJson, sendJson } from "../../lib/api";
import { toast } from "../../state/toast";
import type { PushStatus } from "./api";

export const pushStatusKey = (wallet: string) => `/api/auth/push-to-sign/status?walletAddress=${encodeURIComponent(wallet)}`;

/** The profile settings panel (from the connected-wallet menu): push-to-sign on or off. */
export function PushToSignSettings({ walletAddress, onClose }: { walletAddress: string; onClose: () => void }) {
  const { data, error, mutate, isLoading } = useSWR<PushStatus>(pushStatusKey(walletAddress), getJson);
  // The switch shows the chosen state at once; the server's answer confirms (or reverts) it.
  const [desired, setDesired] = useState<boolean | null>(null);
  const saving = desired !== null;

  const toggle = async (enabled: boolean) => {
    setDesired(enabled);
    try {
      await sendJson("POST", "/api/auth/push-to-sign", { enabled, walletAddress });
      await mutate();
      toast({ title: enabled ? "Push-to-sign on" : "Push-to-sign off", description: enabled ? "Sign requests also go to your Xaman app." : "Sign requests are shown as QR codes only.", variant: "success" });
    } catch (err) {
      toast({ title: "Could not save the setting", description: errorMessage(err), variant: "destructive" });
    } finally {
      setDesired(null);
    }
  };

  // Opened from the header, whose backdrop filter would confine a fixed dialog: render it at the body.
  return createPortal(
    <Dialog open onClose={onClose} title="Wallet settings" labelledBy="wallet-settings-title">
      <div className="stack" data-testid="wallet-settings">
        <p className="muted small mono" title={walletAddress}>
          {walletAddress}
        </p>
        {error ? (
          <p className="error-text" role="alert">
            Could not load your settings: {errorMessage(error)}{" "}
            <button className="btn btn-outline" onClick={() => void mutate()}>
              Try Again
            </button>
          </p>
        ) : isLoading || !data ? (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Loading…
          </p>
        ) : (
          <>
            <label className="switch-row">
              <input
                type="checkbox"
                role="switch"
                checked={desired ?? data.pushToSignEnabled}
                disabled={saving}
                aria-describedby="push-help"
                onChange={(e) => void toggle(e.target.checked)}
                data-testid="push-to-sign-toggle"
              />
              <span>
                <strong>Push-to-sign</strong>
                <span className="badge" data-testid="push-to-sign-state">
                  {saving ? "Saving…" : data.pushToSignEnabled ? "On" : "Off"}
                </span>
              </span>
            </label>
            <p id="push-help" className="muted small">
              When on, every sign request for this wallet (swaps, purchases, bets) is also sent to your Xaman app as a notification. The QR code is still shown.
            </p>
            {data.pushToSignEnabled && !data.pushReady && (
              <p className="alert alert-warning small" role="status">
                Xaman has not linked this site to your app yet: connect once by scanning the QR code with Xaman, then requests are pushed.
              </p>
            )}
          </>
        )}
        <button className="btn btn-outline" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>,
    document.body,
  );
}
