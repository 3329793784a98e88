import { useMemo } from "react";
import { crashHundredthsFromHash, formatHundredths } from "../../../../engine";
import type { CrashRoundDetail } from "../../../../shared/api/crash";
import { useChainCheck } from "../../fair/checks";
import { BetsCard, Hash, RoundLayout, RoundRoute, Tx, When, shortWallet } from "../../fair/roundParts";
import { fairLink } from "./api";
import { CrashReplay } from "./CrashReplay";

/** /crash/round/<n>: one round's hash and chain, its crash point re-computed here, a replay with every cash-out, and every bet with its payments. */
export default function CrashRoundPage() {
  return (
    <RoundRoute<CrashRoundDetail> param="round" title={(n) => `Crash round #${n}`} back={{ to: "/games/crash", label: "Crash" }} what="round" url={(n) => `/api/crash/rounds/${n}`} navBase="/crash/round">
      {(detail) => <RoundBody detail={detail} />}
    </RoundRoute>
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
  return (
    <RoundLayout
      summary={
        round.voided ? (
          <>
            <strong>Voided</strong> by a server restart: every bet was refunded. It would have crashed at <strong>{formatHundredths(crash)}x</strong>.
          </>
        ) : (
          <>
            Crashed at <strong className="round-result">{formatHundredths(crash)}x</strong>
          </>
        )
      }
      replayNote={<p className="small muted">Drawn from the crash point alone: the curve e^(0.00006 t) until it crashes, each cash-out where the curve reached it.</p>}
      replay={<CrashReplay round={round.round} crashHundredths={crash} marks={marks} />}
      facts={[
        ["Game hash", <Hash value={round.hash} />],
        ["Game", `#${round.gameNumber} of chain #${chain.id} (rounds from #${chain.firstRound})`],
        ["Terminating hash", <Hash value={chain.terminatingHash} />],
        ["Committed", chain.commitment ? <>ledger {chain.commitment.ledgerIndex}, <When iso={chain.commitment.committedAt} />, tx <Tx hash={chain.commitment.txHash} /></> : "before on-ledger commitments (salt chosen by the server)"],
        ["Salt", <>{chain.saltLedgerIndex !== null && <span className="small muted">hash of ledger {chain.saltLedgerIndex}: </span>}<Hash value={chain.salt} /></>],
        ["Started", <When iso={round.startedAt} />],
        ["Ended", <When iso={round.endedAt} />],
        ["Max profit", detail.maxProfit === null ? "—" : `${detail.maxProfit} XRP`],
      ]}
      checks={[
        { ok: recomputed === null ? false : recomputed === crash, yes: `HMAC-SHA256(salt, hash) gives ${formatHundredths(crash)}x`, no: "the crash point does not follow from the hash and salt", testId: "check-crash" },
        { ok: chained, yes: `the hash hashed ${round.gameNumber} time${round.gameNumber === 1 ? "" : "s"} is the terminating hash`, no: "the hash does not lead to the terminating hash", testId: "check-chain" },
      ]}
      fairLink={fairLink(round, chain.salt ?? undefined, chain.terminatingHash)}
      bets={<BetsCard bets={bets} choice={{ title: "Auto cash-out", of: (b) => (b.autoCashOut ? `${b.autoCashOut.toFixed(2)}x` : <span className="muted">manual</span>) }} won={(b) => `cashed out ${b.multiplier!.toFixed(2)}x`} />}
    />
  );
}
