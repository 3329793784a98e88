import { useEffect, useRef, useState } from "react";
import type { CrashServerMessage } from "../../../../shared/api/crash";
import { foldCrashPlayers, NO_CRASH_PLAYERS, type CrashRoundPlayers } from "../../../../shared/crashPlayers";
import { toast } from "../../../state/toast";
import { CRASH_RULES, type CrashHistoryRound, type CrashPlayer, type CrashStatus } from "./api";
import { cashOutBanner, cashOutFollower, RECORDING, refundText, withCashOut, withRefund, type MyRound } from "./cashOutNews";
import { CRASH_SOCKET, GameSocket, gameSocketUrl, type GameSocketStatus, type SocketPolicy } from "./gameSocket";
import { newTimeline, observe, type Timeline } from "./timeline";

type GameState = Extract<CrashServerMessage, { type: "gameState" }>;

export interface CrashGameView {
  socket: GameSocketStatus;
  status: CrashStatus;
  round: number;
  players: CrashPlayer[];
  maxProfit: number;
  history: CrashHistoryRound[];
  /** The multiplier shown on the cash-out button (server ticks; the canvas draws its own, smoother). */
  multiplier: number;
  mine: MyRound | null;
  /** 'CASHED OUT AT x - XRP SENT!' while set (8 s); 'CASHED OUT AT x - RECORDING…' while the win waits for the server's database. */
  banner: string | null;
  timeline: Timeline;
  send(message: Record<string, unknown>): boolean;
  retry(): void;
}

const CONNECTION_TOASTS: Partial<Record<GameSocketStatus, { title: string; description: string; variant: "destructive" | "info" }>> = {
  reconnecting: { title: "Connection Lost", description: "Reconnecting to the game server…", variant: "info" },
  failed: { title: "Connection Failed", description: "Could not reach the game server. Please refresh the page.", variant: "destructive" },
};

/**
 * Long because it is the socket's one message switch next to the state it updates.
 * Follows /ws/games/crash for a page (the game page, or the embed with no wallet): the round's
 * state, ticks into the canvas timeline, the history, and the wallet's own bet, cash-out and
 * refunds. `onMine` runs whenever the wallet's bets change (the page refreshes its lists), a lost
 * bet included (the crash of a round the wallet rode); `onBurns` gets each new burn total.
 */
export function useCrashGame(wallet: string | null, options: { onMine?: () => void; onBurns?: (totalVvxBurned: string) => void; bannerMs?: number; quiet?: boolean; policy?: SocketPolicy } = {}): CrashGameView {
  const timeline = useRef<Timeline>(newTimeline());
  const socketRef = useRef<GameSocket | null>(null);
  const callbacks = useRef({ onMine: options.onMine, onBurns: options.onBurns, wallet });
  callbacks.current = { onMine: options.onMine, onBurns: options.onBurns, wallet };
  const crashedRound = useRef(0);
  const [socket, setSocket] = useState<GameSocketStatus>("connecting");
  const [state, setState] = useState<GameState | null>(null);
  // The players table, folded from the socket's first full gameState and the deltas after it (read at the crash too).
  const players = useRef<CrashRoundPlayers>(NO_CRASH_PLAYERS);
  const [table, setTable] = useState<CrashRoundPlayers>(NO_CRASH_PLAYERS);
  const [history, setHistory] = useState<CrashHistoryRound[]>([]);
  const [multiplier, setMultiplier] = useState(1);
  const [mine, setMine] = useState<MyRound | null>(null);
  const [banner, setBanner] = useState<string | null>(null);

  useEffect(() => {
    // A cash-out is told again once committed (after a pending one) and once paid, a refund again once paid: a repeat changes nothing.
    const cashOutNews = cashOutFollower();
    const handle = (m: CrashServerMessage) => {
      observe(timeline.current, m, performance.now());
      const folded = foldCrashPlayers(players.current, m);
      if (folded !== players.current) setTable((players.current = folded));
      switch (m.type) {
        case "gameState":
          setState(m);
          setMultiplier(m.currentMultiplier);
          // A new round in waiting resets the player's state (spec §4), unless the bet is for it.
          if (m.status === "waiting") setMine((cur) => (cur && cur.round >= m.round ? cur : null));
          if (m.status === "crashed") {
            setMine((cur) => (cur && cur.round === m.round && cur.cashedOutAt === null && cur.refunded === null ? { ...cur, lost: true } : cur));
            // The server settled the round before saying so: a bet of this wallet that rode it now reads lost (once per round).
            const me = callbacks.current.wallet;
            if (crashedRound.current !== m.round && me && players.current.players.some((p) => p.walletAddress === me)) callbacks.current.onMine?.();
            crashedRound.current = m.round;
          }
          return;
        case "tick":
          return setMultiplier(m.currentMultiplier);
        case "gameHistory":
          return setHistory(m.history);
        case "betConfirmed":
          setMine({ round: m.round, betId: m.betId, betAmount: m.betAmount, autoCashOut: m.autoCashOut, cashedOutAt: null, recording: false, payout: null, txid: null, lost: false, refunded: null });
          return callbacks.current.onMine?.();
        case "cashOutConfirmed": {
          if (!cashOutNews(m)) return;
          setMine((cur) => withCashOut(cur, m));
          const text = cashOutBanner(m);
          if (text) setBanner(text);
          return callbacks.current.onMine?.();
        }
        case "burnTotal":
          return callbacks.current.onBurns?.(m.totalVvxBurned);
        case "betRefunded":
          // A pending win its round's voiding overtook reads refunded, not "recording…" until the next round.
          if (cashOutNews(m)) {
            setMine((cur) => withRefund(cur, m));
            setBanner((text) => (text?.endsWith(RECORDING) ? null : text));
          }
          if (!m.txid) toast({ title: "Bet Refunded", description: refundText(m.reason, m.betAmount), variant: "info", durationMs: 6000 });
          return callbacks.current.onMine?.();
        case "error":
          if (!options.quiet) toast({ title: "Error", description: m.message || "Could not cash out. Please try again.", variant: "destructive" });
          return;
      }
    };
    const s = new GameSocket(gameSocketUrl("crash"), {
      onMessage: handle,
      onStatus: (status) => {
        setSocket(status);
        const t = CONNECTION_TOASTS[status];
        if (t && !options.quiet) toast({ ...t, durationMs: 5000 });
      },
    }, undefined, options.policy ?? CRASH_SOCKET);
    socketRef.current = s;
    s.start();
    return () => {
      s.stop();
      socketRef.current = null;
    };
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- one socket per page

  useEffect(() => socketRef.current?.setWallet(wallet), [wallet]);

  useEffect(() => {
    if (!banner) return;
    const t = setTimeout(() => setBanner(null), options.bannerMs ?? CRASH_RULES.bannerMs);
    return () => clearTimeout(t);
  }, [banner, options.bannerMs]);

  return {
    socket,
    status: state?.status ?? "waiting",
    round: state?.round ?? 0,
    players: state && table.round === state.round ? table.players : [],
    maxProfit: state?.maxProfit ?? 0,
    history,
    multiplier,
    mine,
    banner,
    timeline: timeline.current,
    send: (m) => socketRef.current?.send(m) ?? false,
    retry: () => socketRef.current?.retry(),
  };
}
