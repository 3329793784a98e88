import type { SlotSession } from "./api";

const fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

/** The session info card: remaining spins, spin cost, winnings, session type, and the seed commitment. */
export function SessionCard({ session, serverSeedHash }: { session: SlotSession; serverSeedHash: string | null }) {
  const bonusNote =
    session.kind === "bonus"
      ? "Daily-wheel spins at 1,000 VVX each. Winnings are paid in real VVX like any spin."
      : session.bonusSpins > 0
        ? `Includes ${session.bonusSpins} daily-wheel spin${session.bonusSpins === 1 ? "" : "s"} added to this session.`
        : null;
  return (
    <section className="card slots-session" aria-labelledby="session-title" data-testid="slots-session" data-session={session.sessionId}>
      <div className="slots-session-head">
        <h2 id="session-title">Your session</h2>
        <span className={`badge session-type session-${session.sessionType.toLowerCase().replace(/\s+/g, "-")}`} data-testid="session-type">
          {session.sessionType}
        </span>
      </div>
      <dl className="session-facts">
        <div>
          <dt>Remaining spins</dt>
          <dd data-testid="remaining-spins">
            {session.remainingSpins} <span className="muted small">of {session.totalSpins}</span>
          </dd>
        </div>
        <div>
          <dt>Spin cost</dt>
          <dd>{fmt.format(session.spinCost)} VVX</dd>
        </div>
        <div>
          <dt>Total winnings</dt>
          <dd data-testid="total-winnings">{fmt.format(session.totalWinnings)} VVX</dd>
        </div>
        <div>
          <dt>Paid to your wallet</dt>
          <dd>{fmt.format(session.totalWinningsPaid)} VVX</dd>
        </div>
      </dl>
      {bonusNote && <p className="small muted">{bonusNote}</p>}
      {session.queuedSessions > 0 && (
        <p className="small muted">
          {session.queuedSessions} more session{session.queuedSessions === 1 ? "" : "s"} waiting after this one.
        </p>
      )}
      {serverSeedHash && (
        <p className="small seed-line">
          <span className="muted">Server seed SHA-256 (committed before your spins):</span> <code className="hash-cell" data-testid="session-seed-hash">{serverSeedHash}</code>
        </p>
      )}
      <p className="muted small">Unused paid spins are refunded in VVX if the session sits idle for 7 days (until {new Date(session.expiresAt).toLocaleDateString()}).</p>
    </section>
  );
}
