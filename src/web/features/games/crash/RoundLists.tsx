import { Link } from "react-router-dom";
import { crashClass, CRASH_RULES, fairLink, pillClass, shortWallet, type CrashBetView, type CrashHistoryRound, type CrashPlayer } from "./api";

/** A round's number linking to its page (hash, bets and a replay). */
const RoundLink = ({ round }: { round: number }) => (
  <Link to={`/crash/round/${round}`} title={`Round #${round}: its hash, bets and a replay`}>
    #{round}
  </Link>
);

/** The last 7 rounds as coloured pills with their round numbers (spec §2). */
export function RecentPills({ history, count = CRASH_RULES.recentPills }: { history: CrashHistoryRound[]; count?: number }) {
  return (
    <ol className="crash-pills" aria-label="Last rounds" data-testid="crash-pills">
      {history.slice(0, count).map((r) => (
        <li key={r.round} className={`crash-pill ${pillClass(r.voided ? null : r.crashPoint)}`} title={`Round #${r.round}`}>
          <span className="crash-pill-round">#{r.round}</span> {r.voided || r.crashPoint === null ? "void" : `${r.crashPoint.toFixed(2)}x`}
        </li>
      ))}
    </ol>
  );
}

/** What a player's row says: the cash-out, 'bust' once the round crashed under them, else the auto cash-out or 'riding'. */
function outcome(p: CrashPlayer, crashed: boolean): { text: string; className: string } {
  if (p.hasCashedOut && p.cashOutMultiplier) return { text: `${p.cashOutMultiplier.toFixed(2)}x`, className: "success-text" };
  if (crashed) return { text: "bust", className: "error-text" };
  return { text: p.autoCashOut ? `auto ${p.autoCashOut.toFixed(2)}x` : "riding", className: "muted" };
}

/** The players of the round: shortened wallets, bets, and cash-outs. */
export function PlayersList({ players, me, crashed = false }: { players: CrashPlayer[]; me: string | null; crashed?: boolean }) {
  return (
    <article className="card crash-list" aria-labelledby="crash-players-title" data-testid="crash-players">
      <h2 id="crash-players-title">Players ({players.length})</h2>
      {players.length === 0 ? (
        <p className="muted small">No bets in this round yet.</p>
      ) : (
        <ul>
          {players.map((p) => {
            const { text, className } = outcome(p, crashed);
            return (
              <li key={p.walletAddress} className={p.walletAddress === me ? "crash-me" : undefined}>
                <span className="mono">{shortWallet(p.walletAddress)}</span>
                <span>{p.betAmount} XRP</span>
                <span className={className}>{text}</span>
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
}

/** Previous crashes with their colours, each round linking to its page and to /fair prefilled with its hash and the salt. */
export function PreviousCrashes({ history, salt, terminating }: { history: CrashHistoryRound[]; salt?: string; terminating?: string }) {
  return (
    <article className="card crash-list" aria-labelledby="crash-previous-title" data-testid="crash-previous">
      <h2 id="crash-previous-title">Previous crashes</h2>
      {history.length === 0 ? (
        <p className="muted small">No finished rounds yet.</p>
      ) : (
        <ul>
          {history.map((r) => {
            const link = fairLink(r, salt, terminating);
            return (
              <li key={r.round}>
                <RoundLink round={r.round} />
                <span className={`mono ${crashClass(r.voided ? null : r.crashPoint)}`}>{r.voided || r.crashPoint === null ? "voided" : `${r.crashPoint.toFixed(2)}x`}</span>
                {link && !r.voided ? (
                  <a className="small" href={link} title="Re-compute this crash point from its hash and the salt">
                    verify
                  </a>
                ) : (
                  <span className="small muted">{r.voided ? "refunded" : ""}</span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </article>
  );
}

/** A bet whose payment arrived (a request closed or expired unpaid is no bet: it moved no money). */
export const wasPaid = (b: Pick<CrashBetView, "paymentTxid">) => b.paymentTxid !== null;

/** The wallet's own bets (spec's bet history row), with payout txids linking to the explorer; payment requests never paid are left out. */
export function BetHistory({ bets: all, explorer }: { bets: CrashBetView[]; explorer?: (txid: string) => string }) {
  const bets = all.filter(wasPaid);
  return (
    <article className="card crash-list" aria-labelledby="crash-bets-title" data-testid="crash-bets">
      <h2 id="crash-bets-title">My bets</h2>
      {bets.length === 0 ? (
        <p className="muted small">Your bets appear here.</p>
      ) : (
        <ul>
          {bets.map((b) => (
            <li key={b.betId}>
              {b.round === null ? <span className="muted">#-</span> : <RoundLink round={b.round} />}
              <span>{b.amount} XRP</span>
              <span className={b.result === "win" ? "success-text" : b.result === "loss" ? "error-text" : "muted"}>
                {b.result === "win" ? `won ${b.payoutAmount} XRP at ${b.cashOutMultiplier?.toFixed(2)}x` : b.result === "loss" ? "lost" : b.result === "refund" ? `refunded (${b.reason?.replace(/_/g, " ")})` : b.status.replace(/_/g, " ")}
              </span>
              {b.txid && explorer ? (
                <a className="small mono" href={explorer(b.txid)} target="_blank" rel="noopener noreferrer">
                  tx
                </a>
              ) : (
                <span />
              )}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
