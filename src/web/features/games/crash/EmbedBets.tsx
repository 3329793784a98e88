import { embedWallet, fitted, useFitRows, xrp } from "../embed/EmbedShell";
import type { CrashPlayer, CrashStatus } from "./api";

/** The round's biggest cash-out, or null before anyone cashed out. */
export function biggestWin(players: CrashPlayer[]): CrashPlayer | null {
  let best: CrashPlayer | null = null;
  for (const p of players) if (p.hasCashedOut && p.payout !== null && (!best || p.payout > best.payout!)) best = p;
  return best;
}

/** The streamer's own bets first, then cash-outs by payout, then the rest by bet (the newest first among equals). */
export function crashRows(players: CrashPlayer[], me: string | null): CrashPlayer[] {
  const rank = (p: CrashPlayer) => (p.walletAddress === me ? 0 : p.hasCashedOut ? 1 : 2);
  const order = new Map(players.map((p, i) => [p, i]));
  return [...players].sort((a, b) => rank(a) - rank(b) || (b.payout ?? 0) - (a.payout ?? 0) || b.betAmount - a.betAmount || order.get(b)! - order.get(a)!);
}

/** What a bet's cash-out cell says in each phase of the round. */
function outcome(p: CrashPlayer, status: CrashStatus): { text: string; className: string } {
  if (p.hasCashedOut && p.cashOutMultiplier !== null) return { text: `${p.cashOutMultiplier.toFixed(2)}x`, className: "embed-won" };
  if (status === "crashed") return { text: "bust", className: "embed-lost" };
  if (status === "running") return { text: "riding", className: "embed-riding" };
  // In the countdown: the bet's auto cash-out target, if it has one.
  return { text: p.autoCashOut ? `→${Number(p.autoCashOut.toFixed(2))}x` : "in", className: "embed-riding" };
}

/**
 * The crash embed's live table (bustabit's players list): each bet of the round as it is confirmed,
 * its cash-out multiplier and payout as they happen, 'bust' for what rode into the crash, the round's
 * biggest win, and the ?wallet's bets highlighted and listed first. Only as many rows as the frame holds.
 */
export function CrashEmbedBets({ players, status, me }: { players: CrashPlayer[]; status: CrashStatus; me: string | null }) {
  const { ref, fit, narrow } = useFitRows<HTMLUListElement>();
  const rows = crashRows(players, me);
  const { shown, more } = fitted(rows, fit);
  const total = players.reduce((n, p) => n + p.betAmount, 0);
  const best = biggestWin(players);
  return (
    <>
      <div className="embed-sidehead">
        <span>Bets ({players.length})</span>
        <span>{xrp(total)} XRP</span>
      </div>
      {best && (
        <p className="embed-best" data-testid="embed-best">
          Biggest win {embedWallet(best.walletAddress, narrow)} +{xrp(best.payout!)} XRP
        </p>
      )}
      <ul className="embed-rows embed-rows-4" ref={ref} data-testid="embed-bets" aria-label="Bets of this round">
        <li className="embed-row embed-cols" aria-hidden="true">
          <span>Player</span>
          <span>Bet</span>
          <span>At</span>
          <span>Won</span>
        </li>
        {players.length === 0 && <li className="embed-empty">No bets in this round yet.</li>}
        {shown.map((p) => {
          const o = outcome(p, status);
          return (
            <li key={p.walletAddress} data-row className={`embed-row${p.walletAddress === me ? " embed-me" : ""}`} data-wallet={p.walletAddress}>
              <span className="embed-wallet" title={p.walletAddress}>
                {embedWallet(p.walletAddress, narrow)}
              </span>
              <span>{xrp(p.betAmount)}</span>
              <span className={o.className}>{o.text}</span>
              <span className={p.payout !== null ? "embed-won" : status === "crashed" ? "embed-lost" : undefined}>{p.payout !== null ? `+${xrp(p.payout)}` : status === "crashed" ? "0" : ""}</span>
            </li>
          );
        })}
        {more > 0 && <li className="embed-more">+{more} more</li>}
      </ul>
    </>
  );
}
