import { useState } from "react";
import { toast } from "../../../state/toast";
import { AUTO_CASH_OUT_KEY, CRASH_RULES } from "./api";
import { refundText } from "./cashOutNews";
import type { BetPaymentStatus } from "./useBetPayment";
import type { CrashGameView } from "./useCrashGame";

function storedAuto(): string {
  try {
    const v = localStorage.getItem(AUTO_CASH_OUT_KEY);
    return v && Number(v) >= CRASH_RULES.minAutoCashOut ? v : String(CRASH_RULES.defaultAutoCashOut);
  } catch {
    return String(CRASH_RULES.defaultAutoCashOut);
  }
}

/** The cash-out button's strength at the multiplier: stronger at 2x, 5x and 10x (and a hint from 7x). */
export function cashOutTier(m: number): { className: string; hint: string | null } {
  const className = m >= 10 ? "cashout-10" : m >= 5 ? "cashout-5" : m >= 2 ? "cashout-2" : "cashout-1";
  return { className, hint: m >= 7 && m < 10 ? "7x and climbing: a great time to cash out!" : null };
}

/** The status line of a bet signed or confirmed while a round runs: it joins the next one (spec §4). */
export const NEXT_ROUND_LINE = "Bet placed for the next round: this one is already running. Waiting for next round...";

/** The status line after a bet (spec §2). */
export function statusLine(game: Pick<CrashGameView, "mine" | "round" | "status">, payment: BetPaymentStatus): string | null {
  const { mine } = game;
  if (mine) {
    if (mine.refunded !== null) return refundText(mine.refunded, mine.betAmount);
    if (mine.cashedOutAt !== null) return `You cashed out at ${mine.cashedOutAt.toFixed(2)}x – ${mine.recording ? "recording…" : "XRP Sent!"}`;
    if (mine.round > game.round) return game.status === "running" ? NEXT_ROUND_LINE : "Waiting for next round...";
    if (mine.round === game.round && game.status === "waiting") return "Round starting soon...";
    if (mine.round === game.round && game.status === "crashed") return "Game Over – You Lost";
    if (mine.round === game.round) return "Bet placed! Good luck!";
  }
  // Signed, not yet confirmed by the ledger: a bet confirmed while a round runs joins the next round.
  if (payment === "processing") return game.status === "running" ? NEXT_ROUND_LINE : "Bet placed! Good luck!";
  return null;
}

/** The spec's check of a bet amount (§5): the 'Invalid Bet' message, or null for 1 to 100 XRP. */
export function betAmountProblem(value: number): string | null {
  if (!(value >= CRASH_RULES.minBet)) return "Minimum bet amount is 1 XRP.";
  if (value > CRASH_RULES.maxBet) return "Maximum bet amount is 100 XRP.";
  return null;
}

/** Where a refused amount is put back: the nearest limit (the spec clamps the input to 1-100). */
export function clampBet(value: number): number {
  return Number.isFinite(value) ? Math.min(CRASH_RULES.maxBet, Math.max(CRASH_RULES.minBet, value)) : CRASH_RULES.defaultBet;
}

/**
 * The Place Bet card: amount (default 5; outside 1-100 'Invalid Bet', then put back within the limits), auto cash-out (min 1.1, step 0.1, default 2,
 * kept in localStorage), balance, max profit, the 1% burn note, the bet button with the spec's texts,
 * the cash-out button and the status line. Long because it is one form with the spec's rules, read top to bottom.
 */
