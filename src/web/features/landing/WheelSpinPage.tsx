import { spinDailyWheel, verifyServerSeed } from "../../../engine";
import { RoundLayout, RoundRoute, SeedNote, When, seedRows } from "../fair/roundParts";
import { fairLink } from "../games/slots/api";
import { wheelSpinUrl, type WheelSpinRecord } from "./wheelApi";
import { WheelReplay } from "./WheelReplay";

/** /wheel/spin/<id>: one daily-wheel spin's seeds and their commitment, and the wheel turned again from them here. */
export default function WheelSpinPage() {
  return (
    <RoundRoute<{ success: boolean; spin: WheelSpinRecord }> param="id" title={(n) => `Wheel spin #${n}`} back={{ to: "/", label: "Daily wheel" }} what="wheel spin" url={wheelSpinUrl}>
      {(data) => <WheelBody spin={data.spin} />}
    </RoundRoute>
  );
}

function WheelBody({ spin }: { spin: WheelSpinRecord }) {
  const computed = spin.serverSeed ? spinDailyWheel({ serverSeed: spin.serverSeed, clientSeed: spin.clientSeed, nonce: spin.nonce }) : null;
  return (
    <RoundLayout
      summary={
        <>
          <strong className="round-result">{spin.prizeLabel}</strong> · segment {spin.position + 1} of 12 · a streak of {spin.streak} day{spin.streak === 1 ? "" : "s"}
        </>
      }
      replayNote={<SeedNote revealed={computed !== null} what="the segment of the revealed seeds" recorded="this turns to the recorded segment" />}
      replay={<WheelReplay position={computed?.position ?? spin.position} />}
      facts={[...seedRows(spin), ["Spun", <When iso={spin.date} />]]}
      checks={
        computed && [
          { ok: verifyServerSeed(spin.serverSeed!, spin.serverSeedHash), yes: "the server seed hashes to the hash shown first", no: "the server seed does not hash to the hash shown", testId: "check-commitment" },
          { ok: computed.position === spin.position, yes: `the seeds give segment ${computed.position + 1}: ${computed.prizeLabel}`, no: `the seeds give segment ${computed.position + 1}, not ${spin.position + 1}`, testId: "check-spin" },
        ]
      }
      fairLink={fairLink("wheel", spin)}
    />
  );
}
