import { useState } from "react";
import useSWR from "swr";
import { useSnapshot } from "valtio";
import { getJson } from "../../lib/api";
import { shortAddress } from "../../lib/format";
import { connectWallet, walletState } from "../wallet/walletStore";
import { balanceKey, checkXrpAmount, groupDecimal, trustlineKey, xrpFromDrops, type Balance, type Quote, type TrustlineStatus } from "./api";
import { QuoteBox } from "./parts";
import { useQuote } from "./useQuote";

/** The swap card: wallet and trustline status, the XRP amount, the live quote and the swap button. */
export function SwapCard({
  walletAddress,
  creating,
  onSwap,
  onTrustline,
}: {
  walletAddress: string | null;
  creating: "swap" | "trustline" | null;
  onSwap: (xrp: string, quote: Quote) => void;
  onTrustline: () => void;
}) {
  const [amount, setAmount] = useState("");
  const trust = useSWR<TrustlineStatus>(walletAddress ? trustlineKey(walletAddress) : null, getJson);
  const checked = checkXrpAmount(amount);
  const { quote, loading: quoting, error: quoteError } = useQuote(checked.ok ? checked.value : null);

  const hasTrustline = trust.data?.hasTrustline === true;
  // The spec: disabled without a quote, without an amount, or while loading; a trustline comes first.
  const blocked = !walletAddress
    ? "Connect your wallet to swap."
    : trust.data && !hasTrustline
      ? "Create a VVX trustline first."
      : quote?.priceImpactTooHigh
        ? "Swap a smaller amount: price impact above 50%."
        : null;
  const canSwap = Boolean(walletAddress && hasTrustline && checked.ok && quote && !quoting && !creating && !quote.priceImpactTooHigh);

  return (
    <section className="card swap-card stack" aria-labelledby="swap-card-title">
      <h2 id="swap-card-title">Swap</h2>
      <WalletRow walletAddress={walletAddress} />
      {walletAddress && <TrustlineRow status={trust.data} error={trust.error} creating={creating === "trustline"} onCreate={onTrustline} onRetry={() => void trust.mutate()} />}
      <label className="field" htmlFor="swap-xrp">
        You pay (XRP)
        <input
          id="swap-xrp"
          className="input swap-input"
          type="number"
          inputMode="decimal"
          min="0"
          step="0.000001"
          placeholder="0.0"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-invalid={!checked.ok && checked.reason !== null}
          aria-describedby="swap-xrp-hint"
          data-testid="swap-amount"
        />
      </label>
      <p id="swap-xrp-hint" className={!checked.ok && checked.reason ? "error-text small" : "muted small"}>
        {!checked.ok && checked.reason ? checked.reason : "Up to 6 decimals (0.000001 XRP). Reserves and the network fee stay in your wallet."}
      </p>
      <QuoteBox quote={quote} loading={quoting} error={quoteError} />
      <button
        className="btn btn-primary btn-lg swap-button"
        disabled={!canSwap}
        onClick={() => checked.ok && quote && onSwap(checked.value, quote)}
        aria-busy={creating === "swap"}
        data-testid="swap-button"
      >
        {creating === "swap" && <span className="spinner" aria-hidden="true" />}
        {creating === "swap" ? "Creating swap…" : "Swap XRP for VVX"}
      </button>
      {blocked && <p className="muted small center-text">{blocked}</p>}
    </section>
  );
}

/** The connected wallet and its XRP balance, or the connect button. */
function WalletRow({ walletAddress }: { walletAddress: string | null }) {
  const { checking, connecting } = useSnapshot(walletState);
  const balance = useSWR<Balance>(walletAddress ? balanceKey(walletAddress) : null, getJson);
  return (
    <div className="swap-status-row" data-testid="swap-wallet-status">
      <span className="muted small">Wallet</span>
      {walletAddress ? (
        <span className="swap-status-value">
          <span className="mono" title={walletAddress}>
            {shortAddress(walletAddress)}
          </span>
          <span className="badge badge-active">Connected</span>
          <span className="muted small" data-testid="swap-balance">
            {balance.data ? `${groupDecimal(xrpFromDrops(balance.data.balance), 6)} XRP` : balance.error ? "Could not fetch wallet balance" : "…"}
          </span>
        </span>
      ) : (
        <button className="btn btn-primary" onClick={() => void connectWallet()} disabled={checking || connecting}>
          {connecting ? "Connecting..." : "Connect Wallet"}
        </button>
      )}
    </div>
  );
}

/** The wallet's VVX trustline: its state, the issuer, and the create button. */
function TrustlineRow({ status, error, creating, onCreate, onRetry }: { status?: TrustlineStatus; error?: unknown; creating: boolean; onCreate: () => void; onRetry: () => void }) {
  return (
    <div className="swap-trustline" data-testid="swap-trustline">
      <div className="swap-status-row">
        <span className="muted small">VVX trustline</span>
        {error ? (
          <span className="swap-status-value">
            <span className="error-text small">Failed to check VVX trustline status</span>
            <button className="btn btn-outline" onClick={onRetry}>
              Retry
            </button>
          </span>
        ) : !status ? (
          <span className="muted small">
            <span className="spinner" aria-hidden="true" /> Checking…
          </span>
        ) : status.hasTrustline ? (
          <span className="swap-status-value">
            <span className="badge badge-active">Active</span>
            <span className="muted small">{groupDecimal(status.balance, 6)} VVX</span>
          </span>
        ) : (
          <span className="swap-status-value">
            <span className="badge badge-missing">Not set</span>
            <button className="btn btn-primary" onClick={onCreate} disabled={creating || !status.funded} aria-busy={creating} data-testid="trustline-create">
              {creating && <span className="spinner" aria-hidden="true" />}
              Create Trustline
            </button>
          </span>
        )}
      </div>
      {status && (
        <p className="small muted swap-issuer">
          Issuer: <span className="mono">{status.issuer}</span>
        </p>
      )}
      {status && !status.funded && <p className="small error-text">This wallet is not activated on the ledger yet: fund it with XRP first.</p>}
    </div>
  );
}
