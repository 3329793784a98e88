import { useMemo } from "react";
import { Link, useParams } from "react-router-dom";
import { crashHundredthsFromHash, formatHundredths } from "../../../../engine";
import type { CrashRoundDetail } from "../../../../shared/api/crash";
import { useChainCheck } from "../../fair/checks";
import { BetsTable, Check, Facts, Hash, RoundNav, RoundPage, Tx, When, shortWallet, useRound } from "../../fair/roundParts";
import { fairLink } from "./api";
import { CrashReplay } from "./CrashReplay";

/** /crash/round/<n>: one round's hash and chain, its crash point re-computed here, a replay with every cash-out, and every bet with its payments. */
export default function CrashRoundPage() {
  const n = Number(useParams().round);
  const valid = Number.isSafeInteger(n) && n >= 1;
  const { data, error, isLoading } = useRound<CrashRoundDetail>(valid ? `/api/crash/rounds/${n}` : null);
  return (
    <RoundPage
      title={`Crash round #${valid ? n : "?"}`}
      back={{ to: "/games/crash", label: "Crash" }}
      what="round"
      error={valid ? error : new Error("bad round")}
      loading={isLoading || !data}
      nav={valid ? <RoundNav base="/crash/round" n={n} /> : undefined}
    >
      {data && <RoundBody detail={data} />}
    </RoundPage>
  );
}

function RoundBody({ detail }: { detail: CrashRoundDetail }) {
  const { round, chain, bets } = detail;
  const crash = Math.round(round.crashPoint! * 100);
  const marks = useMemo(
    () => bets.filter((b) => b.status === "won" && b.multiplier !== null).map((b) => ({ hundredths: Math.round(b.multiplier! * 100), label: shortWallet(b.walletAddress) })),
    [bets],
  );
  const recomputed = chain.salt && round.hash ? crashHundredthsFromHash(round.hash, chain.salt) : null;
  const chained = useChainCheck(round.hash, round.gameNumber, chain.terminatingHash);
  const check = fairLink(round, chain.salt ?? undefined, chain.terminatingHash);
  return (
    <>
      <p className="round-summary" data-testid="round-summary">
        {round.voided ? (
          <>
            <strong>Voided</strong> by a server restart: every bet was refunded. It would have crashed at <strong>{formatHundredths(crash)}x</strong>.
          </>
        ) : (
          <>
            Crashed at <strong className="round-result">{formatHundredths(crash)}x</strong>
          </>
        )}
      </p>
      <div className="round-grid">
        <article className="card stack" aria-labelledby="replay-title">
          <h2 id="replay-title">Replay</h2>
          <p className="small muted">Drawn from the crash point alone: the curve e^(0.00006 t) until it crashes, each cash-out where the curve reached it.</p>
          <CrashReplay round={round.round} crashHundredths={crash} marks={marks} />
        </article>
        <article className="card stack" aria-labelledby="fair-title">
          <h2 id="fair-title">Provably fair</h2>
          <Facts
            testId="round-facts"
            rows={[
              ["Game hash", <Hash value={round.hash} />],
              ["Game", `#${round.gameNumber} of chain #${chain.id} (rounds from #${chain.firstRound})`],
              ["Terminating hash", <Hash value={chain.terminatingHash} />],
              ["Committed", chain.commitment ? <>ledger {chain.commitment.ledgerIndex}, <When iso={chain.commitment.committedAt} />, tx <Tx hash={chain.commitment.txHash} /></> : "before on-ledger commitments (salt chosen by the server)"],
              ["Salt", <>{chain.saltLedgerIndex !== null && <span className="small muted">hash of ledger {chain.saltLedgerIndex}: </span>}<Hash value={chain.salt} /></>],
              ["Started", <When iso={round.startedAt} />],
              ["Ended", <When iso={round.endedAt} />],
              ["Max profit", detail.maxProfit === null ? "—" : `${detail.maxProfit} XRP`],
            ]}
          />
          <p className="small">
            In your browser:{" "}
            <Check ok={recomputed === null ? false : recomputed === crash} yes={`HMAC-SHA256(salt, hash) gives ${formatHundredths(crash)}x`} no="the crash point does not follow from the hash and salt" testId="check-crash" />
            <br />
            <Check ok={chained} yes={`the hash hashed ${round.gameNumber} time${round.gameNumber === 1 ? "" : "s"} is the terminating hash`} no="the hash does not lead to the terminating hash" testId="check-chain" />
          </p>
          {check && (
            <Link className="small" to={check}>
              Check it again on the Provably Fair page
            </Link>
          )}
        </article>
      </div>
      <article className="card stack" aria-labelledby="bets-title">
        <h2 id="bets-title">Bets ({bets.length})</h2>
        <BetsTable
          bets={bets}
          choice={{ title: "Auto cash-out", of: (b) => (b.autoCashOut ? `${b.autoCashOut.toFixed(2)}x` : <span className="muted">manual</span>) }}
          result={(b) => (b.status === "won" ? <span className="success-text">cashed out {b.multiplier!.toFixed(2)}x</span> : b.status === "lost" ? <span className="error-text">lost</span> : <span className="muted">{b.status}{b.reason ? ` (${b.reason.replace(/_/g, " ")})` : ""}</span>)}
        />
      </article>
    </>
  );
}
