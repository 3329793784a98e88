import { Link } from "react-router-dom";
import { explorerTxLink, useSiteConfig } from "../../../state/site";
import { fairLink, type SpinRecord } from "./api";
import { SymbolImage } from "./symbols";

const fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
const PAYOUT_TEXT: Record<string, string> = { none: "-", queued: "Queued", pending: "Sending…", failed: "Retrying" };

/** The wallet's latest spins: reels, payout, the payout's transaction, and a link that checks the spin on /fair. */
export function SpinHistory({ spins, error }: { spins: SpinRecord[] | undefined; error: unknown }) {
  const { data: site } = useSiteConfig();
  return (
    <section className="card slots-history" aria-labelledby="history-title" data-testid="slots-history">
      <h2 id="history-title">Your spins</h2>
      {error ? (
        <p className="error-text">Your spins could not be loaded right now.</p>
      ) : !spins ? (
        <p className="muted">
          <span className="spinner" aria-hidden="true" /> Loading…
        </p>
      ) : spins.length === 0 ? (
        <p className="muted">No spins yet. Your spins, their payouts and their seeds appear here.</p>
      ) : (
        <div className="table-wrap">
          <table className="table spin-table">
            <thead>
              <tr>
                <th scope="col">Spin</th>
                <th scope="col">Reels</th>
                <th scope="col">Payout</th>
                <th scope="col">Payment</th>
                <th scope="col">Check</th>
              </tr>
            </thead>
            <tbody>
              {spins.map((s) => {
                const tx = s.payoutTxid ? explorerTxLink(site, s.payoutTxid) : undefined;
                return (
                  <tr key={s.spinId} data-testid="spin-row" data-payout={s.payoutStatus}>
                    <td className="mono small">#{s.nonce}</td>
                    <td className="spin-reels">
                      {s.reels.map((r, i) => (
                        <SymbolImage key={i} name={r} size={24} />
                      ))}
                    </td>
                    <td className="mono">{s.totalPayout > 0 ? `${fmt.format(s.totalPayout)} VVX` : "0"}</td>
                    <td className="small">
                      {s.payoutTxid ? (
                        tx ? (
                          <a href={tx} target="_blank" rel="noopener noreferrer" className="mono" title={s.payoutTxid}>
                            {s.payoutTxid.slice(0, 8)}…
                          </a>
                        ) : (
                          <code title={s.payoutTxid}>{s.payoutTxid.slice(0, 8)}…</code>
                        )
                      ) : (
                        <span className="muted">{PAYOUT_TEXT[s.payoutStatus] ?? s.payoutStatus}</span>
                      )}
                    </td>
                    <td className="small">
                      <Link to={fairLink("slots", { ...s })} title={s.serverSeed ? "Re-compute this spin from its seeds" : "The server seed is revealed when you rotate it"}>
                        {s.serverSeed ? "Verify" : "Seeds"}
                      </Link>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
