import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import useSWR from "swr";
import type { RoundBetView } from "../../../shared/api/games";
import { getJson, HttpError } from "../../lib/api";
import { usePageTitle } from "../../lib/usePageTitle";
import { explorerTxLink, useSiteConfig } from "../../state/site";
import "./rounds.css";

/** r1234…abcd */
export const shortWallet = (w: string) => (w.length > 12 ? `${w.slice(0, 6)}…${w.slice(-4)}` : w);

/** A round's record from the server (swr; no polling: a finished round does not change but for its payouts' txids). */
export function useRound<T>(url: string | null) {
  return useSWR<T>(url, getJson);
}

/** The page around one round: its title, back link, and the loading and error states. */
export function RoundPage(props: { title: string; back: { to: string; label: string }; error: unknown; loading: boolean; what: string; children: ReactNode; nav?: ReactNode }) {
  usePageTitle(props.title);
  const notFound = props.error instanceof HttpError && props.error.status === 404;
  return (
    <section className="container round-page" data-testid="round-page">
      <header className="page-header round-header">
        <Link className="small" to={props.back.to}>
          ← {props.back.label}
        </Link>
        <h1>{props.title}</h1>
        {props.nav}
      </header>
      {props.error ? (
        <div className="card alert alert-error" role="alert" data-testid="round-error">
          {notFound ? (props.error as HttpError).serverMessage ?? `No such ${props.what}.` : `The ${props.what} could not be loaded right now. Try again in a moment.`}
        </div>
      ) : props.loading ? (
        <p className="muted page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the {props.what}…
        </p>
      ) : (
        props.children
      )}
    </section>
  );
}

/** Previous / next links between rounds (the next may not exist yet: the link then answers "not over yet"). */
export function RoundNav({ base, n }: { base: string; n: number }) {
  return (
    <nav className="round-nav small" aria-label="Other rounds">
      {n > 1 && <Link to={`${base}/${n - 1}`}>← #{n - 1}</Link>}
      <Link to={`${base}/${n + 1}`}>#{n + 1} →</Link>
    </nav>
  );
}

/** Label / value rows (a definition list that wraps on a phone). */
export function Facts({ rows, testId }: { rows: [string, ReactNode][]; testId?: string }) {
  return (
    <dl className="round-facts" data-testid={testId}>
      {rows.map(([label, value]) => (
        <div key={label} className="round-fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A hash or seed in full, breaking anywhere (64 characters do not fit a phone). */
export const Hash = ({ value }: { value: string | null | undefined }) => (value ? <code className="hash-cell">{value}</code> : <span className="muted">—</span>);

/** A transaction on the ledger's explorer (the full hash in its title). */
export function Tx({ hash }: { hash: string | null | undefined }) {
  const { data: site } = useSiteConfig();
  if (!hash) return <span className="muted">—</span>;
  const href = explorerTxLink(site, hash);
  return href ? (
    <a className="mono" href={href} target="_blank" rel="noopener noreferrer" title={hash}>
      {hash.slice(0, 10)}…
    </a>
  ) : (
    <code title={hash}>{hash.slice(0, 10)}…</code>
  );
}

/** A time as the reader's local date and time, with the exact ISO time in its title. */
export const When = ({ iso }: { iso: string | number | null | undefined }) => {
  if (iso === null || iso === undefined) return <span className="muted">—</span>;
  const d = new Date(iso);
  return <time dateTime={d.toISOString()} title={d.toISOString()}>{d.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "medium" })}</time>;
};

/** Whether what the browser computed matches what the server recorded. */
export function Check({ ok, yes, no, testId }: { ok: boolean | null; yes: string; no: string; testId?: string }) {
  if (ok === null) return <span className="muted">Checking…</span>;
  return (
    <span className={ok ? "success-text" : "error-text"} data-testid={testId} data-ok={ok}>
      {ok ? `✓ ${yes}` : `✗ ${no}`}
    </span>
  );
}

/** Every bet of an XRP round: who, how much, their choice, how it ended, and both payments on the ledger. */
export function BetsTable<B extends RoundBetView>({ bets, choice, result }: { bets: B[]; choice: { title: string; of: (b: B) => ReactNode }; result: (b: B) => ReactNode }) {
  if (bets.length === 0) return <p className="muted">Nobody bet on this round.</p>;
  return (
    <div className="table-wrap">
      <table className="table stack-table round-bets" data-testid="round-bets">
        <thead>
          <tr>
            <th scope="col">Wallet</th>
            <th scope="col">Bet</th>
            <th scope="col">{choice.title}</th>
            <th scope="col">Result</th>
            <th scope="col">Paid back</th>
            <th scope="col">Bet payment</th>
            <th scope="col">Payout</th>
          </tr>
        </thead>
        <tbody>
          {bets.map((b) => (
            <tr key={b.betId} data-testid="round-bet" data-status={b.status}>
              <td data-label="Wallet" className="mono" title={b.walletAddress}>
                {shortWallet(b.walletAddress)}
              </td>
              <td data-label="Bet" className="mono">
                {b.amount} XRP
              </td>
              <td data-label={choice.title}>{choice.of(b)}</td>
              <td data-label="Result">{result(b)}</td>
              <td data-label="Paid back" className="mono">
                {b.payout} XRP
              </td>
              <td data-label="Bet payment">
                <Tx hash={b.paymentTxid} />
              </td>
              <td data-label="Payout">{b.status === "lost" ? <span className="muted">none</span> : <Tx hash={b.payoutTxid} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
