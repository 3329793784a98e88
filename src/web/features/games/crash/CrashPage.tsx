import { useCallback } from "react";
import { Link } from "react-router-dom";
import useSWR from "swr";
import { useSnapshot } from "valtio";
import type { CrashFairness } from "../../../../shared/api/crash";
import { Dialog } from "../../../components/Dialog";
import { SoundToggle } from "../../../components/SoundToggle";
import { getJson } from "../../../lib/api";
import { useSound } from "../../../lib/sound";
import { usePageTitle } from "../../../lib/usePageTitle";
import { explorerTxLink, useSiteConfig } from "../../../state/site";
import { QrRequest } from "../../nfts/QrRequest";
import { toast } from "../../../state/toast";
import { connectWallet, walletState } from "../../wallet/walletStore";
import { balanceUrl, betsUrl, BURNS_URL, type Balance, type Burns, type CrashBets, type CrashBetView } from "./api";
import { BetCard } from "./BetCard";
import { CrashCanvas } from "./CrashCanvas";
import { BetHistory, PlayersList, PreviousCrashes, RecentPills } from "./RoundLists";
import { useBetPayment } from "./useBetPayment";
import { useCrashSounds } from "./sounds";
import { useCrashGame } from "./useCrashGame";
import "./crash.css";

/**
 * Until the chain's salt ledger is validated (a fresh server's first seconds) the salt is unknown: asked again until
 * it is. One function for the page's life: swr restarts its timer whenever the option changes, and the page renders
 * on every tick.
 */
const untilSalted = (latest: CrashFairness | undefined) => (latest?.salt ? 0 : 2_000);

/**
 * /games/crash: the live canvas, the last rounds, the Place Bet card, players, previous crashes and the wallet's bets, with sounds (mute toggle).
 * Long because it is the page's layout in one piece (its parts are components and hooks of their own).
 */
export default function CrashPage() {
  usePageTitle("Crash");
  const { walletAddress, isConnected } = useSnapshot(walletState);
  const wallet = isConnected ? walletAddress : null;
  const { data: site } = useSiteConfig();
  const { data: fairness } = useSWR<CrashFairness>("/api/crash/fairness", getJson, { refreshInterval: untilSalted });
  const { data: burns, mutate: refreshBurns } = useSWR<Burns>(BURNS_URL, getJson);
  const { data: bets, mutate: refreshBets } = useSWR<CrashBets>(wallet ? betsUrl(wallet) : null, getJson);
  const { data: balance, mutate: refreshBalance } = useSWR<Balance>(wallet ? balanceUrl(wallet) : null, getJson, {
    onError: () => undefined,
  });
  const refreshMine = useCallback(() => {
    void refreshBets();
    void refreshBalance();
    void refreshBurns();
  }, [refreshBets, refreshBalance, refreshBurns]);
  const onBurns = useCallback((totalVvxBurned: string) => void refreshBurns((b) => (b ? { ...b, totalVvxBurned } : b), { revalidate: !burns }), [refreshBurns, burns]);
  const game = useCrashGame(wallet, { onMine: refreshMine, onBurns });
  const bet = useBetPayment(refreshMine, () => game.status === "running");
  const sound = useSound(true);
  useCrashSounds(game, wallet, sound.play);

  return (
    <section className="container crash-page">
      <header className="page-header crash-header">
        <p className="eyebrow">
          <Link to="/games">Games</Link> / Crash
        </p>
        <h1>Crash</h1>
        <div className="crash-dots" aria-label="Connection status">
          <span className={`crash-dot ${wallet ? "crash-dot-on" : "crash-dot-off"}`} data-testid="crash-wallet-dot">
            Wallet {wallet ? "connected" : "not connected"}
          </span>
          <span className={`crash-dot ${game.socket === "open" ? "crash-dot-on" : game.socket === "failed" ? "crash-dot-bad" : "crash-dot-wait"}`} data-testid="crash-server-dot">
            Game server {game.socket === "open" ? "connected" : game.socket === "failed" ? "unreachable" : "connecting"}
          </span>
          {game.socket === "failed" && (
            <button className="btn btn-outline btn-small" onClick={game.retry}>
              Retry
            </button>
          )}
          <SoundToggle on={sound.on} onToggle={sound.toggle} />
        </div>
      </header>

      <RecentPills history={game.history} />

      {game.banner && (
        <div className="crash-banner" role="status" data-testid="crash-banner">
          {game.banner}
        </div>
      )}

      <div className="crash-layout">
        <div className="crash-main stack">
          <CrashCanvas timeline={game.timeline} fallback={game.status === "waiting" ? `Round #${game.round} starting…` : `${game.multiplier.toFixed(2)}x`} />
          <div className="crash-lists">
            <PlayersList players={game.players} me={wallet} crashed={game.status === "crashed"} />
            <PreviousCrashes history={game.history} salt={fairness?.salt ?? undefined} terminating={fairness?.terminatingHash} />
          </div>
        </div>
        <aside className="crash-side stack">
          <BetCard
            game={game}
            wallet={wallet}
            balance={balance ? Number(balance.balance) / 1e6 : null}
            payment={bet.status}
            loading={bet.loading}
            vvxBurned={burns?.totalVvxBurned ?? null}
            onConnect={() => void connectWallet()}
            onBet={(amount, auto) => void bet.place(amount, auto)}
            onCashOut={() => {
              if (!wallet) return toast({ title: "Error", description: "No wallet address available. Please reconnect your wallet.", variant: "destructive" });
              if (!game.send({ type: "cashOut", walletAddress: wallet })) toast({ title: "Connection Error", description: "Not connected to the game server. Could not cash out. Please try again.", variant: "destructive" });
            }}
          />
          {wallet && <BetHistory bets={bets?.bets ?? []} explorer={(txid) => explorerTxLink(site, txid) ?? "#"} />}
        </aside>
      </div>

      {bet.payment && (
        <Dialog open onClose={bet.cancel} title={`Bet ${bet.payment.betAmount} XRP`} labelledBy="crash-payment-title">
          <div className="stack" data-testid="crash-payment" data-uuid={bet.payment.uuid}>
            <p>
              Scan with Xaman to pay <strong>{bet.payment.betAmount} XRP</strong> to the treasury{bet.payment.autoCashOut ? `, auto cash-out at ${bet.payment.autoCashOut.toFixed(2)}x` : ""}. The bet counts once the payment is validated on the ledger.
            </p>
            <QrRequest qrUrl={bet.payment.qrUrl} xummUrl={bet.payment.xummUrl} uuid={bet.payment.uuid} alt="QR code of the bet payment" testId="crash-payment-qr" />
            <p className="purchase-status" role="status">
              <span className="spinner" aria-hidden="true" /> Waiting for your signature…
            </p>
            <p className="muted small">Destination tag {bet.payment.destinationTag}. A payment below 1 XRP, above 100 XRP, or a second bet in one round is refunded in full.</p>
            <button className="btn btn-outline" onClick={bet.cancel}>
              Cancel
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}
