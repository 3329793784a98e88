import { useEffect, useRef } from "react";
import { useCountdownTicks, type Cue } from "../../../lib/sound";
import type { CrashGameView } from "./useCrashGame";

/** What the crash sounds follow, between two renders. */
export interface CrashSoundState {
  round: number;
  status: "waiting" | "running" | "crashed";
  players: number;
  cashedOut: number;
  /** The page's (or the ?wallet's) own bet has cashed out. */
  mineCashed: boolean;
}

/** The cues between two states: a new bet, the start, cash-outs (one's own is a win), the crash. */
export function crashCues(prev: CrashSoundState | null, next: CrashSoundState): Cue[] {
  if (!prev || next.round === 0) return [];
  const cues: Cue[] = [];
  const same = prev.round === next.round;
  if (next.status === "running" && (!same || prev.status === "waiting")) cues.push("start");
  if (same && next.status === "waiting" && next.players > prev.players) cues.push("bet");
  if (same && next.mineCashed && !prev.mineCashed) cues.push("win");
  else if (same && next.cashedOut > prev.cashedOut) cues.push("cashout");
  if (next.status === "crashed" && (!same || prev.status !== "crashed")) cues.push("crash");
  return cues;
}

/** Plays the crash cues of a page or an embed (`me`: the wallet whose cash-out is a win). */
export function useCrashSounds(game: CrashGameView, me: string | null, play: (cue: Cue) => void): void {
  const state: CrashSoundState = {
    round: game.round,
    status: game.status,
    players: game.players.length,
    cashedOut: game.players.filter((p) => p.hasCashedOut).length,
    mineCashed: !!me && game.players.some((p) => p.walletAddress === me && p.hasCashedOut),
  };
  const prev = useRef<CrashSoundState | null>(null);
  useEffect(() => {
    for (const cue of crashCues(prev.current, state)) play(cue);
    prev.current = state;
  });
  useCountdownTicks(game.status === "waiting" && game.round > 0 ? game.timeline.countdownEnds : null, () => performance.now(), play);
}
