import { useCallback, useMemo } from "react";
import { Link } from "react-router-dom";
import { useSnapshot } from "valtio";
import { SoundToggle } from "../../../components/SoundToggle";
import { useSound } from "../../../lib/sound";
import { usePageTitle } from "../../../lib/usePageTitle";
import { connectWallet, walletState } from "../../wallet/walletStore";
import { BetCard } from "./BetCard";
import { BetDialog } from "./BetDialog";
import { ConnectionBadges, FairnessLine, PlayersTable, RaceHeading, RaceHistory, WinnerBanner, useNow } from "./parts";
import { RaceTrack } from "./RaceTrack";
import { useRaceSounds } from "./sounds";
import { laneFrame, localRace } from "./timeline";
import { useRacingBets } from "./useRacingGame";
import "./racing.css";

/** /games/unicorn-racing: the live race in PixiJS lanes, the bet card, players and history, with sounds (mute toggle). */
export default function RacingPage() {
  usePageTitle("Unicorn Racing");
  const { walletAddress, isConnected } = useSnapshot(walletState);
  const wallet = isConnected ? walletAddress : null;
  const { feed, payment, placing, place, close } = useRacingBets(wallet);
  const { state, players, history, offsetMs, connection } = feed;
  const now = useNow(250);
  const serverNow = now + offsetMs;
  const race = useMemo(() => localRace(state), [state]);
  const frame = useCallback(() => laneFrame(state, race, Date.now() + offsetMs), [state, race, offsetMs]);
  const shown = laneFrame(state, race, serverNow);
  const myBet = (wallet && state && players.find((p) => p.walletAddress === wallet && p.round === state.roundNumber)) || null;
  const sound = useSound(true);
  useRaceSounds(state, players, offsetMs, wallet, sound.play);

  return (
    <section className="container racing-page">
      <header className="page-header race-header">
        <div>
          <p className="eyebrow">
            <Link to="/games">Games</Link> / Unicorn Racing
          </p>
          <h1>Unicorn Racing</h1>
        </div>
        <div className="race-header-tools">
          <ConnectionBadges connection={connection} wallet={wallet} />
          <SoundToggle on={sound.on} onToggle={sound.toggle} />
        </div>
      </header>

      <div className="card race-stage">
        <RaceHeading state={state} serverNow={serverNow} />
        <RaceTrack frame={frame} shown={shown} />
        <WinnerBanner winner={shown.winner} />
        <FairnessLine state={state} commitmentOk={race?.commitmentOk ?? null} />
      </div>

      <div className="race-columns">
        <BetCard wallet={wallet} state={state} myBet={myBet} placing={placing} onPlace={(u, a) => void place(u, a)} onConnect={() => void connectWallet()} />
        <PlayersTable players={players} />
        <RaceHistory races={history} />
      </div>
      <BetDialog payment={payment} onClose={close} />
    </section>
  );
}
