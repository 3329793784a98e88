import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import {
  EngineInputError,
  SLOT_PACKAGES,
  UNICORNS,
  crashGamesFrom,
  findGameNumber,
  floatsFromSeeds,
  formatHundredths,
  raceFromSeeds,
  rtpTable,
  serverSeedCommitment,
  spinDailyWheel,
  spinSlots,
  type GameSeeds,
} from "../../../engine";
import { usePageTitle } from "../../lib/usePageTitle";
import { useSiteConfig } from "../../state/site";
import { CommitmentCheck, SeedLinkNotice, useLinkedCheck, useSeedLink } from "./seedLink";
import { PublishedChain, readCrashLink } from "./crashLink";

/** Most crash games one check lists, and how far back a chain search goes in the browser. */
const MAX_CRASH_GAMES = 100;
const MAX_CHAIN_SEARCH = 1_000_000;

const percent = (x: number) => `${(x * 100).toFixed(4)}%`;
const vvx = (micro: bigint) => `${(Number(micro) / 1e6).toLocaleString("en-US", { maximumFractionDigits: 6 })} VVX`;

/** /fair: the schemes in plain words, verifiers that run the same engine as the server, and the RTP table. */
export default function FairPage() {
  usePageTitle("Provably Fair");
  // Racing's row follows the server's configured multiple; it waits for it rather than show the default.
  const site = useSiteConfig();
  const multiple = site.data?.racingPayoutMultiple;
  const rtp = useMemo(() => rtpTable(multiple === undefined ? {} : { racingPayoutMultiple: multiple }).filter((row) => row.game !== "racing" || multiple !== undefined), [multiple]);
  return (
    <section className="container fair">
      <header className="page-header">
        <h1>Provably Fair</h1>
        <p className="lead-left muted">
          Every outcome on VVX is decided by published seeds, before you bet, and can be recomputed by anyone. The checks on this page run in
          your browser with the same code the server uses; nothing is sent anywhere. Testers can do the same from a terminal with{" "}
          <code>bun run verify</code>.
        </p>
      </header>

      <div className="grid grid-2">
        <article className="card stack" id="crash">
          <h2>Crash: a hash chain</h2>
          <p>
            Before the first round we publish the <strong>terminating hash</strong> of a chain of SHA-256 hashes and a <strong>salt</strong>. Each
            round uses the previous hash in the chain, so the next round's hash hashes to the round you just saw, and nobody can change a result
            without breaking the chain.
          </p>
          <p className="small muted">
            For a game hash H: h = HMAC-SHA256(key = salt, message = H's 32 bytes); X = first 13 hex digits of h / 2^52; crash = max(1, floor(99
            / (1 − X)) / 100). The 1% house edge is the 99. The multiplier at t ms is e^(0.00006 t).
          </p>
          <PublishedChain />
        </article>
        <article className="card stack" id="seeds">
          <h2>Racing, slots and the wheel: seeds</h2>
          <p>
            The server picks a secret <strong>server seed</strong> and shows you its SHA-256 before you play. You supply a <strong>client seed</strong>
            , and each round has a <strong>nonce</strong>. When the server seed is rotated it is revealed, and you can check it against the hash
            you were shown.
          </p>
          <p className="small muted">
            Random numbers come from HMAC-SHA256(key = server seed, message = "clientSeed:nonce:round"), 4 bytes per number between 0 and 1, 8 per
            round. Racing: the winner is floor(first number × 5) and the race animation comes from the next numbers. Slots: each reel is picked by
            the symbol weights. Wheel: the segment is floor(first number × 12).
          </p>
        </article>
      </div>

      <CrashVerifier />
      <SeedVerifier />

      <article className="card section-gap" id="rtp">
        <h2>Return to player</h2>
        <p className="muted small">Computed exactly (by enumeration, not simulation) from the current configuration.</p>
        <div className="table-wrap">
          <table className="table stack-table" data-testid="rtp-table">
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">RTP</th>
                <th scope="col">How</th>
              </tr>
            </thead>
            <tbody>
              {rtp.map((row) => (
                <tr key={row.label}>
                  <td data-label="Game">{row.label}</td>
                  <td data-label="RTP" className="mono">
                    {row.rtp === null ? "free" : percent(row.rtp)}
                  </td>
                  <td data-label="How" className="small muted stack-prose">
                    {row.detail}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </article>
    </section>
  );
}

function describeError(err: unknown): string {
  if (err instanceof EngineInputError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** The crash chain check. Long because it is one form: its inputs, validation, and the results table, read top to bottom. */
function CrashVerifier() {
  // A link from a crash round fills the form in and checks it at once.
  const [link] = useState(() => (typeof window === "undefined" ? null : readCrashLink(window.location.search)));
  const [hash, setHash] = useState(link?.hash ?? "");
  const [salt, setSalt] = useState(link?.salt ?? "");
  const [count, setCount] = useState(link?.count ?? "10");
  const [terminating, setTerminating] = useState(link?.terminating ?? "");
  const [result, setResult] = useState<{ games: { hash: string; crash: string }[]; gameNumber?: number | null } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setError(null);
    setResult(null);
    const n = Number(count);
    if (!/^[0-9a-fA-F]{64}$/.test(hash.trim())) return setError("Game hash must be 64 hexadecimal characters.");
    if (!salt) return setError("Enter the published salt.");
    if (!Number.isInteger(n) || n < 1 || n > MAX_CRASH_GAMES) return setError(`Number of games must be between 1 and ${MAX_CRASH_GAMES}.`);
    if (terminating && !/^[0-9a-fA-F]{64}$/.test(terminating.trim())) return setError("Terminating hash must be 64 hexadecimal characters.");
    try {
      const games = crashGamesFrom(hash.trim().toLowerCase(), salt, n).map((g) => ({ hash: g.gameHash, crash: `${formatHundredths(g.crashHundredths)}x` }));
      const gameNumber = terminating ? findGameNumber(hash.trim().toLowerCase(), terminating.trim().toLowerCase(), MAX_CHAIN_SEARCH) : undefined;
      setResult({ games, gameNumber });
    } catch (err) {
      setError(describeError(err));
    }
  };

  useEffect(() => {
    if (!link) return;
    submit();
    document.getElementById("crash-verify")?.scrollIntoView();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, for the link's round

  return (
    <article className="card section-gap stack" aria-labelledby="crash-verify-title" id="crash-verify">
      <h2 id="crash-verify-title">Check crash rounds</h2>
      <form className="form-grid" onSubmit={submit}>
        <label className="field field-wide">
          <span>Game hash</span>
          <input className="input mono" value={hash} onChange={(e) => setHash(e.target.value)} placeholder="64 hex characters" spellCheck={false} autoComplete="off" />
        </label>
        <label className="field">
          <span>Salt</span>
          <input className="input mono" value={salt} onChange={(e) => setSalt(e.target.value)} spellCheck={false} autoComplete="off" />
        </label>
        <label className="field">
          <span>Games (back through the chain)</span>
          <input className="input" type="number" min={1} max={MAX_CRASH_GAMES} value={count} onChange={(e) => setCount(e.target.value)} />
        </label>
        <label className="field field-wide">
          <span>Terminating hash (optional: finds the game number)</span>
          <input className="input mono" value={terminating} onChange={(e) => setTerminating(e.target.value)} placeholder="published before the first game" spellCheck={false} autoComplete="off" />
        </label>
        <div className="field-wide">
          <button className="btn btn-primary" type="submit">
            Compute crash points
          </button>
        </div>
      </form>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {result && (
        <div className="stack" data-testid="crash-result">
          {result.gameNumber !== undefined && (
            <p>
              {result.gameNumber === null ? (
                <span className="error-text">This hash is not within {MAX_CHAIN_SEARCH.toLocaleString("en-US")} games of that terminating hash.</span>
              ) : (
                <>
                  This hash is game <strong>#{result.gameNumber}</strong> of the chain.
                </>
              )}
            </p>
          )}
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Game hash</th>
                  <th scope="col">Crash</th>
                </tr>
              </thead>
              <tbody>
                {result.games.map((g) => (
                  <tr key={g.hash}>
                    <td className="mono hash-cell">{g.hash}</td>
                    <td className="mono">{g.crash}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </article>
  );
}

type SeedGame = "race" | "slots" | "wheel";

/** The seed-based games' check. Long because it is one form for three games: inputs, validation, and each game's result view. */
function SeedVerifier() {
  // A link from a spin list fills the form in and checks it at once.
  const link = useSeedLink();
  const [serverSeed, setServerSeed] = useState(link?.serverSeed ?? "");
  const [clientSeed, setClientSeed] = useState(link?.clientSeed ?? "");
  const [nonce, setNonce] = useState(link?.nonce ?? "0");
  const [game, setGame] = useState<SeedGame>(link?.game ?? "race");
  const [pkg, setPkg] = useState(link?.pkg ?? "0");
  const [error, setError] = useState<string | null>(null);
  const [out, setOut] = useState<{ commitment: string; floats: number[]; game: SeedGame; body: React.ReactNode } | null>(null);
  useLinkedCheck(link, setServerSeed, () => submit());
  const result = useRef<HTMLDivElement>(null);
  const shownOnce = useRef(false);
  // A link's check ends on its result (or on the notice that its seed is not revealed), wherever the page opened.
  useEffect(() => {
    if (!link || shownOnce.current || !(out || link.seedState === "hidden")) return;
    shownOnce.current = true;
    (result.current ?? document.getElementById("verify"))?.scrollIntoView({ block: "center" });
  }, [link, out]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setError(null);
    setOut(null);
    const n = Number(nonce);
    if (!serverSeed) return setError("Enter the revealed server seed.");
    if (!clientSeed) return setError("Enter your client seed.");
    if (!/^\d+$/.test(nonce) || !Number.isSafeInteger(n)) return setError("Nonce must be a whole number, 0 or more.");
    try {
      const seeds: GameSeeds = { serverSeed, clientSeed, nonce: n };
      const floats = floatsFromSeeds(seeds, 8);
      let body: React.ReactNode;
      if (game === "race") {
        const race = raceFromSeeds(seeds);
        body = (
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
      } else if (game === "slots") {
        const spin = spinSlots(seeds, Number(pkg));
        body = (
          <div className="stack">
            <p className="reels-line">{spin.symbols.join(" · ")}</p>
            <p>
              {spin.winType === "none" ? "No win" : spin.winType.replace(/_/g, " ")}: pays <strong>{vvx(spin.totalPayoutMicro)}</strong> (
              {(spin.multipleHundredths / 100).toFixed(2)}x of {vvx(spin.spinCostMicro)})
            </p>
            <p className="muted small">Dice mystery multiple drawn: {spin.mysteryMultiple}x (paid only on three Dice).</p>
          </div>
        );
      } else {
        const w = spinDailyWheel(seeds);
        body = (
          <p>
            Segment {w.position + 1} of 12: <strong>{w.prizeLabel}</strong>
          </p>
        );
      }
      setOut({ commitment: serverSeedCommitment(serverSeed), floats, game, body });
    } catch (err) {
      setError(describeError(err));
    }
  };

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
        <div className="field-wide">
          <button className="btn btn-primary" type="submit">
            Compute outcome
          </button>
        </div>
      </form>
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
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
