import { useState, type ReactNode } from "react";
import { useNavigate } from "react-router-dom";
import useSWR, { type SWRResponse } from "swr";
import { useSnapshot } from "valtio";
import { getJson } from "../../lib/api";
import { usePageTitle } from "../../lib/usePageTitle";
import { PendingOffersCard } from "../nfts/PendingOffersCard";
import { WalletConnect } from "../wallet/WalletConnect";
import { walletState } from "../wallet/walletStore";
import { fetchRewards, rewardsKey, summaryKey, type OwnedNft, type Period, type RewardsResponse, type WalletSummary } from "./api";
import { formatDate, rewardKindText, toMicro, vvx } from "./format";
import { NftDetailsDialog } from "./NftDetailsDialog";
import { LoadError, Loading, NftCard, NoNfts, Pagination, PeriodSelect, StatusBadge, TxLink, Vvx } from "./parts";

const PAGE_SIZE = 10;

/** /dashboard: balance, NFTs and pending rewards cards, pending offers, NFT investments and recent rewards. */
export default function DashboardPage() {
  usePageTitle("Dashboard");
  const { isConnected, walletAddress } = useSnapshot(walletState);
  const wallet = isConnected ? walletAddress : null;
  const [period, setPeriod] = useState<Period>("7days");
  const [page, setPage] = useState(1);
  const [details, setDetails] = useState<OwnedNft | null>(null);
  const summary = useSWR<WalletSummary>(wallet ? summaryKey(wallet) : null, getJson);
  const rewards = useSWR<RewardsResponse>(wallet ? rewardsKey(wallet, period, page, PAGE_SIZE) : null, fetchRewards, { keepPreviousData: true });

  return (
    <section className="container dashboard-page">
      <header className="page-header row-between wrap">
        <div>
          <p className="eyebrow">Your VVX at a glance</p>
          <h1>Dashboard</h1>
        </div>
        <WalletConnect />
      </header>

      <SummaryCards wallet={wallet} summary={summary} />

      {wallet && (
        <div className="section-gap">
          <PendingOffersCard walletAddress={wallet} />
        </div>
      )}

      <section className="section-gap" aria-labelledby="investments-title">
        <h2 id="investments-title">My NFT Investments</h2>
        {!wallet ? (
          <p className="card muted">Connect your wallet to view your NFT investments</p>
        ) : rewards.error && !rewards.data ? (
          <LoadError error={rewards.error} fallback="Failed to load rewards data" retry={() => void rewards.mutate()} />
        ) : !rewards.data ? (
          <Loading text="Loading your NFTs..." />
        ) : rewards.data.nfts.length === 0 ? (
          <NoNfts />
        ) : (
          <div className="grid grid-3 nft-grid">
            {rewards.data.nfts.map((n) => (
              <NftCard key={n.nft.tokenId} nft={n.nft} onDetails={setDetails} />
            ))}
          </div>
        )}
      </section>

      {wallet && (
        <RecentRewards
          data={rewards.data}
          period={period}
          onPeriod={(p) => {
            setPeriod(p);
            setPage(1);
          }}
          onPage={setPage}
          loading={rewards.isValidating}
        />
      )}
      <NftDetailsDialog nft={details} onClose={() => setDetails(null)} />
    </section>
  );
}



function SummaryCards({ wallet, summary }: { wallet: string | null; summary: SWRResponse<WalletSummary> }) {
  const navigate = useNavigate();
  const s = summary.data;
  const value = (text: ReactNode | undefined) =>
    !wallet ? <span className="muted small">Connect your wallet to view balance</span> : summary.error && !s ? <span className="error-text small">Could not load</span> : text === undefined ? <span className="spinner" aria-label="Loading" /> : text;
  const pending = s ? toMicro(s.pendingRewards) : 0n;
  return (
    <div className="grid grid-3 summary-cards" data-testid="summary-cards">
      <StatCard label="VVX Balance" testId="vvx-balance" value={value(s && <Vvx value={s.vvexBalance} />)} />
      <StatCard label="NFTs Owned" testId="nfts-owned" value={value(s && String(s.nftsOwned))} />
      <StatCard label="Pending Rewards" testId="pending-rewards" value={value(s && <Vvx value={s.pendingRewards} />)}>
        {wallet && (
          <button className="btn btn-primary" disabled={pending <= 0n} onClick={() => navigate("/rewards")}>
            Claim Rewards
          </button>
        )}
      </StatCard>
    </div>
  );
}

function StatCard({ label, testId, value, children }: { label: string; testId: string; value: ReactNode; children?: ReactNode }) {
  return (
    <div className="card stat-card">
      <h2 className="stat-label">{label}</h2>
      <p className="stat-value" data-testid={testId}>
        {value}
      </p>
      {children}
    </div>
  );
}

function RecentRewards({ data, period, onPeriod, onPage, loading }: { data: RewardsResponse | undefined; period: Period; onPeriod: (p: Period) => void; onPage: (p: number) => void; loading: boolean }) {
  return (
    <section className="card section-gap" aria-labelledby="recent-title" data-testid="recent-rewards">
      <div className="row-between wrap">
        <h2 id="recent-title">
          Recent Rewards {loading && <span className="spinner" aria-label="Loading" />}
        </h2>
        <PeriodSelect id="rewards-period" value={period} onChange={onPeriod} />
      </div>
      {!data ? (
        <Loading text="Loading rewards..." />
      ) : data.rewards.length === 0 ? (
        <p className="muted">No rewards found for the selected period</p>
      ) : (
        <div className="table-wrap">
          <table className="table stack-table">
            <thead>
              <tr>
                <th>Date</th>
                <th>NFT</th>
                <th>Amount</th>
                <th>Status</th>
                <th>Transaction</th>
              </tr>
            </thead>
            <tbody>
              {data.rewards.map((r) => (
                <tr key={r.id}>
                  <td data-label="Date">{formatDate(r.date)}</td>
                  <td data-label="NFT">
                    {r.nft.name}
                    <div className="muted small">{rewardKindText(r)}</div>
                  </td>
                  <td data-label="Amount">
                    <Vvx value={r.amount} />
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={r.status} />
                  </td>
                  <td data-label="Transaction">
                    <TxLink txid={r.txid} url={r.explorerUrl} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && <Pagination page={data.page} totalPages={data.totalPages} shown={data.rewards.length} total={data.rewardsTotal} noun="rewards" onPage={onPage} />}
    </section>
  );
}
