import { useMemo } from "react";
import { EmbedShell, useEmbedOptions, useEmbedSound, type EmbedConnection } from "../embed/EmbedShell";
import { pillClass, CRASH_RULES } from "./api";
import { CrashCanvas } from "./CrashCanvas";
import { CRASH_PALETTES, type CrashLook } from "./CrashView";
import { CrashEmbedBets } from "./EmbedBets";
import { EMBED_SOCKET, type GameSocketStatus } from "./gameSocket";
import { useCrashSounds } from "./sounds";
import { useCrashGame } from "./useCrashGame";
import "./crash.css";

/** The socket's state as the embed's badge shows it. */
export const embedConnection = (s: GameSocketStatus): EmbedConnection => (s === "open" ? "open" : s === "connecting" ? "connecting" : "offline");

/**
 * /embed/crash: the chrome-less live view for streamers (any site may frame it): the canvas, the last
 * rounds, the round's bets and cash-outs as they happen, and where to play. It only watches: no wallet.
 * Options (?transparent, ?theme, ?scale, ?wallet, ?ref, ?qr, ?sound) are read by useEmbedOptions.
 */
export default function EmbedCrashPage() {
  const { options, problems } = useEmbedOptions();
  const game = useCrashGame(null, { quiet: true, policy: EMBED_SOCKET });
  const sound = useEmbedSound(options);
  useCrashSounds(game, options.wallet, sound.play);
  // Outlined canvas texts over a video; an opaque embed has its own background.
  const look = useMemo<CrashLook>(() => ({ palette: { ...CRASH_PALETTES[options.theme], stroke: options.transparent ? CRASH_PALETTES[options.theme].stroke : null }, fillHeight: true }), [options.theme, options.transparent]);
  return (
    <EmbedShell
      game="crash"
      options={options}
      problems={problems}
      connection={embedConnection(game.socket)}
      sound={sound}
      testId="crash-embed"
      head={
        <>
          <h1 className="embed-title">VVX Crash</h1>
          <ol className="embed-pills" aria-label="Last rounds" data-testid="crash-pills">
            {game.history.slice(0, CRASH_RULES.recentPills).map((r) => (
              <li key={r.round} className={`embed-pill embed-${pillClass(r.crashPoint)}`} title={`Round #${r.round}`}>
                {r.crashPoint === null ? "void" : `${r.crashPoint.toFixed(2)}x`}
              </li>
            ))}
          </ol>
        </>
      }
      stage={<CrashCanvas timeline={game.timeline} look={look} fallback={game.status === "waiting" ? `Round #${game.round} starting…` : `${game.multiplier.toFixed(2)}x`} />}
      side={<CrashEmbedBets players={game.players} status={game.status} me={options.wallet} />}
    />
  );
}
