import { useEffect, useState, type FormEvent } from "react";
import { crashGamesFrom, findGameNumber, formatHundredths } from "../../../engine";
import { CrashReplay } from "../games/crash/CrashReplay";
import { CheckActions, CheckError, useCheckForm } from "./checkForm";
import { readCrashLink } from "./crashLink";

/** Most crash games one check lists, and how far back a chain search goes in the browser. */
const MAX_CRASH_GAMES = 100;
const MAX_CHAIN_SEARCH = 1_000_000;

const HEX_64 = /^[0-9a-fA-F]{64}$/;

interface CrashGameRow {
  /** The game's number in its chain, when the terminating hash found it. */
  game: number | null;
  /** Its round, when the first hash's round is known. */
  round: number | null;
  hash: string;
  crashHundredths: number;
}

interface CrashResult {
  rows: CrashGameRow[];
  /** The first hash's game number: undefined without a terminating hash, null when it is not found. */
  gameNumber?: number | null;
}

/**
 * The crash games from `hash` back through the chain: with the terminating hash, numbered and never
 * past game 1 (the terminating hash is no game); with the hash's round, each game's round too.
 */
export function crashRows(hash: string, salt: string, count: number, terminating: string, round: number | null): CrashResult {
  const gameNumber = terminating ? findGameNumber(hash, terminating.toLowerCase(), MAX_CHAIN_SEARCH) : undefined;
  const n = gameNumber ? Math.min(count, gameNumber) : count;
  const rows = crashGamesFrom(hash, salt, n).map((g, i) => ({
    game: gameNumber ? gameNumber - i : null,
    round: round === null ? null : round - i,
    hash: g.gameHash,
    crashHundredths: g.crashHundredths,
  }));
  return { rows, gameNumber };
}

/** The crash chain check and replay. Long because it is one form: its inputs, validation, the results table and the replay, read top to bottom. */
export function CrashCheck({ salt: publishedSalt, terminating: publishedTerminating }: { salt?: string | null; terminating?: string }) {
  // A link from a crash round fills the form in and checks it at once.
  const [link] = useState(() => (typeof window === "undefined" ? null : readCrashLink(window.location.search)));
  const [hash, setHash] = useState(link?.hash ?? "");
  const [salt, setSalt] = useState(link?.salt ?? "");
  const [count, setCount] = useState(link?.count ?? "10");
  const [terminating, setTerminating] = useState(link?.terminating ?? "");
  const [round, setRound] = useState(link?.round ?? "");
  const [result, setResult] = useState<CrashResult | null>(null);
  const [replay, setReplay] = useState<{ round: number; crash: number } | null>(null);
  const { error, run } = useCheckForm();

  // Without a link, the chain in use is the one to check against.
  useEffect(() => {
    if (link) return;
    if (publishedSalt) setSalt((s) => s || publishedSalt);
    if (publishedTerminating) setTerminating((t) => t || publishedTerminating);
  }, [link, publishedSalt, publishedTerminating]);

  const validated = (): { h: string; n: number; r: number | null } | string => {
    const n = Number(count);
    const r = round.trim() ? Number(round) : null;
    if (!HEX_64.test(hash.trim())) return "Game hash must be 64 hexadecimal characters.";
    if (!salt) return "Enter the published salt.";
    if (!Number.isInteger(n) || n < 1 || n > MAX_CRASH_GAMES) return `Number of games must be between 1 and ${MAX_CRASH_GAMES}.`;
    if (terminating && !HEX_64.test(terminating.trim())) return "Terminating hash must be 64 hexadecimal characters.";
    if (r !== null && !(Number.isSafeInteger(r) && r >= 1)) return "Round must be a whole number, 1 or more.";
    return { h: hash.trim().toLowerCase(), n, r };
  };

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    setResult(null);
    run(validated, (v) => setResult(crashRows(v.h, salt, v.n, terminating.trim(), v.r)));
  };

  const startReplay = () => run(validated, (v) => setReplay({ round: v.r ?? 0, crash: crashGamesFrom(v.h, salt, 1)[0]!.crashHundredths }));

  useEffect(() => {
    if (!link) return;
    submit();
    document.getElementById("crash-verify")?.scrollIntoView();
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once, for the link's round

  return (
    <article className="card section-gap stack" aria-labelledby="crash-verify-title" id="crash-verify">
      <h2 id="crash-verify-title">Check crash rounds</h2>
      <p className="small muted">Any chain works here, ours or another server's: the published one is filled in for you.</p>
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
          <span>Terminating hash (optional: numbers the games)</span>
          <input className="input mono" value={terminating} onChange={(e) => setTerminating(e.target.value)} placeholder="published before the first game" spellCheck={false} autoComplete="off" />
        </label>
        <label className="field">
          <span>Round of this hash (optional)</span>
          <input className="input" inputMode="numeric" value={round} onChange={(e) => setRound(e.target.value)} />
        </label>
        <CheckActions submitLabel="Compute crash points" onReplay={startReplay} />
      </form>
      <CheckError error={error} />
      {replay && <CrashReplay key={`${hash}:${salt}`} round={replay.round} crashHundredths={replay.crash} />}
      {result && <CrashTable result={result} />}
    </article>
  );
}

function CrashTable({ result }: { result: CrashResult }) {
  const numbered = result.rows.some((r) => r.game !== null);
  const rounds = result.rows.some((r) => r.round !== null);
  return (
    <div className="stack" data-testid="crash-result">
      {result.gameNumber !== undefined && (
        <p>
          {result.gameNumber === null ? (
            <span className="error-text">This hash is not within {MAX_CHAIN_SEARCH.toLocaleString("en-US")} games of that terminating hash.</span>
          ) : (
            <>
              This hash is game <strong>#{result.gameNumber}</strong> of the chain: hashed {result.gameNumber} time{result.gameNumber === 1 ? "" : "s"} it gives the terminating hash.
            </>
          )}
        </p>
      )}
      <div className="table-wrap">
        <table className="table stack-table">
          <thead>
            <tr>
              {numbered && <th scope="col">Game</th>}
              {rounds && <th scope="col">Round</th>}
              <th scope="col">Game hash</th>
              <th scope="col">Crash</th>
            </tr>
          </thead>
          <tbody>
            {result.rows.map((g) => (
              <tr key={g.hash}>
                {numbered && <td data-label="Game" className="mono">#{g.game}</td>}
                {rounds && <td data-label="Round" className="mono">#{g.round}</td>}
                <td data-label="Game hash" className="mono hash-cell stack-prose">
                  {g.hash}
                </td>
                <td data-label="Crash" className="mono">
                  {formatHundredths(g.crashHundredths)}x
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
