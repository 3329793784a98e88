import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import useSWR, { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import { getJson } from "../../lib/api";
import { shortAddress } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { toast } from "../../state/toast";
import { connectWallet, walletState } from "../wallet/walletStore";
import {
  balanceKey,
  checkXrpAmount,
  createSwap,
  createTrustline,
  createXappPayment,
  CreateError,
  groupDecimal,
  signStatus,
  trustlineKey,
  xrpFromDrops,
  type Created,
  type TrustlineStatus,
} from "./api";
import { InfoCard, InfoTiles, QuoteBox } from "./parts";
import { SignDialog, type SignRequest } from "./SignDialog";
import { useQuote } from "./useQuote";

/** /buy-vvx and /swap: swap XRP for VVX through the XRP/VVX AMM, after a one-time VVX trustline. */
export default function BuyVvxPage() {
  usePageTitle("Buy VVX");
  const { walletAddress, checking, connecting, environment } = useSnapshot(walletState);
  const inXumm = environment?.isInXumm === true;
  const [amount, setAmount] = useState("");
  const [creating, setCreating] = useState<"swap" | "trustline" | null>(null);
  const [dialog, setDialog] = useState<SignRequest | null>(null);
  const [params, setParams] = useSearchParams();
  const { mutate } = useSWRConfig();

  const trust = useSWR<TrustlineStatus>(walletAddress ? trustlineKey(walletAddress) : null, getJson);
  const balance = useSWR<{ balance: string }>(walletAddress ? balanceKey(walletAddress) : null, getJson);
  const checked = checkXrpAmount(amount);
  const { quote, loading: quoting, error: quoteError } = useQuote(checked.ok ? checked.value : null);

  const refresh = useCallback(() => {
    if (!walletAddress) return;
    void mutate(trustlineKey(walletAddress));
    void mutate(balanceKey(walletAddress));
  }, [walletAddress, mutate]);

  // Back from the Xaman app (xApp): follow the request it signed.
  const xapp = params.get("xapp");
  useEffect(() => {
    if (!xapp || !walletAddress) return;
    let cancelled = false;
    signStatus(xapp)
      .then((s) => {
        if (cancelled) return;
        setDialog({ kind: s.type === "vvx_trustline" ? "trustline" : "swap", uuid: xapp, wallet: walletAddress, qrUrl: null, xummUrl: null });
        setParams((p) => {
          p.delete("xapp");
          return p;
        }, { replace: true });
      })
      .catch(() => toast({ title: "Failed to check payment status", description: "The request from Xaman could not be found.", variant: "destructive" }));
    return () => {
      cancelled = true;
    };
  }, [xapp, walletAddress, setParams]);

  const open = (kind: SignRequest["kind"], wallet: string, res: Created, extra: Partial<SignRequest> = {}) => {
    const request: SignRequest = { kind, uuid: res.uuid, wallet, qrUrl: res.qrUrl ?? res.refs?.qr_png ?? null, xummUrl: res.xummUrl ?? res.next?.always ?? null, pushed: res.pushed, ...extra };
    if (inXumm && request.xummUrl) {
      // Inside Xaman the request opens in the app itself and returns to /buy-vvx?xapp=<uuid>.
      setDialog({ ...request, qrUrl: null });
      window.location.assign(request.xummUrl);
      return;
    }
    setDialog(request);
  };

  const start = async (kind: "swap" | "trustline") => {
    if (!walletAddress) return;
    setCreating(kind);
    try {
      if (kind === "trustline") {
        const res = inXumm ? await createXappPayment({ type: "trustline", walletAddress }) : await createTrustline(walletAddress);
        open("trustline", walletAddress, res);
      } else if (checked.ok) {
        const res = inXumm ? await createXappPayment({ type: "swap", walletAddress, xrpAmount: checked.value }) : await createSwap(walletAddress, checked.value);
        open("swap", walletAddress, res, { xrpAmount: checked.value, estimatedVvx: res.estimatedVvx ?? res.expectedVVX ?? quote?.vvxAmount, minimumVvx: res.minimumVvx });
      }
    } catch (err) {
      const title = err instanceof CreateError ? err.title : kind === "swap" ? "Failed to create swap transaction" : "Failed to create trustline transaction";
      toast({ title, description: err instanceof Error ? err.message : undefined, variant: "destructive" });
      if (err instanceof CreateError && /trustline/i.test(err.detail)) refresh();
    } finally {
      setCreating(null);
    }
  };

  const hasTrustline = trust.data?.hasTrustline === true;
  const blocked = !walletAddress
    ? "Connect your wallet to swap."
    : trust.data && !hasTrustline
      ? "Create a VVX trustline first."
      : quote?.priceImpactTooHigh
        ? "Swap a smaller amount: price impact above 50%."
        : null;
  const canSwap = Boolean(walletAddress && hasTrustline && checked.ok && quote && !quoting && !creating && !quote.priceImpactTooHigh);

  return (
    <section className="container swap-page">
      <header className="page-header">
        <p className="eyebrow">Buy VVX</p>
        <h1>Swap XRP for VVX</h1>
        <p className="muted lead-left">Live rate from the XRP/VVX pool on the XRP Ledger, 5% slippage protection, and no platform fees beyond the network fee.</p>
      </header>
      <div className="swap-layout">
        <section className="card swap-card stack" aria-labelledby="swap-card-title">
          <h2 id="swap-card-title">Swap</h2>
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
          {walletAddress && <TrustlineRow status={trust.data} error={trust.error} creating={creating === "trustline"} onCreate={() => void start("trustline")} onRetry={() => void trust.mutate()} />}
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
          <button className="btn btn-primary btn-lg swap-button" disabled={!canSwap} onClick={() => void start("swap")} aria-busy={creating === "swap"} data-testid="swap-button">
            {creating === "swap" && <span className="spinner" aria-hidden="true" />}
            {creating === "swap" ? "Creating swap…" : "Swap XRP for VVX"}
          </button>
          {blocked && <p className="muted small center-text">{blocked}</p>}
        </section>
        <InfoCard />
      </div>
      <InfoTiles />
      {dialog && <SignDialog request={dialog} onClose={() => setDialog(null)} onSettled={refresh} />}
    </section>
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
