import { useCallback, useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import { usePageTitle } from "../../lib/usePageTitle";
import { toast } from "../../state/toast";
import { walletState } from "../wallet/walletStore";
import { balanceKey, createSwap, createTrustline, createXappPayment, CreateError, signStatus, trustlineKey, type Created, type Quote } from "./api";
import { InfoCard, InfoTiles } from "./parts";
import { SignDialog, type SignRequest } from "./SignDialog";
import { SwapCard } from "./SwapCard";

/** /buy-vvx and /swap: swap XRP for VVX through the XRP/VVX AMM, after a one-time VVX trustline. */
export default function BuyVvxPage() {
  usePageTitle("Buy VVX");
  const { walletAddress, environment } = useSnapshot(walletState);
  const inXumm = environment?.isInXumm === true;
  const [creating, setCreating] = useState<"swap" | "trustline" | null>(null);
  const [dialog, setDialog] = useState<SignRequest | null>(null);
  const { mutate } = useSWRConfig();

  const refresh = useCallback(() => {
    if (!walletAddress) return;
    void mutate(trustlineKey(walletAddress));
    void mutate(balanceKey(walletAddress));
  }, [walletAddress, mutate]);
  useXappReturn(walletAddress, setDialog);

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

  /** Creates the swap (xrp given) or the trustline request and opens its dialog; failures toast the spec's titles. */
  const start = async (kind: "swap" | "trustline", xrp?: string, quote?: Quote | null) => {
    if (!walletAddress) return;
    setCreating(kind);
    try {
      if (kind === "trustline") {
        const res = inXumm ? await createXappPayment({ type: "trustline", walletAddress }) : await createTrustline(walletAddress);
        open("trustline", walletAddress, res);
      } else if (xrp) {
        const res = inXumm ? await createXappPayment({ type: "swap", walletAddress, xrpAmount: xrp }) : await createSwap(walletAddress, xrp);
        open("swap", walletAddress, res, { xrpAmount: xrp, estimatedVvx: res.estimatedVvx ?? res.expectedVVX ?? quote?.vvxAmount, minimumVvx: res.minimumVvx });
      }
    } catch (err) {
      const title = err instanceof CreateError ? err.title : kind === "swap" ? "Failed to create swap transaction" : "Failed to create trustline transaction";
      toast({ title, description: err instanceof Error ? err.message : undefined, variant: "destructive" });
      if (err instanceof CreateError && /trustline/i.test(err.detail)) refresh();
    } finally {
      setCreating(null);
    }
  };

  return (
    <section className="container swap-page">
      <header className="page-header">
        <p className="eyebrow">Buy VVX</p>
        <h1>Swap XRP for VVX</h1>
        <p className="muted lead-left">Live rate from the XRP/VVX pool on the XRP Ledger, 5% slippage protection, and no platform fees beyond the network fee.</p>
      </header>
      <div className="swap-layout">
        <SwapCard walletAddress={walletAddress} creating={creating} onSwap={(xrp, quote) => void start("swap", xrp, quote)} onTrustline={() => void start("trustline")} />
        <InfoCard />
      </div>
      <InfoTiles />
      {dialog && <SignDialog request={dialog} onClose={() => setDialog(null)} onSettled={refresh} />}
    </section>
  );
}

/** Back from the Xaman app (xApp) with `?xapp=<uuid>`: opens the dialog that follows that request. */
function useXappReturn(walletAddress: string | null, setDialog: (request: SignRequest) => void) {
  const [params, setParams] = useSearchParams();
  const xapp = params.get("xapp");
  useEffect(() => {
    if (!xapp || !walletAddress) return;
    let cancelled = false;
    signStatus(xapp)
      .then((s) => {
        if (cancelled) return;
        setDialog({ kind: s.type === "vvx_trustline" ? "trustline" : "swap", uuid: xapp, wallet: walletAddress, qrUrl: null, xummUrl: null });
        setParams(
          (p) => {
            p.delete("xapp");
            return p;
          },
          { replace: true },
        );
      })
      .catch(() => toast({ title: "Failed to check payment status", description: "The request from Xaman could not be found.", variant: "destructive" }));
    return () => {
      cancelled = true;
    };
  }, [xapp, walletAddress, setParams, setDialog]);
}
