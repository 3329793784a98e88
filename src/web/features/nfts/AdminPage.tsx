import useSWR from "swr";
import { useSnapshot } from "valtio";
import { getJson, HttpError } from "../../lib/api";
import { formatWhole, shortAddress } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { DepositsCard } from "../admin/DepositsCard";
import { FailedPayoutsCard } from "../admin/FailedPayoutsCard";
import { HouseCard } from "../admin/HouseCard";
import { WheelCard } from "../admin/WheelCard";
import { connectWallet, walletState } from "../wallet/walletStore";
import { statusText, type VaultRow } from "./api";
import { MintingBar, useMintingStatus } from "./mintingStatus";

const VAULT_KEY = "/api/admin/nft-vault-summary";

async function fetchVault([url]: readonly [string, string | null]): Promise<VaultRow[]> {
  try {
    const body = await getJson<unknown>(url);
    const rows = Array.isArray(body) ? body : ((body as { summary?: unknown; rows?: unknown; data?: unknown }).summary ?? (body as { rows?: unknown }).rows ?? (body as { data?: unknown }).data);
    if (!Array.isArray(rows)) throw new Error("Invalid response from server");
    return rows as VaultRow[];
  } catch (err) {
    if (err instanceof HttpError) throw err;
    throw new Error(`Failed to fetch NFT vault summary: ${statusText(err)}`);
  }
}

/** /admin: the NFT vault summary and minting progress, for wallets on the server's admin list. */
export default function AdminPage() {
  usePageTitle("Admin");
  const { walletAddress, checking } = useSnapshot(walletState);
  // Keyed on the wallet so that connecting (a new session) asks again.
  const vault = useSWR<VaultRow[]>(checking ? null : ([VAULT_KEY, walletAddress] as const), fetchVault);
  const minting = useMintingStatus();
  const status = vault.error instanceof HttpError ? vault.error.status : null;
  const refresh = () => void Promise.all([vault.mutate(), minting.mutate()]);

  if (status === 401 || status === 403) return <AdminRefusal status={status} walletAddress={walletAddress} />;

  const rows = vault.data ?? [];
  return (
    <section className="container">
      <header className="page-header row-between wrap">
        <div>
          <h1>Admin: NFT vault</h1>
          <p className="muted">Minted, sold and remaining NFTs per tier.</p>
        </div>
        <button className="btn btn-outline" onClick={refresh} disabled={vault.isValidating || minting.isValidating}>
          {(vault.isValidating || minting.isValidating) && <span className="spinner" aria-hidden="true" />}
          Refresh
        </button>
      </header>

      <div className="card">
        <h2>Vault summary</h2>
        {vault.error ? (
          <div className="stack" role="alert">
            <p className="error-text">Failed to fetch NFT vault summary: {statusText(vault.error)}</p>
            <button className="btn btn-outline" onClick={refresh}>
              Try Again
            </button>
          </div>
        ) : !vault.data ? (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Loading vault summary...
          </p>
        ) : rows.length === 0 ? (
          <p className="muted">No tiers are configured.</p>
        ) : (
          <VaultTable rows={rows} />
        )}
      </div>

      <MintingProgress minting={minting} />
      <FailedPayoutsCard />
      <HouseCard />
      <WheelCard />
      <DepositsCard />
    </section>
  );
}

/** Why the vault is not shown: no session (connect an admin wallet) or a wallet that is not an admin. */
function AdminRefusal({ status, walletAddress }: { status: 401 | 403; walletAddress: string | null }) {
  return (
    <section className="container narrow center-page">
      <div className="card stack refusal" role="alert" data-testid="admin-refused">
        <h1>{status === 401 ? "Admin sign-in required" : "Access denied"}</h1>
        {status === 401 ? (
          <>
            <p className="muted">This page is for platform administrators. Connect an admin wallet to continue.</p>
            <button className="btn btn-primary" onClick={() => void connectWallet()}>
              Connect Wallet
            </button>
          </>
        ) : (
          <p className="muted">
            The connected wallet{walletAddress ? <> {shortAddress(walletAddress)}</> : null} is not an administrator of this platform, so the vault summary is not
            available to it.
          </p>
        )}
      </div>
    </section>
  );
}

/** Minted, sold, max and remaining per tier, with a total row. */
function VaultTable({ rows }: { rows: readonly VaultRow[] }) {
  const totals = rows.reduce((t, r) => ({ minted: t.minted + r.minted_count, sold: t.sold + r.sold_count, max: t.max + r.max_supply }), { minted: 0, sold: 0, max: 0 });
  return (
    <div className="table-wrap">
      <table className="table stack-table" data-testid="vault-table">
        <thead>
          <tr>
            <th scope="col">Tier</th>
            <th scope="col">Minted</th>
            <th scope="col">Sold</th>
            <th scope="col">Max supply</th>
            <th scope="col">Remaining</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.tier_id}>
              <td data-label="Tier">{r.tier_name}</td>
              <td data-label="Minted">{formatWhole(r.minted_count)}</td>
              <td data-label="Sold">{formatWhole(r.sold_count)}</td>
              <td data-label="Max supply">{formatWhole(r.max_supply)}</td>
              <td data-label="Remaining">{formatWhole(Math.max(0, r.max_supply - r.minted_count))}</td>
            </tr>
          ))}
          <tr className="table-total">
            <td data-label="Tier">Total</td>
            <td data-label="Minted">{formatWhole(totals.minted)}</td>
            <td data-label="Sold">{formatWhole(totals.sold)}</td>
            <td data-label="Max supply">{formatWhole(totals.max)}</td>
            <td data-label="Remaining">{formatWhole(Math.max(0, totals.max - totals.minted))}</td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

/** The minting progress bars, with their loading and error states. */
function MintingProgress({ minting }: { minting: ReturnType<typeof useMintingStatus> }) {
  return (
    <div className="card section-gap stack">
      <h2>Minting progress</h2>
      {minting.error && !minting.data ? (
        <p className="error-text" role="alert">
          Unable to load NFT minting status. Please try again later.
        </p>
      ) : !minting.data ? (
        <p className="muted" role="status">
          <span className="spinner" aria-hidden="true" /> Loading minting status...
        </p>
      ) : (
        <>
          <MintingBar label="Overall" figures={minting.data.total} kind="total" />
          <MintingBar label="Genesis" figures={minting.data.genesis} kind="genesis" />
          <MintingBar label="Oasis" figures={minting.data.oasis} kind="oasis" />
        </>
      )}
    </div>
  );
}
