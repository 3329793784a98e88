import { useEffect, useRef } from "react";
import type { PlayerView, RaceStateView } from "../../../../shared/api/racing";
import { useCountdownTicks, type Cue } from "../../../lib/sound";

/** What the race sounds follow, between two renders. */
export interface RaceSoundState {
  round: number;
  status: RaceStateView["status"];
  players: number;
  /** The page's (or the ?wallet's) bet won this race. */
  myWin: boolean;
}

/** The cues between two states: a new bet, the start, the finish, and one's own win. */
export function raceCues(prev: RaceSoundState | null, next: RaceSoundState): Cue[] {
  if (!prev) return [];
  const cues: Cue[] = [];
  const same = prev.round === next.round;
  if (same && next.status === "waiting" && next.players > prev.players) cues.push("bet");
  if (next.status === "racing" && (!same || prev.status === "waiting")) cues.push("start");
  if (next.status === "finished" && (!same || prev.status !== "finished")) cues.push(next.myWin ? "win" : "finish");
  return cues;
}

/** Plays the race cues of a page or an embed (`me`: the wallet whose win is a win), and the countdown's last ticks. */
export function useRaceSounds(state: RaceStateView | null, players: PlayerView[], offsetMs: number, me: string | null, play: (cue: Cue) => void): void {
  const now: RaceSoundState | null = state && {
    round: state.roundNumber,
    status: state.status,
    players: players.length,
    myWin: !!me && players.some((p) => p.walletAddress === me && p.payout !== null),
  };
  const prev = useRef<RaceSoundState | null>(null);
  useEffect(() => {
    if (!now) return;
    for (const cue of raceCues(prev.current, now)) play(cue);
    prev.current = now;
  });
  // The lanes use server time; the ticks this browser's clock (the offset between them).
  useCountdownTicks(state?.status === "waiting" ? state.nextRaceTime - offsetMs : null, Date.now, play);
}
