import { useMemo } from "react";
import { Link, useParams } from "react-router-dom";
import { UNICORNS, raceFromSeeds, verifyServerSeed } from "../../../../engine";
import type { RaceDetail } from "../../../../shared/api/racing";
import { BetsTable, Check, Facts, Hash, RoundNav, RoundPage, When, useRound } from "../../fair/roundParts";
import { ordinal } from "./RaceView";
import { RaceReplay } from "./RaceReplay";
import { fairLink } from "./timeline";

/** /racing/race/<n>: one race's seeds and their commitment, the whole race replayed from them here, and every bet with its payments. */
export default function RacePage() {
  const n = Number(useParams().round);
  const valid = Number.isSafeInteger(n) && n >= 1;
  const { data, error, isLoading } = useRound<RaceDetail>(valid ? `/api/racing/races/${n}` : null);
  return (
    <RoundPage
      title={`Race #${valid ? n : "?"}`}
      back={{ to: "/games/unicorn-racing", label: "Unicorn Racing" }}
      what="race"
      error={valid ? error : new Error("bad race")}
      loading={isLoading || !data}
      nav={valid ? <RoundNav base="/racing/race" n={n} /> : undefined}
    >
      {data && <RaceBody detail={data} />}
    </RoundPage>
  );
}

function RaceBody({ detail }: { detail: RaceDetail }) {
  const { race, bets } = detail;
  const outcome = useMemo(() => raceFromSeeds({ serverSeed: race.serverSeed, clientSeed: race.clientSeed, nonce: race.nonce }), [race.serverSeed, race.clientSeed, race.nonce]);
  const committed = verifyServerSeed(race.serverSeed, race.serverSeedHash);
  return (
    <>
      <p className="round-summary" data-testid="round-summary">
        <strong className="round-result" style={{ color: UNICORNS[race.winnerIndex]!.hex }}>
          {race.winningUnicorn}
        </strong>{" "}
        won · winners were paid {race.payoutMultiple}x their bet
      </p>
      <div className="round-grid">
        <article className="card stack" aria-labelledby="replay-title">
          <h2 id="replay-title">Replay</h2>
          <p className="small muted">The whole race, computed in your browser from its seeds with the same engine as the server, each unicorn's place shown as it crosses the line.</p>
          <RaceReplay outcome={outcome} />
          <ol className="round-order small" data-testid="race-order">
            {outcome.order.map((u, place) => (
              <li key={u}>
                {ordinal(place + 1)}: <span style={{ color: UNICORNS[u]!.hex }}>{UNICORNS[u]!.name}</span>
                <span className="muted"> · {(outcome.finishTicks[u]! / outcome.tickRate).toFixed(2)} s</span>
              </li>
            ))}
          </ol>
        </article>
        <article className="card stack" aria-labelledby="fair-title">
          <h2 id="fair-title">Provably fair</h2>
          <Facts
            testId="round-facts"
            rows={[
              ["Server seed hash", <Hash value={race.serverSeedHash} />],
              ["Shown since", <><When iso={race.committedAt} />{race.commitLedger !== null && <span className="muted"> (ledger {race.commitLedger} was the newest)</span>}</>],
              ["Bets closed", `after ledger ${detail.closeLedger}`],
              ["Client seed", <><span className="small muted">hash of ledger {race.clientSeedLedger}: </span><Hash value={race.clientSeed} /></>],
              ["Server seed", <Hash value={race.serverSeed} />],
              ["Nonce", String(race.nonce)],
              ["Started", <When iso={race.startedAt} />],
            ]}
          />
          <p className="small">
            In your browser:{" "}
            <Check ok={committed} yes="the server seed hashes to the hash shown at the countdown" no="the server seed does not hash to the hash shown" testId="check-commitment" />
            <br />
            <Check ok={outcome.winnerIndex === race.winnerIndex} yes={`the seeds give ${outcome.winner} the win`} no={`the seeds give ${outcome.winner}, not ${race.winningUnicorn}`} testId="check-winner" />
          </p>
          <Link className="small" to={fairLink(race)}>
            Check it again on the Provably Fair page
          </Link>
        </article>
      </div>
      <article className="card stack" aria-labelledby="bets-title">
        <h2 id="bets-title">Bets ({bets.length})</h2>
        <BetsTable
          bets={bets}
          choice={{ title: "Unicorn", of: (b) => b.unicornName }}
          result={(b) => (b.status === "won" ? <span className="success-text">won {b.multiplier}x</span> : b.status === "lost" ? <span className="error-text">lost</span> : <span className="muted">{b.status}{b.reason ? ` (${b.reason.replace(/_/g, " ")})` : ""}</span>)}
        />
      </article>
    </>
  );
}
