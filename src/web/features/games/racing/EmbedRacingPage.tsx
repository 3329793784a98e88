import { useCallback, useMemo } from "react";
import { UNICORNS } from "../../../../engine";
import type { RaceStateView } from "../../../../shared/api/racing";
import { EmbedShell, useEmbedOptions, useEmbedSound, type EmbedConnection } from "../embed/EmbedShell";
import { RacingEmbedBets } from "./EmbedBets";
import { useNow } from "./parts";
import { RaceTrack } from "./RaceTrack";
import { RACE_PALETTES, type RaceLook } from "./RaceView";
import { useRaceSounds } from "./sounds";
import { laneFrame, localRace, mmss } from "./timeline";
import { useRaceFeed, type ConnectionStatus } from "./useRacingGame";
import "./racing.css";

/** How many past winners the embed lists (as many as fit on its line). */
const LAST_WINNERS = 6;
/** In a transparent embed the lanes let this much of the video through. */
const CLEAR_LANE_ALPHA = 0.35;

const embedConnection = (c: ConnectionStatus): EmbedConnection => (c === "open" ? "open" : c === "connecting" ? "connecting" : "offline");

/** The race's state in words: 'Next race in m:ss', 'Race in progress', or who won. */
function headline(state: RaceStateView | null, serverNow: number): string {
  if (!state) return "Connecting to the race…";
  if (state.status === "waiting") return `Next race in ${mmss(state.nextRaceTime - serverNow)}`;
  if (state.status === "racing") return "Race in progress";
  return state.winningUnicorn ? `${state.winningUnicorn} wins!` : "Race finished";
}

/**
 * /embed/racing for streamers: chrome-less live lanes, the countdown, the bets on each unicorn and
 * the latest bets, the winners and the biggest win, the last winners and 'Play at ...'. Any site may
 * frame it (its security headers allow it). It only watches: no wallet, no bets.
 */
export default function EmbedRacingPage() {
  const { options, problems } = useEmbedOptions();
  // An overlay is never focused: it follows the race whenever it is shown.
  const { state, players, history, offsetMs, connection } = useRaceFeed(null, undefined, () => document.hidden);
  const sound = useEmbedSound(options);
  useRaceSounds(state, players, offsetMs, options.wallet, sound.play);
  const now = useNow(250);
  const race = useMemo(() => localRace(state), [state]);
  const frame = useCallback(() => laneFrame(state, race, Date.now() + offsetMs), [state, race, offsetMs]);
  const shown = laneFrame(state, race, now + offsetMs);
  const look = useMemo<RaceLook>(() => {
    const palette = RACE_PALETTES[options.theme];
    return { palette: options.transparent ? { ...palette, alpha: CLEAR_LANE_ALPHA } : { ...palette, stroke: null }, fillHeight: true };
  }, [options.theme, options.transparent]);

  return (
    <EmbedShell
      game="racing"
      options={options}
      problems={problems}
      connection={embedConnection(connection)}
      sound={sound}
      testId="race-embed"
      head={
        <>
          <h1 className="embed-title">Unicorn Racing</h1>
          <h2 className="embed-heading" data-testid="race-heading">
            {headline(state, now + offsetMs)}
          </h2>
          {state && (
            <span className="embed-round" data-testid="race-round">
              #{state.roundNumber}
            </span>
          )}
          <ol className="embed-pills" aria-label="Last winners" data-testid="race-embed-last">
            {history.slice(0, LAST_WINNERS).map((r) => (
              <li key={r.round} className="embed-pill embed-pill-void" title={`Race #${r.round}: ${r.winningUnicorn}`}>
                <span className="embed-swatch" style={{ background: UNICORNS[r.winnerIndex]?.hex }} aria-hidden="true" />#{r.round} {r.winningUnicorn}
              </li>
            ))}
          </ol>
        </>
      }
      stage={<RaceTrack frame={frame} shown={shown} look={look} />}
      side={<RacingEmbedBets state={state} players={players} me={options.wallet} />}
    />
  );
}
