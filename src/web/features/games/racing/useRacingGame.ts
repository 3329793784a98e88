import { useCallback, useEffect, useRef, useState } from "react";
import type { BetInitiateResponse, PlayerView, RaceRecord, RaceStateView, RacingPaymentStatus } from "../../../../shared/api/racing";
import { errorMessage, sendJson } from "../../../lib/api";
import type { SocketFactory, SocketLike } from "../../../lib/socket";
import { toast } from "../../../state/toast";
import { RacingSocket, racingSocketUrl, type PageVisibility } from "./racingSocket";

/** The spec: the QR dialog closes 2 s after a final status. */
export const DIALOG_CLOSE_MS = 2_000;

export type ConnectionStatus = "connecting" | "open" | "retrying" | "paused";

/** The bet payment the dialog shows. */
export interface PaymentView {
  bet: BetInitiateResponse;
  status: RacingPaymentStatus;
  /** Why it failed (refund reason in words), when it did. */
  message: string | null;
}

type Message = { type: string; [key: string]: unknown };

const socketFactory: SocketFactory = (url) => new WebSocket(url) as unknown as SocketLike;

/** The game as the page and the embed see it, from the race socket. */
export interface RaceFeed {
  connection: ConnectionStatus;
  state: RaceStateView | null;
  players: PlayerView[];
  history: RaceRecord[];
  /** Server clock minus this browser's clock, in ms (the lanes use server time). */
  offsetMs: number;
}

/** Follows /ws/games/unicorn-racing: the public state for everyone, private messages for `wallet`. */
export function useRaceFeed(wallet: string | null, onPrivate?: (message: Message) => void, hidden?: PageVisibility): RaceFeed & { send(message: object): boolean } {
  const [feed, setFeed] = useState<RaceFeed>({ connection: "connecting", state: null, players: [], history: [], offsetMs: 0 });
  const socket = useRef<RacingSocket | null>(null);
  const privateHandler = useRef(onPrivate);
  privateHandler.current = onPrivate;

  useEffect(() => {
    const onMessage = (m: Message) => {
      if (m.type === "gameState") {
        const data = m.data as { raceState: RaceStateView; players: PlayerView[] };
        setFeed((f) => ({ ...f, state: data.raceState, players: data.players, offsetMs: data.raceState.serverTime - Date.now() }));
      } else if (m.type === "raceHistory") {
        setFeed((f) => ({ ...f, history: m.data as RaceRecord[] }));
      } else if (m.type !== "keepalive" && m.type !== "pong") privateHandler.current?.(m);
    };
    let lastStatus: ConnectionStatus = "connecting";
    const s = new RacingSocket(
      racingSocketUrl(),
      wallet,
      socketFactory,
      {
        message: onMessage,
        status: (status) => {
          if (status === "retrying" && lastStatus === "open") toast({ title: "Connection Issue", description: "Not connected to racing server. Trying to reconnect...", variant: "info" });
          lastStatus = status;
          setFeed((f) => ({ ...f, connection: status }));
        },
      },
      hidden,
    );
    socket.current = s;
    s.start();
    const resume = () => s.resume();
    document.addEventListener("visibilitychange", resume);
    window.addEventListener("focus", resume);
    return () => {
      document.removeEventListener("visibilitychange", resume);
      window.removeEventListener("focus", resume);
      s.stop();
      socket.current = null;
    };
  }, [wallet]);

  const send = useCallback((message: object) => socket.current?.send(message) ?? false, []);
  return { ...feed, send };
}

