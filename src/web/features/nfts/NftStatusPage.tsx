import { Link } from "react-router-dom";
import { usePageTitle } from "../../lib/usePageTitle";
import { MintingBar, MintingError, UpdatedAt, useMintingStatus } from "./mintingStatus";

/** /nft-status: the compact variant of the minting progress (Genesis, Oasis, total), refreshed every 5 s. */
export default function NftStatusPage() {
  usePageTitle("NFT Status");
  const { data, error, mutate } = useMintingStatus();
  return (
    <section className="container narrow">
      <header className="page-header">
        <h1>NFT Status</h1>
        <p className="muted">Live minting progress of the VVX NFT collection.</p>
      </header>
      {error && !data ? (
        <MintingError onRetry={() => void mutate()} />
      ) : !data ? (
        <p className="page-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Loading minting status...
        </p>
      ) : (
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
    </section>
  );
}
