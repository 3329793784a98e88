import type { CrashCashOut, CrashPlayer, CrashServerMessage } from "./api/crash";

/** The players table of the round a client follows. */
export interface CrashRoundPlayers {
  round: number;
  players: CrashPlayer[];
}

export const NO_CRASH_PLAYERS: CrashRoundPlayers = { round: 0, players: [] };

/**
 * Folds one /ws/games/crash message into the players table a client shows. A socket's first gameState
 * carries the whole list; the gameStates every watcher gets carry none (a new round starts empty), so the
 * list goes out once per socket, not to 10,000 sockets every second: the changes come as playersJoined,
 * playerCashedOut and playersCashedOut. Returns `cur` itself when the message changes nothing.
 */
export function foldCrashPlayers(cur: CrashRoundPlayers, m: CrashServerMessage): CrashRoundPlayers {
  switch (m.type) {
    case "gameState":
      if (m.players) return { round: m.round, players: m.players };
      return m.round === cur.round ? cur : { round: m.round, players: [] };
    case "playersJoined": {
      if (m.round !== cur.round) return cur;
      // In the server's order: a known wallet keeps its place, a new one comes last.
      const joined = new Map(m.players.map((p) => [p.walletAddress, p]));
      const players = cur.players.map((p) => {
        const again = joined.get(p.walletAddress);
        joined.delete(p.walletAddress);
        return again ?? p;
      });
      return { round: cur.round, players: [...players, ...joined.values()] };
    }
    case "playerCashedOut":
    case "playersCashedOut": {
      if (m.round !== cur.round) return cur;
      // One cash-out, or the several since the last tick in one message.
      const outs = new Map<string, CrashCashOut>((m.type === "playerCashedOut" ? [m] : m.players).map((c) => [c.walletAddress, c]));
      const players = cur.players.map((p) => {
        const c = outs.get(p.walletAddress);
        return c ? { ...p, hasCashedOut: true, cashOutMultiplier: c.multiplier, payout: c.payout } : p;
      });
      return { round: cur.round, players };
    }
    default:
      return cur;
  }
}
