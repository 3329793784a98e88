import type { ReactNode } from "react";
import { Link, useParams } from "react-router-dom";
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

/**
 * The page of the round named by the path's `param` (a whole number): it loads `url(n)` and shows
 * `children(data)`, with the title, back link, links to the rounds around it, and the loading and
 * error states (the server's own words for a round that does not exist or is not over yet).
 */
export function RoundRoute<T>(props: {
  param: "round" | "id";
  title: (n: string) => string;
  back: { to: string; label: string };
  what: string;
  url: (n: number) => string;
  /** Previous / next links under the title (rounds numbered one after another). */
  navBase?: string;
  children: (data: T) => ReactNode;
}) {
  const n = Number(useParams()[props.param]);
  const valid = Number.isSafeInteger(n) && n >= 1;
  const { data, error, isLoading } = useRound<T>(valid ? props.url(n) : null);
  return (
    <RoundPage
      title={props.title(valid ? String(n) : "?")}
      back={props.back}
      what={props.what}
      error={valid ? error : `That is not a ${props.what} number.`}
      loading={isLoading || !data}
      nav={valid && props.navBase ? <RoundNav base={props.navBase} n={n} /> : undefined}
    >
      {data && props.children(data)}
    </RoundPage>
  );
}

/** The page around one round: its title, back link, and the loading and error states. */
function RoundPage(props: { title: string; back: { to: string; label: string }; error: unknown; loading: boolean; what: string; children: ReactNode; nav?: ReactNode }) {
  usePageTitle(props.title);
  const notFound = typeof props.error === "string" ? props.error : props.error instanceof HttpError && props.error.status === 404 ? (props.error.serverMessage ?? `No such ${props.what}.`) : null;
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
          {notFound ?? `The ${props.what} could not be loaded right now. Try again in a moment.`}
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
function RoundNav({ base, n }: { base: string; n: number }) {
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

/** One check the browser made: whether what it computed matches what the server recorded (null: still computing). */
export interface BrowserCheck {
  ok: boolean | null;
  yes: string;
  no: string;
  testId: string;
}

/** "In your browser: ✓ ... ✓ ...": the page's own re-computation of the round. */
function BrowserChecks({ checks }: { checks: BrowserCheck[] }) {
  return (
    <p className="small">
      In your browser:
      {checks.map((c) => (
        <span key={c.testId} className="browser-check">
          {c.ok === null ? (
            <span className="muted">Checking…</span>
          ) : (
            <span className={c.ok ? "success-text" : "error-text"} data-testid={c.testId} data-ok={c.ok}>
              {c.ok ? `✓ ${c.yes}` : `✗ ${c.no}`}
            </span>
          )}
        </span>
      ))}
    </p>
  );
}

/** Where a seeded spin's replay comes from: the revealed seeds, or (while the seed is secret) the record. */
export function SeedNote({ revealed, what, recorded }: { revealed: boolean; what: string; recorded: string }) {
  if (revealed) return <p className="small muted">Drawn from {what}, computed in your browser with the same engine as the server.</p>;
  return (
    <p className="alert alert-warning small" data-testid="seed-hidden">
      The server seed is still in use, so {recorded}. Once the wallet rotates its seed pair, this page replays it from the seeds.
    </p>
  );
}

/** The facts of a seeded spin (slots, wheel): the wallet, the server seed's hash and when it was shown, the seeds. */
export function seedRows(s: { walletAddress: string; serverSeedHash: string; committedAt: string | null; serverSeed: string | null; clientSeed: string; nonce: number }): [string, ReactNode][] {
  return [
    ["Wallet", <span className="mono" title={s.walletAddress}>{shortWallet(s.walletAddress)}</span>],
    ["Server seed hash", <Hash value={s.serverSeedHash} />],
    ["Shown since", <When iso={s.committedAt} />],
    ["Server seed", s.serverSeed ? <Hash value={s.serverSeed} /> : <span className="muted">not revealed yet (rotate the seed pair)</span>],
    ["Client seed", <Hash value={s.clientSeed} />],
    ["Nonce", String(s.nonce)],
  ];
}

/**
 * A round's page below its title: the summary line, the replay beside the provably-fair facts and the
 * browser's own checks, then (for the XRP games) the bets.
 */
export function RoundLayout(props: { summary: ReactNode; replayNote: ReactNode; replay: ReactNode; facts: [string, ReactNode][]; checks: BrowserCheck[] | null; fairLink: string | null; bets?: ReactNode }) {
  return (
    <>
      <p className="round-summary" data-testid="round-summary">
        {props.summary}
      </p>
      <div className="round-grid">
        <article className="card stack" aria-labelledby="replay-title">
          <h2 id="replay-title">Replay</h2>
          {props.replayNote}
          {props.replay}
        </article>
        <article className="card stack" aria-labelledby="fair-title">
          <h2 id="fair-title">Provably fair</h2>
          <Facts testId="round-facts" rows={props.facts} />
          {props.checks && <BrowserChecks checks={props.checks} />}
          {props.fairLink && (
            <Link className="small" to={props.fairLink}>
              Check it on the Provably Fair page
            </Link>
          )}
        </article>
      </div>
      {props.bets}
    </>
  );
}

/** The bets card of an XRP round: who, how much, their choice, how it ended, and both payments on the ledger. */
export function BetsCard<B extends RoundBetView>({ bets, choice, won }: { bets: B[]; choice: { title: string; of: (b: B) => ReactNode }; won: (b: B) => string }) {
  return (
    <article className="card stack" aria-labelledby="bets-title">
      <h2 id="bets-title">Bets ({bets.length})</h2>
      <BetsTable bets={bets} choice={choice} won={won} />
    </article>
  );
}

/** How a bet ended, in words. */
function BetResult<B extends RoundBetView>({ bet, won }: { bet: B; won: (b: B) => string }) {
  if (bet.status === "won") return <span className="success-text">{won(bet)}</span>;
  if (bet.status === "lost") return <span className="error-text">lost</span>;
  return <span className="muted">{[bet.status, bet.reason && `(${bet.reason.replace(/_/g, " ")})`].filter(Boolean).join(" ")}</span>;
}

function BetsTable<B extends RoundBetView>({ bets, choice, won }: { bets: B[]; choice: { title: string; of: (b: B) => ReactNode }; won: (b: B) => string }) {
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
              <td data-label="Result">
                <BetResult bet={b} won={won} />
              </td>
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
