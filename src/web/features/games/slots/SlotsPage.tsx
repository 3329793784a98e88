import { useCallback, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import useSWR from "swr";
import { useSnapshot } from "valtio";
import { SLOT_SYMBOLS } from "../../../../engine";
import { errorMessage, getJson, HttpError } from "../../../lib/api";
import { usePageTitle } from "../../../lib/usePageTitle";
import { toast } from "../../../state/toast";
import { connectWallet, walletState } from "../../wallet/walletStore";
import { activeSessionUrl, createSession, fetchActiveSession, seedsUrl, spin, spinsUrl, type SeedPair, type SlotPayment, type SlotSession, type Spin, type SpinRecord } from "./api";
import { FairnessCard } from "./FairnessCard";
import { PackageChooser } from "./PackageChooser";
import { Paytable } from "./Paytable";
import { PaymentDialog } from "./PaymentDialog";
import { Reels, type ReelsHandle } from "./Reels";
import { REELS } from "./ReelsView";
import { SessionCard } from "./SessionCard";
import { SpinHistory } from "./SpinHistory";
import { symbolIndex } from "./symbols";
import "./slots.css";

/** The spec's session poll while a wallet is connected. */
const SESSION_POLL_MS = 3000;
const fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
const SESSION_EXPIRED = "Your session has expired. Please purchase new spins to continue playing.";
/** What the reels show before the first spin. */
const RESTING = [SLOT_SYMBOLS.findIndex((s) => s.name === "Star"), SLOT_SYMBOLS.findIndex((s) => s.name === "Diamond"), SLOT_SYMBOLS.findIndex((s) => s.name === "Star")];

type Banner = { kind: "win" | "partial" | "none"; title: string; text: string };

function bannerFor(s: Spin): Banner {
  if (s.isWin) {
    const title = s.winType === "mystery" ? `MYSTERY DICE ${s.mysteryMultiple}x!` : `THREE ${s.reels[0]!.toUpperCase()}S!`;
    return { kind: "win", title, text: `You win ${fmt.format(s.winAmount)} VVX (${s.multiplier}x your spin)` };
  }
  if (s.partialPayout > 0) return { kind: "partial", title: "Partial win", text: `+${fmt.format(s.partialPayout)} VVX (${s.multiplier}x your spin)` };
  return { kind: "none", title: "No win", text: "Three Skulls pay nothing. Spin again!" };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** /games/slots: the reels, the session card or the package chooser, fairness, payouts, and the wallet's spins. */
export default function SlotsPage() {
  usePageTitle("VVX Slots");
  const { walletAddress, isConnected } = useSnapshot(walletState);
  const wallet = isConnected ? walletAddress : null;
  const sessionKey = wallet ? activeSessionUrl(wallet) : null;
  const { data: sessionRes, error: sessionError, mutate: refreshSession } = useSWR<{ session: SlotSession | null }>(sessionKey, getJson, { refreshInterval: SESSION_POLL_MS });
  const { data: spinsRes, error: spinsError, mutate: refreshSpins } = useSWR<{ spins: SpinRecord[] }>(wallet ? spinsUrl(wallet) : null, getJson, { refreshInterval: SESSION_POLL_MS });
  const { data: seeds, mutate: refreshSeeds } = useSWR<SeedPair>(wallet ? seedsUrl(wallet) : null, getJson);
  const session = sessionRes?.session ?? null;

  const reels = useRef<ReelsHandle>(null);
  const [spinning, setSpinning] = useState(false);
  const [banner, setBanner] = useState<Banner | null>(null);
  const [shown, setShown] = useState<number[]>(RESTING);
  const [payment, setPayment] = useState<SlotPayment | null>(null);
  const [buying, setBuying] = useState<number | null>(null);
  const [finished, setFinished] = useState<string | null>(null);

  useEffect(() => {
    // A new wallet: nothing of the previous one stays on screen.
    setBanner(null);
    setFinished(null);
  }, [wallet]);

  const buy = useCallback(
    async (tierIndex: number) => {
      if (!wallet) {
        toast({ title: "Wallet Required", description: "Please connect your wallet to play", variant: "info" });
        return void connectWallet();
      }
      setBuying(tierIndex);
      try {
        const res = await createSession(wallet, tierIndex);
        setPayment(res.payment);
        setFinished(null);
      } catch (err) {
        toast({ title: "Error", description: err instanceof HttpError && err.status === 409 ? errorMessage(err) : errorMessage(err, "Failed to create payment request"), variant: "destructive" });
        if (err instanceof HttpError && err.status === 409) void refreshSession();
      } finally {
        setBuying(null);
      }
    },
    [wallet, refreshSession],
  );

  const onSpin = async () => {
    if (spinning) return;
    if (!wallet) return toast({ title: "Wallet Required", description: "Please connect your wallet to play", variant: "destructive" });
    if (!session) return toast({ title: "Payment Required", description: "Buy a spin package to play.", variant: "destructive" });
    if (session.remainingSpins <= 0) return toast({ title: "No Spins Left", description: "Buy another package to keep playing.", variant: "destructive" });
    setSpinning(true);
    setBanner(null);
    const started = performance.now();
    reels.current?.spin();
    try {
      // The spec: the session is rechecked before each spin.
      const current = (await fetchActiveSession(wallet)).session;
      if (!current) {
        reels.current?.halt();
        toast({ title: "Session Expired", description: SESSION_EXPIRED, variant: "destructive" });
        await refreshSession({ session: null }, { revalidate: true });
        return;
      }
      const res = await spin(current.sessionId, wallet);
      const targets = res.spin.reels.map(symbolIndex);
      await Promise.all([reels.current?.land(targets), wait(started + REELS.resultMs - performance.now())]);
      setShown(targets);
      const next = bannerFor(res.spin);
      setBanner(next);
      if (next.kind !== "none") reels.current?.highlight();
      if (res.sessionStatus === "completed") setFinished(`Session complete: you won ${fmt.format(res.totalWinnings)} VVX in this session. Buy another package to keep playing.`);
      await refreshSession(
        (prev) => (prev?.session?.sessionId === current.sessionId ? { session: res.sessionStatus === "completed" ? null : { ...current, remainingSpins: res.remainingSpins, totalWinnings: res.totalWinnings } } : prev),
        { revalidate: true },
      );
      void refreshSpins();
      void refreshSeeds();
    } catch (err) {
      reels.current?.halt();
      if (err instanceof HttpError && err.status === 403) {
        toast({ title: "Session Expired", description: SESSION_EXPIRED, variant: "destructive" });
        void refreshSession();
      } else {
        console.error("spin failed", err);
        toast({ title: "Error", description: "Failed to process spin", variant: "destructive" });
      }
    } finally {
      setSpinning(false);
    }
  };

  const reelsLabel = `Reels showing ${shown.map((i) => SLOT_SYMBOLS[i]?.name).join(", ")}`;
  // A session appearing while the dialog is open (the 3 s poll saw it) makes the dialog check at once.
  const sessionSeen = Boolean(payment && session);

  return (
    <section className="container slots-page">
      <header className="page-header slots-header">
        <p className="eyebrow">
          <Link to="/games">Games</Link> / VVX Slots
        </p>
        <h1>VVX Slots</h1>
        <p className="lead-left slots-tagline">Win up to 10,000,000 VVX</p>
      </header>

      <div className="slots-layout">
        <div className="slots-machine card">
          <Reels ref={reels} shown={shown} label={reelsLabel} />
          <div className="slots-banner-slot" aria-live="polite" data-testid="slots-banner" data-kind={banner?.kind ?? ""}>
            {banner && (
              <div className={`slots-banner slots-banner-${banner.kind}`}>
                <strong>{banner.title}</strong> <span>{banner.text}</span>
              </div>
            )}
          </div>
          <button className="btn btn-primary btn-lg spin-button" onClick={() => void onSpin()} disabled={spinning} aria-busy={spinning} data-testid="spin-button">
            {spinning ? "SPINNING..." : "SPIN!"}
          </button>
          <p className="muted small slots-status" data-testid="slots-status">
            {!wallet
              ? "Please connect your wallet to play"
              : sessionError
                ? "Your session could not be checked right now; retrying every 3 seconds."
                : !sessionRes
                  ? "Checking your session…"
                  : session
                    ? `${session.remainingSpins} spin${session.remainingSpins === 1 ? "" : "s"} left at ${fmt.format(session.spinCost)} VVX`
                    : (finished ?? "Payment Required: buy a package below to play.")}
          </p>
          {!wallet && (
            <button className="btn btn-outline" onClick={() => void connectWallet()}>
              Connect Wallet
            </button>
          )}
        </div>

        <div className="slots-side">
          {wallet && session ? <SessionCard session={session} serverSeedHash={seeds?.serverSeedHash ?? null} /> : <PackageChooser onBuy={(i) => void buy(i)} busyIndex={buying} disabled={!wallet} />}
          {wallet && <FairnessCard wallet={wallet} seeds={seeds} onChanged={() => void refreshSeeds()} />}
        </div>
      </div>

      <p className="small muted slots-bonus-rule" data-testid="bonus-rule">
        Daily-wheel prizes: spins you win on the <Link to="/">daily wheel</Link> are 1,000 VVX spins paid out in real VVX. They are added to your active Standard
        session if you have one; otherwise they become a Bonus session (played after any High Limit session).
      </p>

      <div className="slots-lower">
        <Paytable />
        {wallet && <SpinHistory spins={spinsRes?.spins} error={spinsError} />}
      </div>

      <PaymentDialog
        payment={payment}
        sessionSeen={sessionSeen}
        onConfirmed={(s) => {
          void refreshSession(s ? { session: s } : undefined, { revalidate: true });
          toast({ title: "Payment confirmed", description: s ? `${s.remainingSpins} spins are ready. Good luck!` : "Your spins are ready.", variant: "success" });
        }}
        onClose={() => setPayment(null)}
      />
    </section>
  );
}
