import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { UNICORNS, type UnicornName } from "../../../../engine";
import type { PlayerView, RaceRecord, RaceStateView } from "../../../../shared/api/racing";
import { fairLink, mmss, shortWallet } from "./timeline";
import { UnicornImage } from "./unicorns";
import type { ConnectionStatus } from "./useRacingGame";

/** Re-renders every `everyMs` (the countdown and the plain lanes). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** 'Next Race in m:ss', 'Race in Progress' or 'Race Finished', with 'Round #n'. */
export function RaceHeading({ state, serverNow }: { state: RaceStateView | null; serverNow: number }) {
  if (!state) return <h2 className="race-heading">Connecting to the race…</h2>;
  const text = state.status === "waiting" ? `Next Race in ${mmss(state.nextRaceTime - serverNow)}` : state.status === "racing" ? "Race in Progress" : "Race Finished";
  return (
    <div className="race-heading-row">
      <h2 className="race-heading" data-testid="race-heading">
        {text}
      </h2>
      <span className="race-round" data-testid="race-round">
        Round #{state.roundNumber}
      </span>
    </div>
  );
}

/** The spec's two header badges: game server and wallet. */
export function ConnectionBadges({ connection, wallet }: { connection: ConnectionStatus; wallet: string | null }) {
  const server = connection === "open" ? "Connected" : connection === "paused" ? "Paused" : connection === "retrying" ? "Reconnecting" : "Connecting";
  return (
    <div className="race-badges">
      <span className={`badge ${connection === "open" ? "badge-ok" : "badge-neutral"}`} data-testid="server-badge">
        <span className={`race-dot ${connection === "open" ? "on" : "off"}`} aria-hidden="true" /> Server: {server}
      </span>
      <span className={`badge ${wallet ? "badge-ok" : "badge-neutral"}`} data-testid="wallet-badge">
        <span className={`race-dot ${wallet ? "on" : "off"}`} aria-hidden="true" /> Wallet: {wallet ? shortWallet(wallet) : "Not connected"}
      </span>
    </div>
  );
}

/** The fairness line of the current race: the commitment at countdown, the seeds once revealed. */
export function FairnessLine({ state, commitmentOk }: { state: RaceStateView | null; commitmentOk: boolean | null }) {
  if (!state) return null;
  return (
    <p className="race-fair small muted" data-testid="race-fairness">
      Server seed hash <code className="hash-cell">{state.serverSeedHash.slice(0, 16)}…</code>
      {state.clientSeed ? (
        <>
          {" "}
          · client seed = hash of ledger #{state.clientSeedLedger} <code className="hash-cell">{state.clientSeed.slice(0, 12)}…</code> · nonce {state.nonce}
          {commitmentOk !== null && <span className={commitmentOk ? "success-text" : "error-text"}>{commitmentOk ? " · seed matches its hash" : " · seed does NOT match its hash"}</span>}
        </>
      ) : (
        <> · the client seed is the hash of the first ledger validated after betting closes</>
      )}{" "}
      · <Link to="/fair">How to check</Link>
    </p>
  );
}

/** Active Players: unicorn, bet and the shortened wallet, scrolling at 300 px. */
export function PlayersTable({ players }: { players: PlayerView[] }) {
  return (
    <div className="card race-table-card">
      <h3>Active Players</h3>
      <div className="race-scroll" data-testid="race-players">
        {players.length === 0 ? (
          <p className="muted small">No bets on this race yet.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th>Unicorn</th>
                <th>Bet</th>
                <th>Wallet</th>
              </tr>
            </thead>
            <tbody>
              {players.map((p) => (
                <tr key={`${p.walletAddress}-${p.round}`}>
                  <td>
                    <UnicornImage name={p.unicornName as UnicornName} size={18} /> {p.unicornName}
                  </td>
                  <td>{p.betAmount} XRP</td>
                  <td className="mono">{shortWallet(p.walletAddress)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

/** Race History: round (its page, with the replay and bets), winner and time, each row linking to /fair with the race's seeds. */
export function RaceHistory({ races }: { races: RaceRecord[] }) {
  return (
    <div className="card race-table-card">
      <h3>Race History</h3>
      <div className="race-scroll" data-testid="race-history">
        {races.length === 0 ? (
          <p className="muted small">No finished races yet.</p>
        ) : (
          <table className="table race-history-table">
            <thead>
              <tr>
                <th>Round</th>
                <th>Winner</th>
                <th>Time</th>
                <th>Fair</th>
              </tr>
            </thead>
            <tbody>
              {races.map((r) => (
                <tr key={r.round}>
                  <td>
                    <Link to={`/racing/race/${r.round}`} title={`Race #${r.round}: seeds, bets and a replay`}>
                      #{r.round}
                    </Link>
                  </td>
                  <td style={{ color: UNICORNS[r.winnerIndex]?.hex }}>{r.winningUnicorn}</td>
                  <td>{new Date(r.timestamp).toLocaleTimeString()}</td>
                  <td>
                    <Link to={fairLink(r)} data-testid={`fair-link-${r.round}`}>
                      Verify
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}

/** '{unicorn} has won the race!' while the race is over, until the next countdown. */
export function WinnerBanner({ winner }: { winner: number | null }) {
  if (winner === null) return null;
  const u = UNICORNS[winner]!;
  return (
    <div className="race-winner" role="status" data-testid="race-winner" style={{ borderColor: u.hex }}>
      <strong style={{ color: u.hex }}>{u.name}</strong> has won the race!
    </div>
  );
}
