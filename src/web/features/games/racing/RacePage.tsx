import { useMemo } from "react";
import { UNICORNS, raceFromSeeds, verifyServerSeed } from "../../../../engine";
import type { RaceDetail } from "../../../../shared/api/racing";
import { BetsCard, Hash, RoundLayout, RoundRoute, When } from "../../fair/roundParts";
import { ordinal } from "./RaceView";
import { RaceReplay } from "./RaceReplay";
import { fairLink } from "./timeline";

/** /racing/race/<n>: one race's seeds and their commitment, the whole race replayed from them here, and every bet with its payments. */
export default function RacePage() {
  return (
    <RoundRoute<RaceDetail> param="round" title={(n) => `Race #${n}`} back={{ to: "/games/unicorn-racing", label: "Unicorn Racing" }} what="race" url={(n) => `/api/racing/races/${n}`} navBase="/racing/race">
      {(detail) => <RaceBody detail={detail} />}
    </RoundRoute>
  );
}

function RaceBody({ detail }: { detail: RaceDetail }) {
  const { race, bets } = detail;
  const outcome = useMemo(() => raceFromSeeds({ serverSeed: race.serverSeed, clientSeed: race.clientSeed, nonce: race.nonce }), [race.serverSeed, race.clientSeed, race.nonce]);
  return (
    <RoundLayout
      summary={
        <>
          <strong className="round-result" style={{ color: UNICORNS[race.winnerIndex]!.hex }}>
            {race.winningUnicorn}
          </strong>{" "}
          won · winners were paid {race.payoutMultiple}x their bet
        </>
      }
      replayNote={<p className="small muted">The whole race, computed in your browser from its seeds with the same engine as the server, each unicorn's place shown as it crosses the line.</p>}
      replay={
        <>
          <RaceReplay outcome={outcome} />
          <ol className="round-order small" data-testid="race-order">
            {outcome.order.map((u, place) => (
              <li key={u}>
                {ordinal(place + 1)}: <span style={{ color: UNICORNS[u]!.hex }}>{UNICORNS[u]!.name}</span>
                <span className="muted"> · {(outcome.finishTicks[u]! / outcome.tickRate).toFixed(2)} s</span>
              </li>
            ))}
          </ol>
        </>
      }
      facts={[
        ["Server seed hash", <Hash value={race.serverSeedHash} />],
        ["Shown since", <><When iso={race.committedAt} />{race.commitLedger !== null && <span className="muted"> (ledger {race.commitLedger} was the newest)</span>}</>],
        ["Bets closed", `after ledger ${detail.closeLedger}`],
        ["Client seed", <><span className="small muted">hash of ledger {race.clientSeedLedger}: </span><Hash value={race.clientSeed} /></>],
        ["Server seed", <Hash value={race.serverSeed} />],
        ["Nonce", String(race.nonce)],
        ["Started", <When iso={race.startedAt} />],
      ]}
      checks={[
        { ok: verifyServerSeed(race.serverSeed, race.serverSeedHash), yes: "the server seed hashes to the hash shown at the countdown", no: "the server seed does not hash to the hash shown", testId: "check-commitment" },
        { ok: outcome.winnerIndex === race.winnerIndex, yes: `the seeds give ${outcome.winner} the win`, no: `the seeds give ${outcome.winner}, not ${race.winningUnicorn}`, testId: "check-winner" },
      ]}
      fairLink={fairLink(race)}
      bets={<BetsCard bets={bets} choice={{ title: "Unicorn", of: (b) => b.unicornName }} won={(b) => `won ${b.multiplier}x`} />}
    />
  );
}
