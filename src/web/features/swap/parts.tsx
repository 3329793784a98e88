import useSWR from "swr";
import { getJson } from "../../lib/api";
import { groupDecimal, quoteKey, RATE_REFRESH_MS, type Quote } from "./api";

/** The info card: what the page does and the live rate from the pool. */
export function InfoCard() {
  const { data, error } = useSWR<Quote>(quoteKey("1"), getJson, { refreshInterval: RATE_REFRESH_MS });
  return (
    <section className="card swap-info" aria-labelledby="swap-info-title">
      <h2 id="swap-info-title">How it works</h2>
      <p className="muted">
        VVX pays for NFTs and slot packages. Swap XRP for VVX through the XRP Ledger's own XRP/VVX AMM pool: your wallet pays itself through the pool, so
        the XRP and the VVX never pass through the platform.
      </p>
      <p className="swap-rate" data-testid="live-rate">
        {data ? (
          <>
            1 XRP = <strong>{groupDecimal(data.spotRate, 2)} VVX</strong> <span className="muted small">(live pool rate, ledger #{data.ledgerIndex})</span>
          </>
        ) : error ? (
          <span className="error-text small">The live rate is not available right now.</span>
        ) : (
          <span className="muted small">Loading the live rate…</span>
        )}
      </p>
      <ul className="about-list">
        <li>5% slippage protection: you get at least 95% of the quote, or the swap fails and your XRP stays in your wallet.</li>
        <li>No platform fees beyond the network fee{data ? ` (${data.networkFee} XRP)` : ""}; the pool's own trading fee{data ? ` (${data.tradingFee}%)` : ""} is part of the quote.</li>
        <li>A VVX trustline is needed once, so your wallet can hold VVX.</li>
      </ul>
    </section>
  );
}

/** The quote box under the amount field. */
export function QuoteBox({ quote, loading, error }: { quote: Quote | null; loading: boolean; error: string | null }) {
  if (error) {
    return (
      <div className="swap-quote alert alert-error" role="alert" data-testid="swap-quote-error">
        {error}
      </div>
    );
  }
  if (!quote) {
    return (
      <div className="swap-quote swap-quote-empty muted small" data-testid="swap-quote" aria-live="polite">
        {loading ? (
          <>
            <span className="spinner" aria-hidden="true" /> Getting a quote from the pool…
          </>
        ) : (
          "Enter an XRP amount to see how much VVX you get."
        )}
      </div>
    );
  }
  return (
    <div className="swap-quote" data-testid="swap-quote" aria-live="polite" aria-busy={loading}>
      <div className="swap-quote-main">
        <span className="muted small">You receive about</span>
        <strong data-testid="swap-quote-vvx">{groupDecimal(quote.vvxAmount, 6)} VVX</strong>
      </div>
      <dl className="swap-quote-facts">
        <div>
          <dt>Rate</dt>
          <dd>1 XRP = {groupDecimal(quote.exchangeRate, 4)} VVX</dd>
        </div>
        <div>
          <dt>Minimum received</dt>
          <dd data-testid="swap-minimum">{groupDecimal(quote.minimumReceived, 6)} VVX</dd>
        </div>
        <div>
          <dt>Price impact</dt>
          <dd className={quote.priceImpactWarning ? "error-text" : undefined} data-testid="swap-impact">
            {quote.priceImpact}%
          </dd>
        </div>
        <div>
          <dt>Network fee</dt>
          <dd>{quote.networkFee} XRP</dd>
        </div>
      </dl>
      {quote.priceImpactTooHigh ? (
        <p className="alert alert-error small" role="alert">
          This amount would move the pool's price by {quote.priceImpact}%: swaps above 50% price impact are refused. Swap a smaller amount.
        </p>
      ) : (
        quote.priceImpactWarning && (
          <p className="alert alert-warning small" role="alert" data-testid="swap-impact-warning">
            High price impact: this amount moves the pool's price by {quote.priceImpact}%. You get noticeably fewer VVX per XRP than the live rate.
          </p>
        )
      )}
    </div>
  );
}

/** Inline SVG icons (no emoji font is needed to show them). */
function TileIcon({ kind }: { kind: "instant" | "secure" | "fees" }) {
  const common = { width: 36, height: 36, viewBox: "0 0 48 48", "aria-hidden": true, focusable: false } as const;
  if (kind === "instant") {
    return (
      <svg {...common}>
        <path d="M27 4 L9 27 H22 L19 44 L39 19 H26 Z" fill="#f59e0b" />
      </svg>
    );
  }
  if (kind === "secure") {
    return (
      <svg {...common}>
        <path d="M24 4 L40 10 V22 C40 33 33 40 24 44 C15 40 8 33 8 22 V10 Z" fill="#22c55e" />
        <path d="M16 24 L22 30 L33 18" fill="none" stroke="#0b0d17" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    );
  }
  return (
    <svg {...common}>
      <circle cx="24" cy="24" r="19" fill="#7c5cff" />
      <text x="24" y="30" fontSize="15" textAnchor="middle" fill="#fff" fontWeight="800">0%</text>
    </svg>
  );
}

const TILES = [
  { icon: "instant", title: "Instant Swaps", text: "The swap settles in the next ledger, usually within seconds." },
  { icon: "secure", title: "Secure Transactions", text: "You sign in Xaman; the ledger enforces the minimum you receive." },
  { icon: "fees", title: "No Platform Fees", text: "Only the network fee. The platform takes nothing from your swap." },
] as const;

/** The three info tiles. */
export function InfoTiles() {
  return (
    <ul className="grid grid-3 swap-tiles" aria-label="Why swap here">
      {TILES.map((t) => (
        <li key={t.title} className="card swap-tile">
          <TileIcon kind={t.icon} />
          <div>
            <h3>{t.title}</h3>
            <p className="muted small">{t.text}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
