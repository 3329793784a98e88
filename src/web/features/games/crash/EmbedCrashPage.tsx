import { useEffect } from "react";
import { CrashCanvas } from "./CrashCanvas";
import { RecentPills } from "./RoundLists";
import { useCrashGame } from "./useCrashGame";
import "./crash.css";

/**
 * /embed/crash: the chrome-less live view for streamers (any site may frame it): the canvas, the last
 * rounds and where to play. No wallet. `?transparent=1` drops the background for OBS.
 */
export default function EmbedCrashPage() {
  const transparent = new URLSearchParams(location.search).get("transparent") === "1";
  const game = useCrashGame(null, { quiet: true });
  useEffect(() => {
    document.title = "Crash live · VVX";
    document.documentElement.classList.toggle("embed-transparent", transparent);
  }, [transparent]);
  return (
    <main className={`crash-embed${transparent ? " crash-embed-clear" : ""}`} data-testid="crash-embed">
      <RecentPills history={game.history} />
      <CrashCanvas timeline={game.timeline} transparent={transparent} fallback={game.status === "waiting" ? `Round #${game.round} starting…` : `${game.multiplier.toFixed(2)}x`} />
      <p className="crash-embed-cta">
        Play at{" "}
        <a href={`${location.origin}/games/crash`} target="_blank" rel="noopener noreferrer">
          {location.origin}/games/crash
        </a>
      </p>
    </main>
  );
}
