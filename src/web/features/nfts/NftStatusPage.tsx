import { Link } from "react-router-dom";
import { usePageTitle } from "../../lib/usePageTitle";
import { MintingBar, MintingStatusGate, UpdatedAt } from "./mintingStatus";

/** /nft-status: the compact variant of the minting progress (Genesis, Oasis, total), refreshed every 5 s. */
export default function NftStatusPage() {
  usePageTitle("NFT Status");
  return (
    <section className="container narrow">
      <header className="page-header">
        <h1>NFT Status</h1>
        <p className="muted">Live minting progress of the VVX NFT collection.</p>
      </header>
      <MintingStatusGate>
        {(data) => (
          <div className="card stack">
            <MintingBar label="Genesis" figures={data.genesis} kind="genesis" />
            <MintingBar label="Oasis" figures={data.oasis} kind="oasis" />
            <MintingBar label="Total" figures={data.total} kind="total" />
            <UpdatedAt status={data} />
            <Link to="/marketplace" className="link-arrow">
              Buy an NFT →
            </Link>
          </div>
        )}
      </MintingStatusGate>
    </section>
  );
}
