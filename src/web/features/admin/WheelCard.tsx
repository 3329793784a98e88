import useSWR from "swr";
import { useSnapshot } from "valtio";
import type { WheelDaysResponse } from "../../../shared/api/house";
import { errorMessage, getJson, HttpError } from "../../lib/api";
import { walletState } from "../wallet/walletStore";
import { formatAmount } from "./HouseCard";

const WHEEL_KEY = "/api/admin/wheel";
/** What a prize spin is worth in play (a Standard spin's cost). */
const PRIZE_SPIN_VVX = 1_000;

/**
 * /admin: the daily wheel per UTC day (GET /api/admin/wheel): how many wallets spun, the prize spins
 * they won, and what the wheel's Bonus sessions paid in VVX, with who may spin (DAILY_SPIN_ELIGIBILITY).
 */
export function WheelCard() {
  const { walletAddress, checking } = useSnapshot(walletState);
  const wheel = useSWR<WheelDaysResponse>(checking ? null : ([WHEEL_KEY, walletAddress] as const), ([url]: readonly [string, string | null]) => getJson<WheelDaysResponse>(url));
  const refused = wheel.error instanceof HttpError && (wheel.error.status === 401 || wheel.error.status === 403);
  if (refused) return null;

  return (
    <div className="card section-gap stack" data-testid="wheel-card">
      <div className="row-between wrap">
        <h2>Daily wheel, per day</h2>
        <button className="btn btn-outline" onClick={() => void wheel.mutate()} disabled={wheel.isValidating}>
          {wheel.isValidating && <span className="spinner" aria-hidden="true" />}
          Reload wheel
        </button>
      </div>
      {wheel.data && (
        <p className="muted" data-testid="wheel-eligibility">
          {wheel.data.eligibility === "holders"
            ? "Who may spin: wallets holding a VVX NFT, or that bet or bought slots spins in the last 30 days (DAILY_SPIN_ELIGIBILITY=holders)."
            : "Who may spin: any wallet, once a UTC day (DAILY_SPIN_ELIGIBILITY=any). Set it to holders to keep the wheel for NFT holders and players."}{" "}
          Prize spins are worth {PRIZE_SPIN_VVX.toLocaleString("en-US")} VVX of play each; the paid column is what the wheel's Bonus sessions won that day.
        </p>
      )}
      {wheel.error ? (
        <div className="stack" role="alert">
          <p className="error-text">Failed to load the wheel figures: {errorMessage(wheel.error)}</p>
          <button className="btn btn-outline" onClick={() => void wheel.mutate()}>
            Try Again
          </button>
        </div>
      ) : !wheel.data ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading the wheel figures...
        </p>
      ) : wheel.data.days.length === 0 ? (
        <p className="muted">Nobody has spun the wheel yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table stack-table" data-testid="wheel-table">
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Spins</th>
                <th scope="col">Wallets</th>
                <th scope="col">Prize spins won</th>
                <th scope="col">Bonus spins played</th>
                <th scope="col">Bonus sessions paid</th>
              </tr>
            </thead>
            <tbody>
              {wheel.data.days.map((d) => (
                <tr key={d.day}>
                  <td data-label="Day (UTC)">{d.day}</td>
                  <td data-label="Spins">{d.spins.toLocaleString("en-US")}</td>
                  <td data-label="Wallets">{d.wallets.toLocaleString("en-US")}</td>
                  <td data-label="Prize spins won">
                    {d.prizeSpins.toLocaleString("en-US")} <span className="muted">({formatAmount(String(d.prizeSpins * PRIZE_SPIN_VVX), "VVX")} of play)</span>
                  </td>
                  <td data-label="Bonus spins played">{d.bonusSpinsPlayed.toLocaleString("en-US")}</td>
                  <td data-label="Bonus sessions paid">{formatAmount(d.bonusPaid, "VVX")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
