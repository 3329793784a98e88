import { useState } from "react";
import useSWR from "swr";
import { errorMessage, getJson } from "../../lib/api";
import { shortAddress } from "../../lib/format";
import { toast } from "../../state/toast";
import { SigningModal } from "../wallet/SigningModal";
import type { SigningRequest } from "../wallet/walletStore";
import { acceptTransfer, transfersKey, type TransfersResponse } from "./api";

/** While the wallet's channel is down: how often offers to this wallet are looked for, and how long after an acceptance the lists are read. */
const POLL_MS = 10_000;
const AFTER_ACCEPT_MS = 1_500;

/**
 * NFTs other holders offered to this wallet (free transfers), each with an Accept button signed in Xaman.
 * `pushed`: the page's wallet channel is up and reloads the lists on each transfer; else they are polled.
 */
export function IncomingTransfers({ wallet, pushed, onAccepted }: { wallet: string; pushed: boolean; onAccepted: () => void }) {
  const { data, error, mutate } = useSWR<TransfersResponse>(transfersKey(wallet), getJson, { refreshInterval: pushed ? 0 : POLL_MS });
  const [signing, setSigning] = useState<SigningRequest | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const incoming = data?.incoming ?? [];
  if (error && !data) {
    return (
      <section className="card" role="alert">
        <p className="error-text">Could not check for NFTs sent to you: {errorMessage(error)}</p>
        <button className="btn btn-outline" onClick={() => void mutate()}>
          Try Again
        </button>
      </section>
    );
  }
  if (!incoming.length && !signing) return null;

  const accept = async (offerId: string, name: string) => {
    setBusy(offerId);
    try {
      const req = await acceptTransfer(wallet, offerId);
      setSigning({ uuid: req.uuid, qrUrl: req.qrUrl, xummUrl: req.xummUrl, purpose: "payment", title: `Accept ${name}` });
    } catch (err) {
      toast({ title: "Error accepting transfer", description: errorMessage(err), variant: "destructive" });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card incoming-card" aria-labelledby="incoming-title" data-testid="incoming-transfers">
      <h2 id="incoming-title">NFTs sent to you</h2>
      <ul className="offer-list">
        {incoming.map((o) => (
          <li key={o.offerId} className="offer-row">
            <div>
              <div className="offer-name">{o.name}</div>
              <div className="muted small">
                From <span className="mono" title={o.from}>{shortAddress(o.from)}</span> · rewards not yet claimed come with it
              </div>
            </div>
            <button className="btn btn-primary" onClick={() => void accept(o.offerId, o.name)} disabled={busy !== null} aria-busy={busy === o.offerId}>
              {busy === o.offerId && <span className="spinner" aria-hidden="true" />}
              Accept
            </button>
          </li>
        ))}
      </ul>
      <SigningModal
        request={signing}
        onSuccess={() => {
          toast({ title: "NFT accepted", description: "The NFT is now in your wallet, with its unclaimed rewards.", variant: "success" });
          // The acceptance validates in the next ledger: its push reloads the lists; without the channel, look again shortly.
          if (!pushed)
            setTimeout(() => {
              void mutate();
              onAccepted();
            }, AFTER_ACCEPT_MS);
        }}
        onError={(message) => toast({ title: "Error accepting transfer", description: message, variant: "destructive" })}
        onClose={() => {
          setSigning(null);
          void mutate();
        }}
      />
    </section>
  );
}
