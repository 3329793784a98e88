import { Link } from "react-router-dom";
import { formatWhole } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { MintingBar, MintingStatusGate, UpdatedAt } from "./mintingStatus";
import { roiLabel, totalReturnPercent } from "./tiers";
import { useTiers } from "./useTiers";

/** /nft-minting-status: Genesis, Oasis and total minting progress with each tier's terms, refreshed every 5 s. */
export default function NftMintingStatusPage() {
  usePageTitle("NFT Minting Status");
  const { tiers } = useTiers();
  const terms = (code: string) => {
    const t = tiers?.find((x) => x.tier === code);
    return t ? `${t.price} · ${roiLabel(t.roiPercentage)} for ${t.durationMonths} months (${totalReturnPercent(t)}%)` : null;
  };
  return (
    <section className="container">
      <header className="page-header">
        <h1>NFT Minting Status</h1>
        <p className="muted lead-left">How many Genesis and Oasis NFTs have been minted on the XRP Ledger so far, and how many remain.</p>
      </header>
      <MintingStatusGate>
        {(data) => (
          <>
            <div className="grid grid-3 minting-cards">
              {(
                [
                  ["Genesis", "genesis", data.genesis, terms("GENESIS")],
                  ["Oasis", "oasis", data.oasis, terms("OASIS")],
                  ["Total", "total", data.total, null],
                ] as const
              ).map(([label, kind, figures, tierTerms]) => (
                <article key={kind} className={`card minting-card minting-card-${kind}`}>
                  <h2>{label}</h2>
                  <p className="minting-big">
                    {formatWhole(figures.minted)}
                    <span className="muted"> / {formatWhole(figures.total)}</span>
                  </p>
                  <MintingBar label={`${label} NFTs`} figures={figures} kind={kind} />
                  {tierTerms && <p className="muted small">{tierTerms}</p>}
                </article>
              ))}
            </div>
            <UpdatedAt status={data} />
            <p className="section-gap">
              <Link to="/marketplace" className="btn btn-primary">
                Go to the marketplace
              </Link>
            </p>
          </>
        )}
      </MintingStatusGate>
    </section>
  );
}
