import { useState } from "react";
import { racingRtp, UNICORNS, type UnicornName } from "../../../../engine";
import type { PlayerView, RaceStateView } from "../../../../shared/api/racing";
import { toast } from "../../../state/toast";
import { UnicornImage } from "./unicorns";

export const MIN_BET_XRP = 1;
export const MAX_BET_XRP = 100;

/** The spec's checks, in its order (part 2 §5); the first failing one's text, or null. */
export function betProblem(input: { wallet: string | null; hasBet: boolean; racing: boolean; amount: number }): string | null {
  if (!input.wallet) return "Please connect your XUMM wallet to place a bet.";
  if (input.hasBet) return "You have already placed a bet for this race.";
  if (input.racing) return "Cannot place bets during a race. Please wait for the next race.";
  if (!(input.amount > 0 && input.amount <= MAX_BET_XRP)) return "Please enter a bet amount between 1 and 100 XRP.";
  return null;
}

/** The bet card: unicorn, amount (Min 1, Max 100), place bet; 'You bet X XRP on Y' once confirmed. */
export function BetCard({
  wallet,
  state,
  myBet,
  placing,
  onPlace,
  onConnect,
}: {
  wallet: string | null;
  state: RaceStateView | null;
  myBet: PlayerView | null;
  placing: boolean;
  onPlace: (unicorn: UnicornName, amount: number) => void;
  onConnect: () => void;
}) {
  const [unicorn, setUnicorn] = useState<UnicornName>("Ripple");
  const [amount, setAmount] = useState("5");
  const racing = state?.status === "racing";
  const finished = state?.status === "finished";
  const closed = state?.status === "waiting" && !state.bettingOpen;
  // With a wallet the button says why betting waits and cannot be pressed; without one it connects (the spec checks the wallet first).
  const blocked = wallet !== null && (racing || finished || closed);
  const closeSeconds = Math.round((state?.betsCloseBeforeMs ?? 5_000) / 1000);

  const submit = () => {
    const value = Number(amount);
    const problem = betProblem({ wallet, hasBet: myBet !== null, racing: racing || finished, amount: value });
    if (problem) {
      toast({ title: "Invalid Bet", description: problem, variant: "destructive" });
      if (!wallet) onConnect();
      return;
    }
    onPlace(unicorn, value);
  };

  return (
    <div className="card race-bet-card" data-testid="race-bet-card">
      <h3>Place Your Bet</h3>
      {myBet ? (
        <p className="race-my-bet" data-testid="race-my-bet">
          <UnicornImage name={myBet.unicornName as UnicornName} size={28} /> You bet {myBet.betAmount} XRP on {myBet.unicornName}
        </p>
      ) : (
        <div className="stack">
          <label className="field">
            <span>Unicorn</span>
            <select className="input select race-select" value={unicorn} onChange={(e) => setUnicorn(e.target.value as UnicornName)} data-testid="race-unicorn">
              {UNICORNS.map((u) => (
                <option key={u.name} value={u.name}>
                  {u.name}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Bet amount (XRP)</span>
            <div className="race-amount-row">
              <input className="input" type="number" min={MIN_BET_XRP} max={MAX_BET_XRP} step="1" value={amount} onChange={(e) => setAmount(e.target.value)} data-testid="race-amount" />
              <button type="button" className="btn btn-outline btn-sm" onClick={() => setAmount(String(MIN_BET_XRP))}>
                Min
              </button>
              <button type="button" className="btn btn-outline btn-sm" onClick={() => setAmount(String(MAX_BET_XRP))}>
                Max
              </button>
            </div>
          </label>
          <button className="btn btn-primary" onClick={submit} disabled={placing || blocked} data-testid="race-place-bet">
            {placing ? "Creating payment…" : !wallet ? "Connect Wallet to Bet" : racing ? "Race in Progress" : finished ? "Next race soon" : closed ? "Betting closed" : "Place Bet"}
          </button>
          <p className="muted small">
            Win {state?.payoutMultiple ?? 5}x your bet in XRP if your unicorn wins. Bets close {closeSeconds} seconds before the start; a payment validated later is refunded.
          </p>
          {state && <ReturnToPlayer multiple={state.payoutMultiple} />}
        </div>
      )}
    </div>
  );
}

/** The race's return to player at its payout multiple (five equally likely unicorns: multiple / 5). */
function ReturnToPlayer({ multiple }: { multiple: number }) {
  return (
    <p className="muted small" data-testid="race-rtp">
      Return to player: {(racingRtp(multiple) * 100).toFixed(2)}% (each of the {UNICORNS.length} unicorns wins one race in {UNICORNS.length}, and a winner is paid {multiple}x).
    </p>
  );
}
