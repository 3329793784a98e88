import { useCallback, useEffect, useMemo } from "react";
import { UNICORNS } from "../../../../engine";
import { usePageTitle } from "../../../lib/usePageTitle";
import { RaceHeading, WinnerBanner, useNow } from "./parts";
import { RaceTrack } from "./RaceTrack";
import { laneFrame, localRace } from "./timeline";
import { useRaceFeed } from "./useRacingGame";
import "./racing.css";

/** How many past winners the embed lists. */
const LAST_WINNERS = 6;

/**
 * /embed/racing for streamers: chrome-less live lanes, the countdown, the last winners and
 * 'Play at ...'. Any site may frame it (its security headers allow it); `?transparent=1` drops the
 * background for overlays. It only watches: no wallet, no bets.
 */
export default function EmbedRacingPage() {
  usePageTitle("Unicorn Racing live");
  const transparent = new URLSearchParams(window.location.search).get("transparent") === "1";
  // An overlay is never focused: it follows the race whenever it is shown.
  const { state, history, offsetMs } = useRaceFeed(null, undefined, () => document.hidden);
  const now = useNow(250);
  const race = useMemo(() => localRace(state), [state]);
  const frame = useCallback(() => laneFrame(state, race, Date.now() + offsetMs), [state, race, offsetMs]);
  const shown = laneFrame(state, race, now + offsetMs);
  const playUrl = `${window.location.origin}/games/unicorn-racing`;

  useEffect(() => {
    if (!transparent) return;
    const root = document.documentElement;
    const before = [root.style.background, document.body.style.background, root.style.colorScheme];
    root.style.background = document.body.style.background = "transparent";
    // A frame whose colour scheme differs from its parent's gets an opaque backdrop in Chromium: match the parent's default.
    root.style.colorScheme = "normal";
    return () => void ([root.style.background, document.body.style.background, root.style.colorScheme] = before);
  }, [transparent]);

  return (
    <main className={`race-embed${transparent ? " transparent" : ""}`} data-testid="race-embed">
      <div className="race-embed-top">
        <RaceHeading state={state} serverNow={now + offsetMs} />
      </div>
      <RaceTrack frame={frame} shown={shown} />
      <WinnerBanner winner={shown.winner} />
      <div className="race-embed-last" data-testid="race-embed-last">
        <span>Last winners:</span>
        {history.slice(0, LAST_WINNERS).map((r) => (
          <span key={r.round} className="race-embed-pill" style={{ borderColor: UNICORNS[r.winnerIndex]?.hex }}>
            #{r.round} {r.winningUnicorn}
          </span>
        ))}
      </div>
      <a className="race-embed-play" href={playUrl} target="_blank" rel="noopener noreferrer">
        Play at {window.location.host}/games/unicorn-racing
      </a>
    </main>
  );
}
