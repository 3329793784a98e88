import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router-dom";
import useSWR, { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import { errorMessage, getJson, HttpError } from "../../../lib/api";
import { usePageTitle } from "../../../lib/usePageTitle";
import { useWalletPush } from "../../../lib/useWalletPush";
import { toast } from "../../../state/toast";
import { connectWallet, walletState } from "../../wallet/walletStore";
import { activeSessionUrl, createSession, loadSeeds, seedsUrl, spinsUrl, type ActiveSession, type SeedPair, type SlotPayment, type SlotSession, type Spins } from "./api";
import { FairnessCard } from "./FairnessCard";
import { PackageChooser } from "./PackageChooser";
import { Paytable } from "./Paytable";
import { PaymentDialog } from "./PaymentDialog";
import { SessionCard } from "./SessionCard";
import { SlotMachine } from "./SlotMachine";
import { SpinHistory } from "./SpinHistory";
import { useSlotSpin } from "./useSlotSpin";
import "./slots.css";

/** The spec's session poll, run only while the wallet's channel is down (the spin list follows it, for payout txids). */
const SESSION_POLL_MS = 3000;

/** Packages can be bought with no session, or with only daily-wheel Bonus spins (the server refuses while a paid session is active). */
export const canBuyPackage = (session: SlotSession | null) => !session || (session.kind === "bonus" && session.queuedSessions === 0);

/** Buying a package: create-session, then the payment dialog (409 while a paid session is active). */
function usePackagePurchase(wallet: string | null, onConflict: () => void) {
  const [payment, setPayment] = useState<SlotPayment | null>(null);
  const [buying, setBuying] = useState<number | null>(null);
  const buy = useCallback(
    async (tierIndex: number) => {
      if (!wallet) {
        toast({ title: "Wallet Required", description: "Please connect your wallet to play", variant: "info" });
        return void connectWallet();
      }
      setBuying(tierIndex);
      try {
        setPayment((await createSession(wallet, tierIndex)).payment);
      } catch (err) {
        const conflict = err instanceof HttpError && err.status === 409;
        toast({ title: "Error", description: conflict ? errorMessage(err) : errorMessage(err, "Failed to create payment request"), variant: "destructive" });
        if (conflict) onConflict();
      } finally {
        setBuying(null);
      }
    },
    [wallet, onConflict],
  );
  return { payment, buying, buy, close: () => setPayment(null) };
}

/**
 * The session and the spins change by push (a package paid, a payout, a wheel prize, an expiry): each reloads
 * what it changed. Returns whether pushes arrive, and the SWR options of both: the spec's poll only while the wallet's channel is down.
 */
function useSlotsPush(wallet: string | null) {
  const { mutate: reload } = useSWRConfig();
  const reloadBoth = () => void (wallet && (reload(spinsUrl(wallet)), reload(activeSessionUrl(wallet))));
  const pushed = useWalletPush(
    wallet,
    (message) => {
      if (message.type === "slots.payout") reloadBoth();
      else if (wallet && (message.type === "slots.purchase" || message.type === "slots.session" || message.type === "wheel.spin")) void reload(activeSessionUrl(wallet));
    },
    reloadBoth,
  );
  return { pushed, poll: { refreshInterval: pushed ? 0 : SESSION_POLL_MS } };
}

/** Brings the package chooser into view and focuses its first Buy button. */
function showPackages() {
  const chooser = document.querySelector<HTMLElement>("[data-testid=slots-packages]");
  chooser?.scrollIntoView({ block: "start", behavior: "smooth" });
  chooser?.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus({ preventScroll: true });
}

/** /games/slots: the reels, the session card or the package chooser, fairness, payouts, and the wallet's spins. */
export default function SlotsPage() {
  usePageTitle("VVX Slots");
  const { walletAddress, isConnected } = useSnapshot(walletState);
  const wallet = isConnected ? walletAddress : null;
  const { pushed, poll } = useSlotsPush(wallet);
  const { data: sessionRes, error: sessionError, mutate: refreshSession } = useSWR<ActiveSession>(wallet ? activeSessionUrl(wallet) : null, getJson, poll);
  const { data: spinsRes, error: spinsError, mutate: refreshSpins } = useSWR<Spins>(wallet ? spinsUrl(wallet) : null, getJson, poll);
  const { data: seeds, mutate: refreshSeeds } = useSWR<SeedPair>(wallet ? seedsUrl(wallet) : null, loadSeeds);
  const session = sessionRes?.session ?? null;
  const machine = useSlotSpin({ wallet, session, refreshSession, onSpun: () => void (refreshSpins(), refreshSeeds()), onNeedPackage: showPackages });
  const purchase = usePackagePurchase(wallet, () => void refreshSession());
  const { reset } = machine;

  // A new wallet: nothing of the previous one stays on screen.
  useEffect(() => reset(), [wallet]); // eslint-disable-line react-hooks/exhaustive-deps -- on wallet change only

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
        <SlotMachine
          reels={machine.reels}
          shown={machine.shown}
          banner={machine.banner}
          spinning={machine.spinning}
          onSpin={() => void machine.press()}
          wallet={wallet}
          session={session}
          sessionState={sessionError ? "error" : sessionRes ? "ready" : "loading"}
          finished={machine.finished}
        />
        <div className="slots-side">
          {wallet && session && <SessionCard session={session} serverSeedHash={seeds?.serverSeedHash ?? null} />}
          {(!wallet || canBuyPackage(session)) && (
            <PackageChooser onBuy={(i) => void purchase.buy(i)} busyIndex={purchase.buying} disabled={!wallet} afterBonus={Boolean(wallet && session)} />
          )}
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
        payment={purchase.payment}
        // A session appearing while the dialog is open (pushed, or seen by the poll; perhaps queued behind Bonus spins) makes the dialog check at once.
        sessionKey={purchase.payment && session ? `${session.sessionId}:${session.queuedSessions}` : null}
        onConfirmed={(s) => {
          reset();
          // By push, the slots.purchase message already reloaded the session (the dialog confirmed on the same push).
          if (!pushed) void refreshSession(s ? { success: true, session: s } : undefined, { revalidate: true });
          toast({ title: "Payment confirmed", description: s ? `${s.remainingSpins} spins are ready. Good luck!` : "Your spins are ready.", variant: "success" });
        }}
        onClose={purchase.close}
      />
    </section>
  );
}
