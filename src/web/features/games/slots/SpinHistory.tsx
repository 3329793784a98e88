import { Link } from "react-router-dom";
import { explorerTxLink, useSiteConfig } from "../../../state/site";
import { fairLink, type SpinRecord } from "./api";
import { SymbolImage } from "./symbols";

const fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
const PAYOUT_TEXT: Record<string, string> = { queued: "Queued", pending: "Sending…", failed: "Retrying" };

/** Under a payout: its payment's transaction, or what the payment is doing until it has one; nothing for a spin that won nothing. */
function PaymentLine({ spin, explorerHref }: { spin: SpinRecord; explorerHref: string | undefined }) {
  if (spin.payoutStatus === "none") return null;
  const txid = spin.payoutTxid;
  const line = !txid ? (
    <span className="muted small">{PAYOUT_TEXT[spin.payoutStatus] ?? spin.payoutStatus}</span>
  ) : explorerHref ? (
    <a href={explorerHref} target="_blank" rel="noopener noreferrer" className="mono small" title={`Payment ${txid}`}>
      {txid.slice(0, 8)}…
    </a>
  ) : (
    <code className="small" title={`Payment ${txid}`}>{txid.slice(0, 8)}…</code>
  );
  return (
    <>
      <br />
      {line}
    </>
  );
}

/** The wallet's latest spins: reels, payout with its payment's transaction under it, and a link that checks the spin on /fair. */
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
                <th scope="col">Check</th>
              </tr>
            </thead>
            <tbody>
              {spins.map((s) => (
                  <tr key={s.spinId} data-testid="spin-row" data-payout={s.payoutStatus}>
                    <td className="mono small">
                      <Link to={`/slots/spin/${s.spinId}`} title={`Spin #${s.spinId}: its seeds, payout and a replay (nonce ${s.nonce})`}>
                        #{s.spinId}
                      </Link>
                    </td>
                    <td className="spin-reels">
                      {s.reels.map((r, i) => (
                        <SymbolImage key={i} name={r} size={24} />
                      ))}
                    </td>
                    <td>
                      <span className="mono spin-payout">{s.totalPayout > 0 ? `${fmt.format(s.totalPayout)} VVX` : "0"}</span>
                      <PaymentLine spin={s} explorerHref={s.payoutTxid ? explorerTxLink(site, s.payoutTxid) : undefined} />
                    </td>
                    <td className="small">
                      <Link to={fairLink("slots", { ...s })} title={s.serverSeed ? "Re-compute this spin from its seeds" : "The server seed is revealed when you rotate it"}>
                        {s.serverSeed ? "Verify" : "Seeds"}
                      </Link>
                    </td>
                  </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