export function BetCard(props: {
  game: CrashGameView;
  wallet: string | null;
  balance: number | null;
  payment: BetPaymentStatus;
  loading: boolean;
  vvxBurned: string | null;
  onConnect: () => void;
  onBet: (amount: number, autoCashOut: number | null) => void;
  onCashOut: () => void;
}) {
  const { game, wallet } = props;
  const [amount, setAmount] = useState(String(CRASH_RULES.defaultBet));
  const [auto, setAuto] = useState(storedAuto);
  const [autoOn, setAutoOn] = useState(true);
  const riding = !!game.mine && game.mine.round === game.round && game.status === "running" && game.mine.cashedOutAt === null && game.mine.refunded === null;
  const hasBet = !!game.mine && game.mine.round >= game.round && game.mine.cashedOutAt === null && !game.mine.lost && game.mine.refunded === null;
  const running = game.status === "running";

  const submit = () => {
    if (!wallet) {
      toast({ title: "Wallet Required", description: "Please connect your XUMM wallet to place a bet.", variant: "info" });
      return props.onConnect();
    }
    const value = Number(amount);
    const problem = betAmountProblem(value);
    if (problem) {
      // Said first, then the field is put back within the limits: nothing is sent.
      toast({ title: "Invalid Bet", description: problem, variant: "destructive" });
      return setAmount(String(clampBet(value)));
    }
    props.onBet(value, autoOn ? Number(auto) : null);
  };
  const amountProblem = amount.trim() === "" ? null : betAmountProblem(Number(amount));
  const changeAuto = (text: string) => {
    // Non-numeric input is ignored (spec §5).
    if (text !== "" && !/^\d*\.?\d*$/.test(text)) return;
    setAuto(text);
    if (Number(text) >= CRASH_RULES.minAutoCashOut) {
      try {
        localStorage.setItem(AUTO_CASH_OUT_KEY, text);
      } catch {
        // Private mode: the value just is not remembered.
      }
    }
  };
  const tier = cashOutTier(game.multiplier);
  const line = statusLine(game, props.payment);

  return (
    <article className="card crash-bet stack" aria-labelledby="crash-bet-title" data-testid="crash-bet-card">
      <h2 id="crash-bet-title">Place Bet</h2>
      <label className="field">
        <span>Bet amount (XRP)</span>
        <input
          className="input"
          type="number"
          inputMode="decimal"
          min={1}
          max={100}
          step={1}
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-invalid={amountProblem !== null}
          aria-describedby={amountProblem ? "crash-amount-error" : undefined}
          data-testid="crash-amount"
        />
      </label>
      {amountProblem && (
        <p className="small error-text" id="crash-amount-error" data-testid="crash-amount-error">
          {amountProblem}
        </p>
      )}
      <label className="field">
        <span className="crash-auto-label">
          <input type="checkbox" checked={autoOn} onChange={(e) => setAutoOn(e.target.checked)} /> Auto cash out at
        </span>
        <input className="input" type="number" min={CRASH_RULES.minAutoCashOut} step={CRASH_RULES.autoStep} inputMode="decimal" value={auto} disabled={!autoOn} onChange={(e) => changeAuto(e.target.value)} onBlur={() => Number(auto) < CRASH_RULES.minAutoCashOut && changeAuto(String(CRASH_RULES.minAutoCashOut))} aria-label="Auto cash out multiplier" data-testid="crash-auto" />
      </label>
      <p className="small muted">
        Balance: <strong data-testid="crash-balance">{wallet ? (props.balance === null ? "…" : `${props.balance.toLocaleString("en-US", { maximumFractionDigits: 6 })} XRP`) : "-"}</strong> · Max profit this round:{" "}
        <strong data-testid="crash-max-profit">{game.maxProfit.toLocaleString("en-US", { maximumFractionDigits: 2 })} XRP</strong>
      </p>
      {riding ? (
        <button className={`btn crash-cashout ${tier.className}`} onClick={props.onCashOut} data-testid="crash-cashout">
          Cash Out @ {game.multiplier.toFixed(2)}x
        </button>
      ) : (
        <button className="btn btn-primary crash-place" onClick={submit} disabled={props.loading || (hasBet && !!wallet)} data-testid="crash-place">
          {!wallet ? "Connect Wallet to Play" : props.loading ? "Waiting for payment…" : running && !hasBet ? "Bet on Next Round" : "Place Bet"}
        </button>
      )}
      {riding && tier.hint && <p className="crash-hint">{tier.hint}</p>}
      {wallet && running && !hasBet && <p className="small muted">Game in progress.</p>}
      {line && (
        <p className="crash-status-line" role="status" data-testid="crash-status-line">
          {line}
        </p>
      )}
      <p className="small muted crash-burn-note">
        1% of every XRP bet buys back and burns VVX{props.vvxBurned ? `: ${Number(props.vvxBurned).toLocaleString("en-US", { maximumFractionDigits: 2 })} VVX burned so far` : ""}.
      </p>
    </article>
  );
}
