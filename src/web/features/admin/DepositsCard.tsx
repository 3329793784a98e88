import useSWR from "swr";
import { useSnapshot } from "valtio";
import { getJson, HttpError, errorMessage } from "../../lib/api";
import { formatShortDate, shortAddress } from "../../lib/format";
import { explorerAccountLink, explorerTxLink, useSiteConfig } from "../../state/site";
import { walletState } from "../wallet/walletStore";
import type { DepositRow as DepositRowSchema, DepositsResponse } from "../../../shared/api/deposits";

/** A row of `GET /api/admin/deposits` (the server's schema, src/shared/api/deposits.ts). */
export type DepositRow = typeof DepositRowSchema.static;

const DEPOSITS_KEY = "/api/admin/deposits";

/** Drops as XRP with up to 6 decimals (integers only: no float rounding); tokens as on the ledger. */
export function formatDelivered(row: Pick<DepositRow, "currency" | "value">): string {
  if (row.currency !== "XRP") return `${row.value} ${row.currency.length === 40 ? "token" : row.currency}`;
  const drops = BigInt(row.value);
  const whole = drops / 1_000_000n;
  const fraction = (drops % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return `${whole.toLocaleString("en-US")}${fraction ? `.${fraction}` : ""} XRP`;
}

/** What happened to a payment, in words. */
export function outcomeText(row: Pick<DepositRow, "outcome" | "reason" | "refund">): string {
  if (row.outcome === "kept") return row.reason === "refund_returned" ? "Kept: a refund coming back" : "Kept: from a funding account";
  const status = row.refund?.status;
  if (status === "validated") return "Refunded";
  if (status === "failed") return `Refund failed${row.refund?.result ? ` (${row.refund.result})` : ""}`;
  return "Refund on its way";
}

/**
 * /admin: untagged payments to the treasury. Only the operator's funding accounts may pay it
 * without a DestinationTag (kept); everyone else's is refunded, and a refund coming back is kept
 * rather than bounced again. Both are listed so nothing is kept silently. Long because its loading,
 * error, empty and table states for desktop and phone read best in one place.
 */
export function DepositsCard() {
  const { walletAddress, checking } = useSnapshot(walletState);
  const site = useSiteConfig();
  const deposits = useSWR<typeof DepositsResponse.static>(checking ? null : ([DEPOSITS_KEY, walletAddress] as const), ([url]: readonly [string, string | null]) => getJson<typeof DepositsResponse.static>(url));
  const refused = deposits.error instanceof HttpError && (deposits.error.status === 401 || deposits.error.status === 403);
  if (refused) return null;
  const rows = deposits.data?.deposits ?? [];

  return (
    <div className="card section-gap stack" data-testid="deposits-card">
      <div className="row-between wrap">
        <h2>Untagged payments to the treasury</h2>
        <button className="btn btn-outline" onClick={() => void deposits.mutate()} disabled={deposits.isValidating}>
          {deposits.isValidating && <span className="spinner" aria-hidden="true" />}
          Reload payments
        </button>
      </div>
      <p className="muted">
        Payments without a destination tag are kept only from the operator's funding accounts (TREASURY_FUNDERS and the platform's own accounts); every other one is
        refunded in full, and a refund coming back is kept instead of being bounced again.
      </p>
      {deposits.error ? (
        <div className="stack" role="alert">
          <p className="error-text">Failed to load untagged payments: {errorMessage(deposits.error)}</p>
          <button className="btn btn-outline" onClick={() => void deposits.mutate()}>
            Try Again
          </button>
        </div>
      ) : !deposits.data ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading untagged payments...
        </p>
      ) : rows.length === 0 ? (
        <p className="muted">No untagged payments have reached the treasury.</p>
      ) : (
        <div className="table-wrap">
          <table className="table stack-table" data-testid="deposits-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">From</th>
                <th scope="col">Amount</th>
                <th scope="col">What happened</th>
                <th scope="col">Transactions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                const account = explorerAccountLink(site.data, row.sender);
                const payment = explorerTxLink(site.data, row.txHash);
                const refund = row.refund?.hash ? explorerTxLink(site.data, row.refund.hash) : undefined;
                return (
                  <tr key={row.txHash}>
                    <td data-label="Date">{row.closedAt ? formatShortDate(row.closedAt) : `Ledger ${row.ledgerIndex}`}</td>
                    <td data-label="From" className="mono">
                      {account ? (
                        <a href={account} target="_blank" rel="noopener noreferrer" title={row.sender}>
                          {shortAddress(row.sender)}
                        </a>
                      ) : (
                        shortAddress(row.sender)
                      )}
                    </td>
                    <td data-label="Amount">{formatDelivered(row)}</td>
                    <td data-label="What happened" className="stack-prose">{outcomeText(row)}</td>
                    <td data-label="Transactions">
                      {payment ? (
                        <a href={payment} target="_blank" rel="noopener noreferrer">
                          Payment
                        </a>
                      ) : (
                        <span className="mono">{row.txHash.slice(0, 8)}</span>
                      )}
                      {refund && (
                        <>
                          {" · "}
                          <a href={refund} target="_blank" rel="noopener noreferrer">
                            Refund
                          </a>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
