import { useEffect, useState, type FormEvent } from "react";
import useSWR from "swr";
import { Dialog } from "../../components/Dialog";
import { errorMessage, getJson } from "../../lib/api";
import { shortAddress } from "../../lib/format";
import { toast } from "../../state/toast";
import { SigningModal } from "../wallet/SigningModal";
import type { SigningRequest } from "../wallet/walletStore";
import { cancelTransfer, startTransfer, transfersKey, type OwnedNft, type SignRequest, type TransfersResponse } from "./api";

const CLASSIC_ADDRESS = /^r[1-9A-HJ-NP-Za-km-z]{24,34}$/;
/** How long to wait for a signed offer (or its cancellation) to show on the ledger before saying so. */
const LEDGER_WAIT_MS = 30_000;
/** While the wallet's channel is down: how often pending transfers are read (waiting for the ledger, and otherwise). */
const WAITING_POLL_MS = 1_500;
const IDLE_POLL_MS = 10_000;

type Step = "edit" | "wait-offer" | "wait-cancel";

/** The recipient field's problem, or null: a classic address other than the owner's. */
export function recipientProblem(value: string, owner: string): string | null {
  const v = value.trim();
  if (!v) return "Enter the recipient's XRPL address (r...).";
  if (!CLASSIC_ADDRESS.test(v)) return "This is not an XRPL classic address (r...).";
  if (v === owner) return "That is your own wallet: enter another address.";
  return null;
}

/**
 * Transfer NFT: the owner enters a classic address and signs a sell offer for 0 to it in Xaman; the
 * dialog then shows the pending transfer (from the ledger) and lets the owner cancel it. Once the
 * recipient accepts, the NFT and its unclaimed rewards are theirs. Long because it is one dialog with
 * two phases (the form, then the pending transfer with cancel), sharing the signing modal. The ledger's
 * changes come by push (`pushed`: the page's wallet channel is up, it reloads the list); else it polls.
 */
export function TransferDialog({ nft, wallet, pushed, onClose, onChanged }: { nft: OwnedNft; wallet: string; pushed: boolean; onClose: () => void; onChanged: () => void }) {
  const [step, setStep] = useState<Step>("edit");
  const [recipient, setRecipient] = useState("");
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [signing, setSigning] = useState<SigningRequest | null>(null);
  const { data, error: loadError, mutate } = useSWR<TransfersResponse>(transfersKey(wallet), getJson, { refreshInterval: pushed ? 0 : step === "edit" ? IDLE_POLL_MS : WAITING_POLL_MS });
  const pending = data?.outgoing.find((o) => o.tokenId === nft.tokenId) ?? null;

  // The ledger shows the change: the page's lists follow (a push reloaded them already).
  useEffect(() => {
    if (step === "wait-offer" && pending) {
      setStep("edit");
      if (!pushed) onChanged();
    } else if (step === "wait-cancel" && data && !pending) {
      setStep("edit");
      toast({ title: "Transfer cancelled", description: `${nft.name} stays in your wallet.`, variant: "success" });
      if (!pushed) onChanged();
    }
  }, [step, pending, data, nft.name, onChanged, pushed]);
  useEffect(() => {
    if (step === "edit") return;
    const timer = setTimeout(() => {
      setStep("edit");
      setError("The ledger does not show the change yet. It may still arrive; look again in a moment.");
    }, LEDGER_WAIT_MS);
    return () => clearTimeout(timer);
  }, [step]);

  const openSigning = (req: SignRequest, title: string) => setSigning({ uuid: req.uuid, qrUrl: req.qrUrl, xummUrl: req.xummUrl, purpose: "payment", title });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    const problem = recipientProblem(recipient, wallet);
    if (problem) return;
    setBusy(true);
    setError(null);
    try {
      openSigning(await startTransfer(wallet, nft.tokenId, recipient.trim()), `Transfer ${nft.name}`);
    } catch (err) {
      setError(errorMessage(err, "Failed to create the transfer request"));
    } finally {
      setBusy(false);
    }
  };

  const cancel = async () => {
    if (!pending) return;
    setBusy(true);
    setError(null);
    try {
      openSigning(await cancelTransfer(wallet, pending.offerId), `Cancel the transfer of ${nft.name}`);
    } catch (err) {
      setError(errorMessage(err, "Failed to create the cancellation request"));
    } finally {
      setBusy(false);
    }
  };

  if (signing)
    return (
      <SigningModal
        request={signing}
        onSuccess={() => {
          setStep(signing.title?.startsWith("Cancel") ? "wait-cancel" : "wait-offer");
          void mutate();
        }}
        onError={(message) => setError(message)}
        onClose={() => setSigning(null)}
      />
    );

  const problem = touched ? recipientProblem(recipient, wallet) : null;
  return (
    <Dialog open onClose={onClose} title={`Transfer ${nft.name}`} labelledBy="transfer-title">
      <div className="stack" data-testid="transfer-dialog" data-state={pending ? "pending" : step}>
        {step !== "edit" ? (
          <p className="purchase-status" role="status">
            <span className="spinner" aria-hidden="true" /> {step === "wait-offer" ? "Waiting for the offer on the ledger…" : "Waiting for the cancellation on the ledger…"}
          </p>
        ) : pending ? (
          <div className="alert" role="status" data-testid="pending-transfer">
            <p>
              <strong>Transfer pending</strong> to <span className="mono" title={pending.to}>{shortAddress(pending.to)}</span>.
            </p>
            <p className="small">The recipient accepts the offer in Xaman (on its My NFTs page here). Until then the NFT and its rewards stay yours; you can cancel.</p>
            <button className="btn btn-outline" onClick={() => void cancel()} disabled={busy} aria-busy={busy}>
              {busy && <span className="spinner" aria-hidden="true" />}
              Cancel Transfer
            </button>
          </div>
        ) : (
          <form className="stack" onSubmit={(e) => void submit(e)} noValidate>
            <p className="muted small">The NFT and its unclaimed rewards go to the recipient once it accepts the offer. You sign the offer in Xaman; no VVX is paid.</p>
            <label className="field" htmlFor="transfer-recipient">
              Recipient address
              <input
                id="transfer-recipient"
                className="input mono"
                value={recipient}
                onChange={(e) => setRecipient(e.target.value)}
                onBlur={() => setTouched(true)}
                placeholder="r..."
                autoComplete="off"
                spellCheck={false}
                aria-invalid={Boolean(problem)}
                aria-describedby={problem ? "transfer-recipient-error" : undefined}
              />
            </label>
            {problem && (
              <p id="transfer-recipient-error" className="error-text small" role="alert">
                {problem}
              </p>
            )}
            <button className="btn btn-primary" type="submit" disabled={busy} aria-busy={busy}>
              {busy && <span className="spinner" aria-hidden="true" />}
              Sign Transfer in Xaman
            </button>
          </form>
        )}
        {(error || loadError) && (
          <p className="error-text small" role="alert" data-testid="transfer-error">
            {error ?? `Could not read pending transfers: ${errorMessage(loadError)}`}
          </p>
        )}
        <button className="btn btn-ghost" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