/** Why a bet's payment was refunded, in words (the server's reason codes). */
export function refundReasonText(reason: string | null): string {
  switch (reason) {
    case "betting_closed":
      return "Betting had closed for this race when your payment was validated. It has been refunded in full.";
    case "race_full":
      return "This race is full, please bet on the next one. Your payment has been refunded in full.";
    case "short":
    case "below_min":
      return "The payment was less than the bet. It has been refunded in full.";
    case "above_max":
      return "The payment was above 100 XRP. It has been refunded in full.";
    case "second_bet":
      return "You have already placed a bet for this race. This payment has been refunded in full.";
    case "expired":
      return "The payment arrived after the request expired. It has been refunded in full.";
    case null:
      return "The payment did not go through.";
    default:
      return `The payment was refunded (${reason.replace(/_/g, " ")}).`;
  }
}

/** A wallet's bet flow: initiate, the payment dialog following paymentStatus, and the race results. */
export function useRacingBets(wallet: string | null) {
  const [payment, setPayment] = useState<PaymentView | null>(null);
  const [placing, setPlacing] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const current = useRef<PaymentView | null>(null);
  current.current = payment;

  const update = useCallback((betId: string, status: RacingPaymentStatus, message: string | null) => {
    const p = current.current;
    // The spec: once confirmed, later status updates are ignored.
    if (!p || p.bet.betId !== betId || p.status === "confirmed" || p.status === status) return;
    setPayment({ ...p, status, message });
    if (status === "confirmed" || status === "failed" || status === "timeout") {
      clearTimeout(closeTimer.current);
      closeTimer.current = setTimeout(() => setPayment(null), DIALOG_CLOSE_MS);
    }
  }, []);

  const onPrivate = useCallback((m: Message) => handlePrivate(m, update, () => setPlacing(false)), [update]);
  const feed = useRaceFeed(wallet, onPrivate);

  const place = useCallback(
    async (unicornName: string, betAmount: number) => {
      setPlacing(true);
      try {
        const bet = await sendJson<BetInitiateResponse>("POST", "/api/unicorn-bet/initiate", { walletAddress: wallet, betAmount, unicornName });
        setPayment({ bet, status: "pending", message: null });
        feed.send({ type: "betCreated", betId: bet.betId, walletAddress: wallet, betAmount, unicornName });
      } catch (err) {
        toast({ title: "Error Placing Bet", description: errorMessage(err, "Failed to create bet"), variant: "destructive" });
      } finally {
        setPlacing(false);
      }
    },
    [wallet, feed.send], // eslint-disable-line react-hooks/exhaustive-deps -- send is stable
  );

  const close = useCallback(() => {
    const p = current.current;
    clearTimeout(closeTimer.current);
    if (p && p.status === "pending") toast({ title: "Payment Canceled", description: "You closed the payment dialog. If you did not sign it, no bet was placed.", variant: "info" });
    setPayment(null);
  }, []);

  useEffect(() => () => clearTimeout(closeTimer.current), []);
  return { feed, payment, placing, place, close };
}

/** The private messages: payment steps, the confirmation, the result toast, errors shown as they are. */
function handlePrivate(m: Message, update: (betId: string, status: RacingPaymentStatus, message: string | null) => void, clearLoading: () => void): void {
  if (m.type === "paymentStatus") {
    const status = m.status as RacingPaymentStatus;
    update(String(m.betId), status, status === "failed" ? refundReasonText((m.reason as string | null) ?? null) : null);
  } else if (m.type === "betConfirmed") {
    update(String(m.betId), "confirmed", null);
    toast({ title: "Bet Confirmed", description: `You bet ${m.betAmount} XRP on ${m.unicornName}. Good luck!`, variant: "success" });
  } else if (m.type === "raceResult") {
    if (m.isWinner) toast({ title: "You Won!", description: `${m.winningUnicorn} won the race: ${m.payout} XRP is on its way to your wallet (+${m.profit} XRP).`, variant: "success", durationMs: 6000 });
    else toast({ title: "Race Finished", description: `${m.winningUnicorn} won the race. Your bet on ${m.unicornName} did not win.`, variant: "destructive", durationMs: 5000 });
  } else if (m.type === "error") {
    clearLoading();
    toast({ title: "Error", description: String(m.message), variant: "destructive" });
  }
}
