import { Link, useParams } from "react-router-dom";
import { spinDailyWheel, verifyServerSeed } from "../../../engine";
import { Check, Facts, Hash, RoundPage, When, shortWallet, useRound } from "../fair/roundParts";
import { fairLink } from "../games/slots/api";
import { wheelSpinUrl, type WheelSpinRecord } from "./wheelApi";
import { WheelReplay } from "./WheelReplay";

/** /wheel/spin/<id>: one daily-wheel spin's seeds and their commitment, and the wheel turned again from them here. */
export default function WheelSpinPage() {
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id >= 1;
  const { data, error, isLoading } = useRound<{ success: boolean; spin: WheelSpinRecord }>(valid ? wheelSpinUrl(id) : null);
  return (
    <RoundPage title={`Wheel spin #${valid ? id : "?"}`} back={{ to: "/", label: "Daily wheel" }} what="wheel spin" error={valid ? error : new Error("bad spin")} loading={isLoading || !data}>
      {data && <WheelBody spin={data.spin} />}
    </RoundPage>
  );
}

function WheelBody({ spin }: { spin: WheelSpinRecord }) {
  const computed = spin.serverSeed ? spinDailyWheel({ serverSeed: spin.serverSeed, clientSeed: spin.clientSeed, nonce: spin.nonce }) : null;
  return (
    <>
      <p className="round-summary" data-testid="round-summary">
        <strong className="round-result">{spin.prizeLabel}</strong> · segment {spin.position + 1} of 12 · a streak of {spin.streak} day{spin.streak === 1 ? "" : "s"}
      </p>
      <div className="round-grid">
        <article className="card stack" aria-labelledby="replay-title">
          <h2 id="replay-title">Replay</h2>
          {computed ? (
            <p className="small muted">The segment of the revealed seeds, computed in your browser with the same engine as the server.</p>
          ) : (
            <p className="alert alert-warning small" data-testid="seed-hidden">
              The server seed is still in use, so this turns to the recorded segment. Once the wallet rotates its seed pair, this page replays it from the seeds.
            </p>
          )}
          <WheelReplay position={computed?.position ?? spin.position} />
        </article>
        <article className="card stack" aria-labelledby="fair-title">
          <h2 id="fair-title">Provably fair</h2>
          <Facts
            testId="round-facts"
            rows={[
              ["Wallet", <span className="mono" title={spin.walletAddress}>{shortWallet(spin.walletAddress)}</span>],
              ["Server seed hash", <Hash value={spin.serverSeedHash} />],
              ["Shown since", <When iso={spin.committedAt} />],
              ["Server seed", spin.serverSeed ? <Hash value={spin.serverSeed} /> : <span className="muted">not revealed yet (rotate the seed pair)</span>],
              ["Client seed", <Hash value={spin.clientSeed} />],
              ["Nonce", String(spin.nonce)],
              ["Spun", <When iso={spin.date} />],
            ]}
          />
          {computed && (
            <p className="small">
              In your browser: <Check ok={verifyServerSeed(spin.serverSeed!, spin.serverSeedHash)} yes="the server seed hashes to the hash shown first" no="the server seed does not hash to the hash shown" testId="check-commitment" />
              <br />
              <Check ok={computed.position === spin.position} yes={`the seeds give segment ${computed.position + 1}: ${computed.prizeLabel}`} no={`the seeds give segment ${computed.position + 1}, not ${spin.position + 1}`} testId="check-spin" />
            </p>
          )}
          <Link className="small" to={fairLink("wheel", spin)}>
            Check it on the Provably Fair page
          </Link>
        </article>
      </div>
    </>
  );
}
