import { useMemo } from "react";
import { Link, useParams } from "react-router-dom";
import { SLOT_FLOATS_PER_SPIN, floatsFromSeeds, slotSpinFromFloats, slotSymbolIndex, verifyServerSeed, type SlotSpin } from "../../../../engine";
import { Check, Facts, Hash, RoundPage, Tx, When, shortWallet, useRound } from "../../fair/roundParts";
import { fairLink, spinDetailUrl, type SpinDetail, type SpinRecord } from "./api";
import { SpinReplay } from "./SpinReplay";
import { SymbolImage } from "./symbols";

const fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });

/** /slots/spin/<id>: one spin's seeds and their commitment, the reels replayed from them here, and the payment that carried its winnings. */
export default function SpinPage() {
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id >= 1;
  const { data, error, isLoading } = useRound<SpinDetail>(valid ? spinDetailUrl(id) : null);
  return (
    <RoundPage title={`Slots spin #${valid ? id : "?"}`} back={{ to: "/games/slots", label: "VVX Slots" }} what="spin" error={valid ? error : new Error("bad spin")} loading={isLoading || !data}>
      {data && <SpinBody detail={data} />}
    </RoundPage>
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
    <>
      <p className="round-summary" data-testid="round-summary">
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
      </p>
      <div className="round-grid">
        <article className="card stack" aria-labelledby="replay-title">
          <h2 id="replay-title">Replay</h2>
          {computed ? (
            <p className="small muted">The reels of the revealed seeds, computed in your browser with the same engine as the server.</p>
          ) : (
            <p className="alert alert-warning small" data-testid="seed-hidden">
              The server seed is still in use, so these are the recorded reels. Once the wallet rotates its seed pair, this page replays them from the seeds.
            </p>
          )}
          <SpinReplay reels={computed?.reels ?? recorded} />
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
              ["Dice mystery", `${spin.mysteryMultiple}x (paid on three Dice only)`],
              ["Spun", <When iso={spin.createdAt} />],
              ["Payout", payout ? <>{fmt.format(payout.amount)} VVX for {payout.spinIds.length} spin{payout.spinIds.length === 1 ? "" : "s"}, {payout.status} <Tx hash={payout.txid} /></> : spin.totalPayout > 0 ? "queued for the next ledger" : "none"],
            ]}
          />
          {computed && (
            <p className="small">
              In your browser: <Check ok={verifyServerSeed(spin.serverSeed!, spin.serverSeedHash)} yes="the server seed hashes to the hash shown first" no="the server seed does not hash to the hash shown" testId="check-commitment" />
              <br />
              <Check ok={same} yes="the seeds give these reels and this payout" no="the seeds give other reels or another payout" testId="check-spin" />
            </p>
          )}
          <Link className="small" to={fairLink("slots", spin)}>
            Check it on the Provably Fair page
          </Link>
        </article>
      </div>
    </>
  );
}
