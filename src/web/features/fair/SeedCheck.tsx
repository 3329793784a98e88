import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { SLOT_PACKAGES, UNICORNS, floatsFromSeeds, raceFromSeeds, serverSeedCommitment, spinDailyWheel, spinSlots, type GameSeeds } from "../../../engine";
import { RaceReplay } from "../games/racing/RaceReplay";
import { SpinReplay } from "../games/slots/SpinReplay";
import { WheelReplay } from "../landing/WheelReplay";
import { CheckActions, CheckError, useCheckForm } from "./checkForm";
import { CommitmentCheck, SeedLinkNotice, useLinkedCheck, useSeedLink } from "./seedLink";

type SeedGame = "race" | "slots" | "wheel";

const vvx = (micro: bigint) => `${(Number(micro) / 1e6).toLocaleString("en-US", { maximumFractionDigits: 6 })} VVX`;

/** One game's outcome of the seeds, in words. */
function outcomeOf(game: SeedGame, seeds: GameSeeds, pkg: number): ReactNode {
  if (game === "race") {
    const race = raceFromSeeds(seeds);
    return (
      <ol className="race-order">
        {race.order.map((idx, place) => {
          const u = UNICORNS[idx]!;
          return (
            <li key={u.name}>
              <span className="dot" style={{ background: u.hex }} aria-hidden="true" /> {place === 0 ? <strong>{u.name} wins</strong> : u.name}
              <span className="muted small"> · finishes at tick {race.finishTicks[idx]} ({(race.finishTicks[idx]! / race.tickRate).toFixed(2)} s)</span>
            </li>
          );
        })}
      </ol>
    );
  }
  if (game === "slots") {
    const spin = spinSlots(seeds, pkg);
    return (
      <div className="stack">
        <p className="reels-line">{spin.symbols.join(" · ")}</p>
        <p>
          {spin.winType === "none" ? "No win" : spin.winType.replace(/_/g, " ")}: pays <strong>{vvx(spin.totalPayoutMicro)}</strong> ({(spin.multipleHundredths / 100).toFixed(2)}x of {vvx(spin.spinCostMicro)})
        </p>
        <p className="muted small">Dice mystery multiple drawn: {spin.mysteryMultiple}x (paid only on three Dice).</p>
      </div>
    );
  }
  const w = spinDailyWheel(seeds);
  return (
    <p>
      Segment {w.position + 1} of 12: <strong>{w.prizeLabel}</strong>
    </p>
  );
}

/** The round of the seeds drawn by its game's own view. */
function replayOf(game: SeedGame, seeds: GameSeeds, pkg: number): ReactNode {
  if (game === "race") return <RaceReplay outcome={raceFromSeeds(seeds)} />;
  if (game === "slots") return <SpinReplay reels={spinSlots(seeds, pkg).reels} />;
  return <WheelReplay position={spinDailyWheel(seeds).position} />;
}

/** The seed-based games' check and replay. Long because it is one form for three games: inputs, validation, the result and the replay. */
export function SeedCheck() {
  // A link from a spin list fills the form in and checks it at once.
  const link = useSeedLink();
  const [serverSeed, setServerSeed] = useState(link?.serverSeed ?? "");
  const [clientSeed, setClientSeed] = useState(link?.clientSeed ?? "");
  const [nonce, setNonce] = useState(link?.nonce ?? "0");
  const [game, setGame] = useState<SeedGame>(link?.game ?? "race");
  const [pkg, setPkg] = useState(link?.pkg ?? "0");
  const { error, run } = useCheckForm();
  const [out, setOut] = useState<{ commitment: string; floats: number[]; body: ReactNode } | null>(null);
  const [replay, setReplay] = useState<{ key: string; view: ReactNode } | null>(null);
  useLinkedCheck(link, setServerSeed, () => submit());
  const result = useRef<HTMLDivElement>(null);
  const shownOnce = useRef(false);
  // A link's check ends on its result (or on the notice that its seed is not revealed), wherever the page opened.
  useEffect(() => {
    if (!link || shownOnce.current || !(out || link.seedState === "hidden")) return;
    shownOnce.current = true;
    (result.current ?? document.getElementById("verify"))?.scrollIntoView({ block: "center" });
  }, [link, out]);

  const seedsOrError = (): GameSeeds | string => {
    const n = Number(nonce);
    if (!serverSeed) return "Enter the revealed server seed.";
    if (!clientSeed) return "Enter your client seed.";
    if (!/^\d+$/.test(nonce) || !Number.isSafeInteger(n)) return "Nonce must be a whole number, 0 or more.";
    return { serverSeed, clientSeed, nonce: n };
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setOut(null);
    run(seedsOrError, (seeds) => setOut({ commitment: serverSeedCommitment(serverSeed), floats: floatsFromSeeds(seeds, 8), body: outcomeOf(game, seeds, Number(pkg)) }));
  };

  const startReplay = () => run(seedsOrError, (seeds) => setReplay({ key: `${game}:${pkg}:${serverSeed}:${clientSeed}:${nonce}`, view: replayOf(game, seeds, Number(pkg)) }));

  return (
    <article className="card section-gap stack" aria-labelledby="seed-verify-title" id="verify">
      <h2 id="seed-verify-title">Check a seeded round</h2>
      <SeedLinkNotice link={link} />
      <form className="form-grid" onSubmit={submit}>
        <label className="field" htmlFor="fair-game">
          <span>Game</span>
          <select id="fair-game" aria-label="Game" className="input" value={game} onChange={(e) => setGame(e.target.value as SeedGame)}>
            <option value="race">Unicorn Racing</option>
            <option value="slots">VVX Slots</option>
            <option value="wheel">Daily spin wheel</option>
          </select>
        </label>
        {game === "slots" && (
          <label className="field" htmlFor="fair-package">
            <span>Package</span>
            <select id="fair-package" aria-label="Package" className="input" value={pkg} onChange={(e) => setPkg(e.target.value)}>
              {SLOT_PACKAGES.map((p, i) => (
                <option key={p.name} value={i}>
                  {p.name} ({p.spinCostVvx.toLocaleString("en-US")} VVX per spin)
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="field field-wide">
          <span>Server seed (revealed)</span>
          <input className="input mono" value={serverSeed} onChange={(e) => setServerSeed(e.target.value)} spellCheck={false} autoComplete="off" />
        </label>
        <label className="field">
          <span>Client seed</span>
          <input className="input mono" value={clientSeed} onChange={(e) => setClientSeed(e.target.value)} spellCheck={false} autoComplete="off" />
        </label>
        <label className="field">
          <span>Nonce</span>
          <input className="input" inputMode="numeric" value={nonce} onChange={(e) => setNonce(e.target.value)} />
        </label>
        <CheckActions submitLabel="Compute outcome" onReplay={startReplay} />
      </form>
      <CheckError error={error} />
      {replay && <div key={replay.key}>{replay.view}</div>}
      {out && (
        <div className="stack" data-testid="seed-result" ref={result}>
          <p className="small">
            SHA-256 of the server seed (compare with the commitment you were shown): <code className="hash-cell">{out.commitment}</code>
          </p>
          <CommitmentCheck link={link} serverSeed={serverSeed} commitment={out.commitment} />
          {out.body}
          <details>
            <summary className="small">The first 8 numbers</summary>
            <p className="mono small">{out.floats.map((f) => f.toFixed(10)).join("  ")}</p>
          </details>
        </div>
      )}
    </article>
  );
}
