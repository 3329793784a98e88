import { useMemo } from "react";
import { SLOT_FLOATS_PER_SPIN, floatsFromSeeds, slotSpinFromFloats, slotSymbolIndex, verifyServerSeed, type SlotSpin } from "../../../../engine";
import { RoundLayout, RoundRoute, SeedNote, Tx, When, seedRows } from "../../fair/roundParts";
import { fairLink, spinDetailUrl, type SpinDetail, type SpinRecord } from "./api";
import { SpinReplay } from "./SpinReplay";
import { SymbolImage } from "./symbols";

const fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

/** /slots/spin/<id>: one spin's seeds and their commitment, the reels replayed from them here, and the payment that carried its winnings. */
export default function SpinPage() {
  return (
    <RoundRoute<SpinDetail> param="id" title={(n) => `Slots spin #${n}`} back={{ to: "/games/slots", label: "VVX Slots" }} what="spin" url={spinDetailUrl}>
      {(detail) => <SpinBody detail={detail} />}
    </RoundRoute>
  );
}

/** The spin the revealed seeds give (null while the server seed is secret). */
function fromSeeds(s: SpinRecord): SlotSpin | null {
  if (!s.serverSeed) return null;
  return slotSpinFromFloats(floatsFromSeeds({ serverSeed: s.serverSeed, clientSeed: s.clientSeed, nonce: s.nonce }, SLOT_FLOATS_PER_SPIN), s.spinCost);
}

function SpinBody({ detail }: { detail: SpinDetail }) {
  const { spin, payout } = detail;
  const recorded = useMemo(() => spin.reels.map(slotSymbolIndex), [spin.reels]);
  const computed = useMemo(() => fromSeeds(spin), [spin]);
  const same = computed ? computed.reels.join(",") === recorded.join(",") && Number(computed.totalPayoutMicro) / 1e6 === spin.totalPayout : null;
  return (
    <RoundLayout
      summary={
        <>
          <span className="spin-reels">
            {spin.reels.map((r, i) => (
              <SymbolImage key={i} name={r} size={28} />
            ))}
          </span>{" "}
          {spin.totalPayout > 0 ? (
            <>
              paid <strong>{fmt.format(spin.totalPayout)} VVX</strong> ({spin.multiplier}x the {fmt.format(spin.spinCost)} VVX spin)
            </>
          ) : (
            <>won nothing (a {fmt.format(spin.spinCost)} VVX spin)</>
          )}
        </>
      }
      replayNote={<SeedNote revealed={computed !== null} what="the reels of the revealed seeds" recorded="these are the recorded reels" />}
      replay={<SpinReplay reels={computed?.reels ?? recorded} />}
      facts={[
        ...seedRows(spin),
        ["Dice mystery", `${spin.mysteryMultiple}x (paid on three Dice only)`],
        ["Spun", <When iso={spin.createdAt} />],
        ["Payout", payout ? <>{fmt.format(payout.amount)} VVX for {payout.spinIds.length} spin{payout.spinIds.length === 1 ? "" : "s"}, {payout.status} <Tx hash={payout.txid} /></> : spin.totalPayout > 0 ? "queued for the next ledger" : "none"],
      ]}
      checks={
        computed && [
          { ok: verifyServerSeed(spin.serverSeed!, spin.serverSeedHash), yes: "the server seed hashes to the hash shown first", no: "the server seed does not hash to the hash shown", testId: "check-commitment" },
          { ok: same, yes: "the seeds give these reels and this payout", no: "the seeds give other reels or another payout", testId: "check-spin" },
        ]
      }
      fairLink={fairLink("slots", spin)}
    />
  );
}
