import useSWR from "swr";
import { useSnapshot } from "valtio";
import type { HouseGame, HouseResponse } from "../../../shared/api/house";
import { getJson, HttpError, errorMessage } from "../../lib/api";
import { formatShortDate, shortAddress } from "../../lib/format";
import { walletState } from "../wallet/walletStore";

const HOUSE_KEY = "/api/admin/house";

/** An exact decimal from the API ("-12345.5") with thousands separators, never through a float. */
export function formatAmount(text: string, currency: string): string {
  const negative = text.startsWith("-");
  const [whole, fraction] = (negative ? text.slice(1) : text).split(".");
  const grouped = BigInt(whole || "0").toLocaleString("en-US");
  return `${negative ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""} ${currency}`;
}

const rtp = (value: number) => `${(value * 100).toFixed(2)}%`;

/**
 * /admin: each game's results from the books (GET /api/admin/house): what was wagered and paid, the
 * house's profit, the realized return to player next to the theoretical one, what is still owed or
 * riding, the burns, and each game's biggest wins. Long because its loading, error and table states
 * for desktop and phone read best in one place.
 */
export function HouseCard() {
  const { walletAddress, checking } = useSnapshot(walletState);
  const house = useSWR<HouseResponse>(checking ? null : ([HOUSE_KEY, walletAddress] as const), ([url]: readonly [string, string | null]) => getJson<HouseResponse>(url));
  const refused = house.error instanceof HttpError && (house.error.status === 401 || house.error.status === 403);
  if (refused) return null;

  return (
    <div className="card section-gap stack" data-testid="house-card">
      <div className="row-between wrap">
        <h2>The house, per game</h2>
        <button className="btn btn-outline" onClick={() => void house.mutate()} disabled={house.isValidating}>
          {house.isValidating && <span className="spinner" aria-hidden="true" />}
          Reload figures
        </button>
      </div>
      <p className="muted">
        Sums of the recorded bets and spins, not estimates. Refunded bets are not plays. Open liabilities are winnings recorded but not yet validated on the ledger,
        plus stakes still riding.
      </p>
      {house.error ? (
        <div className="stack" role="alert">
          <p className="error-text">Failed to load the house figures: {errorMessage(house.error)}</p>
          <button className="btn btn-outline" onClick={() => void house.mutate()}>
            Try Again
          </button>
        </div>
      ) : !house.data ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading the house figures...
        </p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table stack-table" data-testid="house-table">
              <thead>
                <tr>
                  <th scope="col">Game</th>
                  <th scope="col">Plays</th>
                  <th scope="col">Wagered</th>
                  <th scope="col">Paid</th>
                  <th scope="col">House profit</th>
                  <th scope="col">Return to player / by the rules</th>
                  <th scope="col">Open liabilities</th>
                </tr>
              </thead>
              <tbody>
                {house.data.games.map((g) => (
                  <tr key={g.game}>
                    <td data-label="Game">
                      <strong>{g.label}</strong>
                    </td>
                    <td data-label="Plays">{g.plays.toLocaleString("en-US")}</td>
                    <td data-label="Wagered">{formatAmount(g.wagered, g.currency)}</td>
                    <td data-label="Paid">{formatAmount(g.paid, g.currency)}</td>
                    <td data-label="House profit" className={g.houseProfit.startsWith("-") ? "error-text" : undefined}>
                      {formatAmount(g.houseProfit, g.currency)}
                    </td>
                    <td data-label="Return to player" className="stack-prose">
                      {g.realizedRtp === null ? "No stakes yet" : rtp(g.realizedRtp)}
                      <span className="muted"> / {g.theoreticalRtp === null ? "free spins" : `${rtp(g.theoreticalRtp)} by the rules`}</span>
                    </td>
                    <td data-label="Open liabilities">{formatAmount(g.openLiabilities, g.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>
            Crash burns: {house.data.burns.count.toLocaleString("en-US")} validated, {formatAmount(house.data.burns.xrpSpent, "XRP")} spent on{" "}
            {formatAmount(house.data.burns.vvxBurned, "VVX")} destroyed.
          </p>
          <div className="stack">
            {house.data.games.map((g) => (
              <BiggestWins key={g.game} game={g} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}

function BiggestWins({ game }: { game: HouseGame }) {
  return (
    <div>
      <h3>Biggest wins: {game.label}</h3>
      {game.biggestWins.length === 0 ? (
        <p className="muted">No wins yet.</p>
      ) : (
        <ol className="stack-prose">
          {game.biggestWins.map((w) => (
            <li key={`${w.wallet}-${w.at}-${w.profit}`}>
              <span className="mono" title={w.wallet}>
                {shortAddress(w.wallet)}
              </span>{" "}
              won {formatAmount(w.profit, game.currency)}
              {w.multiple !== null && ` at ${w.multiple.toFixed(2)}x`}
              {w.round !== null && ` in round ${w.round}`}, {formatShortDate(w.at)}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
