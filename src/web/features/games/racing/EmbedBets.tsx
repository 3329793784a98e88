import { UNICORNS } from "../../../../engine";
import type { PlayerView, RaceStateView } from "../../../../shared/api/racing";
import { embedWallet, fitted, useFitRows, xrp } from "../embed/EmbedShell";

/** Bets and XRP on each unicorn, in the engine's order. */
export function betsPerUnicorn(players: PlayerView[]): { bets: number; xrp: number }[] {
  const out = UNICORNS.map(() => ({ bets: 0, xrp: 0 }));
  for (const p of players) {
    const i = UNICORNS.findIndex((u) => u.name === p.unicornName);
    if (i < 0) continue;
    out[i]!.bets++;
    out[i]!.xrp += p.betAmount;
  }
  return out;
}

/** The race's winning bets, the biggest payout first (the ?wallet's first of all). */
export function raceWinners(players: PlayerView[], me: string | null): PlayerView[] {
  return players.filter((p) => p.payout !== null).sort((a, b) => Number(b.walletAddress === me) - Number(a.walletAddress === me) || b.payout! - a.payout!);
}

/**
 * The racing embed's live table: bets and XRP on each unicorn as they are confirmed, then the latest
 * bets (the ?wallet's first) while the race counts down and runs, the winners with their payouts and
 * the biggest win once it is over. Only as many rows as the frame holds.
 */
export function RacingEmbedBets({ state, players, me }: { state: RaceStateView | null; players: PlayerView[]; me: string | null }) {
  const { ref, fit, narrow } = useFitRows<HTMLUListElement>();
  const finished = state?.status === "finished";
  const winnerIndex = finished ? UNICORNS.findIndex((u) => u.name === state.winningUnicorn) : -1;
  const perUnicorn = betsPerUnicorn(players);
  const total = players.reduce((n, p) => n + p.betAmount, 0);
  const winners = raceWinners(players, me);
  const latest = [...players].reverse().sort((a, b) => Number(b.walletAddress === me) - Number(a.walletAddress === me));
  const list = finished ? winners : latest;
  const { shown, more } = fitted(list, fit);
  const best = winners.find((w) => w.payout === Math.max(...winners.map((x) => x.payout!)));
  // Where not all five fit (a small frame with a QR code): the winner, then the most XRP, first.
  const units = useFitRows<HTMLUListElement>();
  const unicorns = UNICORNS.map((u, i) => ({ ...u, i, ...perUnicorn[i]! }));
  const ordered = units.fit >= unicorns.length ? unicorns : [...unicorns].sort((a, b) => Number(b.i === winnerIndex) - Number(a.i === winnerIndex) || b.xrp - a.xrp || a.i - b.i);
  const unitsShown = fitted(ordered, units.fit);
  return (
    <>
      <div className="embed-sidehead">
        <span>Bets ({players.length})</span>
        <span>{xrp(total)} XRP</span>
      </div>
      <ul className="embed-rows embed-units" ref={units.ref} data-testid="embed-unicorns" aria-label="Bets on each unicorn">
        {unitsShown.shown.map((u) => (
          <li key={u.name} data-row className={`embed-row${u.i === winnerIndex ? " embed-row-winner" : ""}`} data-unicorn={u.name}>
            <span>
              <span className="embed-swatch" style={{ background: u.hex }} aria-hidden="true" />
              {u.name}
            </span>
            <span>{u.bets}</span>
            <span>{xrp(u.xrp)} XRP</span>
          </li>
        ))}
        {unitsShown.more > 0 && <li className="embed-more">+{unitsShown.more} more</li>}
      </ul>
      {best ? (
        <p className="embed-best" data-testid="embed-best">
          Biggest win {embedWallet(best.walletAddress, narrow)} +{xrp(best.payout!)} XRP
        </p>
      ) : (
        <p className="embed-best embed-riding">{finished ? (players.length ? `No bets on ${state.winningUnicorn}` : "Race over") : "Latest bets"}</p>
      )}
      <ul className="embed-rows" ref={ref} data-testid="embed-bets" aria-label={finished ? "Winning bets" : "Latest bets"}>
        {list.length === 0 && !finished && <li className="embed-empty">No bets on this race yet.</li>}
        {shown.map((p) => (
          <li key={p.walletAddress} data-row className={`embed-row${p.walletAddress === me ? " embed-me" : ""}`} data-wallet={p.walletAddress}>
            <span className="embed-wallet" title={p.walletAddress}>
              {embedWallet(p.walletAddress, narrow)}
            </span>
            <span>{xrp(p.betAmount)}</span>
            {p.payout !== null ? (
              <span className="embed-won">+{xrp(p.payout)}</span>
            ) : (
              <span title={p.unicornName}>
                <span className="embed-swatch" style={{ background: UNICORNS.find((u) => u.name === p.unicornName)?.hex }} aria-hidden="true" />
                <span className="embed-wide">{p.unicornName}</span>
              </span>
            )}
          </li>
        ))}
        {more > 0 && <li className="embed-more">+{more} more</li>}
      </ul>
    </>
  );
}
