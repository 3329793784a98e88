import { useState } from "react";
import useSWR from "swr";
import { useSnapshot } from "valtio";
import type { FailedPayout, FailedPayoutsResponse } from "../../../shared/api/payouts";
import { errorMessage, getJson, HttpError, sendJson } from "../../lib/api";
import { formatShortDate, shortAddress } from "../../lib/format";
import { explorerAccountLink, useSiteConfig } from "../../state/site";
import { walletState } from "../wallet/walletStore";
import { formatAmount } from "./HouseCard";

const PAYOUTS_KEY = "/api/admin/failed-payouts";

/**
 * /admin: payments the outbox gave up on after its last resend (GET /api/admin/failed-payouts), with the
 * ledger's reason. An admin sends one again (its payer's record follows the new key) or marks it settled
 * with why (paid by hand, not owed); both are kept in the audit record shown below the list.
 */
export function FailedPayoutsCard() {
  const { walletAddress, checking } = useSnapshot(walletState);
  const list = useSWR<FailedPayoutsResponse>(checking ? null : ([PAYOUTS_KEY, walletAddress] as const), ([url]: readonly [string, string | null]) => getJson<FailedPayoutsResponse>(url));
  const refused = list.error instanceof HttpError && (list.error.status === 401 || list.error.status === 403);
  if (refused) return null;

  return (
    <div className="card section-gap stack" data-testid="failed-payouts-card">
      <div className="row-between wrap">
        <h2>Payments that failed for good</h2>
        <button className="btn btn-outline" onClick={() => void list.mutate()} disabled={list.isValidating}>
          {list.isValidating && <span className="spinner" aria-hidden="true" />}
          Reload failed payments
        </button>
      </div>
      <p className="muted">
        The ledger refused these payments under every key the outbox tried (it sends a refused payment again after a minute, five times in all). Send one again once
        what refused it is fixed, or mark it settled if it was paid another way or is not owed.
      </p>
      {list.error ? (
        <div className="stack" role="alert">
          <p className="error-text">Failed to load the failed payments: {errorMessage(list.error)}</p>
          <button className="btn btn-outline" onClick={() => void list.mutate()}>
            Try Again
          </button>
        </div>
      ) : !list.data ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading the failed payments...
        </p>
      ) : (
        <>
          {list.data.payouts.length === 0 ? (
            <p className="muted">No payment is waiting for an admin.</p>
          ) : (
            <div className="table-wrap">
              <table className="table stack-table" data-testid="failed-payouts-table">
                <thead>
                  <tr>
                    <th scope="col">Failed</th>
                    <th scope="col">To</th>
                    <th scope="col">Amount</th>
                    <th scope="col">What for</th>
                    <th scope="col">Why</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.payouts.map((p) => (
                    <PayoutRow key={p.key} payout={p} onDone={() => void list.mutate()} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <PayoutActions actions={list.data.actions} />
        </>
      )}
    </div>
  );
}

/** The audit record: what admins did, newest first. */
function PayoutActions({ actions }: { actions: FailedPayoutsResponse["actions"] }) {
  return (
    <>
      <h3>Admin actions</h3>
      {actions.length === 0 ? (
        <p className="muted">No admin has acted on a failed payment yet.</p>
      ) : (
        <ol className="stack-prose" data-testid="payout-actions">
          {actions.map((a) => (
            <li key={a.id}>
              {formatShortDate(a.at)}:{" "}
              <span className="mono" title={a.admin}>
                {shortAddress(a.admin)}
              </span>{" "}
              {a.action === "retried" ? (
                <>
                  sent <span className="mono hash-cell">{a.key}</span> again as <span className="mono hash-cell">{a.nextKey}</span>
                </>
              ) : (
                <>
                  marked <span className="mono hash-cell">{a.key}</span> settled
                </>
              )}
              {a.note && <span className="muted"> ({a.note})</span>}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}

/** One failed payment with its two actions; marking it settled asks why first. */
function PayoutRow({ payout, onDone }: { payout: FailedPayout; onDone: () => void }) {
  const site = useSiteConfig();
  const [settling, setSettling] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = async (path: string, body: Record<string, unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await sendJson("POST", path, body);
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  const account = payout.destination ? explorerAccountLink(site.data, payout.destination) : undefined;
  return (
    <tr>
      <td data-label="Failed">{formatShortDate(payout.failedAt)}</td>
      <td data-label="To" className="mono">
        {payout.destination === null ? "-" : account ? (
          <a href={account} target="_blank" rel="noopener noreferrer" title={payout.destination}>
            {shortAddress(payout.destination)}
          </a>
        ) : (
          shortAddress(payout.destination)
        )}
      </td>
      <td data-label="Amount">{payout.amount ? formatAmount(payout.amount, payout.currency) : payout.currency}</td>
      <td data-label="What for" className="stack-prose">
        {payout.purpose} <span className="muted mono hash-cell">{payout.key}</span>
      </td>
      <td data-label="Why">
        {payout.reason}
        <span className="muted"> after {payout.attempts} tries</span>
      </td>
      <td data-label="Action">
        {settling ? (
          <SettleForm busy={busy} onSettle={(note) => void act("/api/admin/failed-payouts/settle", { key: payout.key, note })} onCancel={() => setSettling(false)} />
        ) : (
          <div className="row wrap">
            <button className="btn btn-primary" onClick={() => void act("/api/admin/failed-payouts/retry", { key: payout.key })} disabled={busy}>
              {busy && <span className="spinner" aria-hidden="true" />}
              Send again
            </button>
            <button className="btn btn-outline" onClick={() => setSettling(true)} disabled={busy}>
              Mark settled...
            </button>
          </div>
        )}
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
      </td>
    </tr>
  );
}

/** Why the payment counts as settled (required), then the action. */
function SettleForm({ busy, onSettle, onCancel }: { busy: boolean; onSettle: (note: string) => void; onCancel: () => void }) {
  const [note, setNote] = useState("");
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        onSettle(note);
      }}
    >
      <label className="stack">
        <span>How was it settled?</span>
        <input className="input" value={note} onChange={(e) => setNote(e.target.value)} maxLength={500} placeholder="Paid by hand, tx ..." required autoFocus />
      </label>
      <div className="row wrap">
        <button className="btn btn-primary" type="submit" disabled={busy || !note.trim()}>
          {busy && <span className="spinner" aria-hidden="true" />}
          Mark settled
        </button>
        <button className="btn btn-outline" type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
