import { useState } from "react";
import useSWR from "swr";
import { useSnapshot } from "valtio";
import { getJson } from "../../lib/api";
import { usePageTitle } from "../../lib/usePageTitle";
import { walletState } from "../wallet/walletStore";
import { historyKey, type HistoryResponse, type Period, type Transaction } from "./api";
import { formatDate, groupDecimal } from "./format";
import { LoadError, Loading, Pagination, PeriodSelect, StatusBadge, TxLink, Vvx } from "./parts";
import { Tabs } from "./Tabs";

const TABS = [
  { value: "all", label: "All Transactions" },
  { value: "rewards", label: "Rewards" },
  { value: "purchases", label: "Purchases" },
  { value: "swaps", label: "Swaps" },
  { value: "games", label: "Games" },
  { value: "transfers", label: "Transfers" },
] as const;
type Tab = (typeof TABS)[number]["value"];

const EMPTY: Record<Tab, string> = {
  all: "No transactions found for the selected period",
  rewards: "No reward claims or monthly distributions in the selected period",
  purchases: "No NFT purchases in the selected period",
  swaps: "No swaps in the selected period",
  games: "No game bets or payouts in the selected period",
  transfers: "No NFTs sent or received in the selected period",
};

/** /history: the wallet's own records on the ledger, by period and type, with statistics. */
export default function HistoryPage() {
  usePageTitle("Transaction History");
  const { isConnected, walletAddress, checking } = useSnapshot(walletState);
  const wallet = isConnected ? walletAddress : null;
  const [period, setPeriod] = useState<Period>("30days");
  const [tab, setTab] = useState<Tab>("all");
  const [page, setPage] = useState(1);
  const { data, error, isValidating, mutate } = useSWR<HistoryResponse>(wallet ? historyKey(wallet, period, tab, page) : null, getJson, { keepPreviousData: true });

  return (
    <section className="container history-page">
      <header className="page-header row-between wrap">
        <div>
          <p className="eyebrow">Every VVX and XRP movement with its ledger transaction</p>
          <h1>Transaction History</h1>
        </div>
        {wallet && (
          <PeriodSelect
            id="history-period"
            value={period}
            onChange={(p) => {
              setPeriod(p);
              setPage(1);
            }}
          />
        )}
      </header>

      {checking && !wallet ? (
        <Loading text="Loading transactions..." />
      ) : !wallet ? (
        <div className="card center-card" data-testid="connect-prompt">
          <p className="muted">Connect your wallet with the button at the top of the page to view your transaction history.</p>
        </div>
      ) : (
        <>
          {data && <Statistics data={data} />}
          <section className="card section-gap" aria-label="Transactions">
            <Tabs
              tabs={TABS}
              value={tab}
              onChange={(t) => {
                setTab(t);
                setPage(1);
              }}
              label="Transaction types"
              idPrefix="history"
            />
            <div id="history-panel" role="tabpanel" aria-labelledby={`history-tab-${tab}`} className="tab-panel" data-testid="history-panel">
              {error && !data ? (
                <LoadError error={error} fallback="Failed to load the history" retry={() => void mutate()} />
              ) : !data ? (
                <Loading text="Loading transactions..." />
              ) : data.transactions.length === 0 ? (
                <p className="muted">{EMPTY[tab]}</p>
              ) : (
                <Table rows={data.transactions} tab={tab} />
              )}
              {data && (
                <Pagination page={data.page} totalPages={data.totalPages} shown={data.transactions.length} total={data.total} noun="transactions" onPage={setPage} />
              )}
              {isValidating && data && <span className="sr-only" role="status">Updating</span>}
            </div>
          </section>
        </>
      )}
    </section>
  );
}


function Statistics({ data }: { data: HistoryResponse }) {
  const s = data.statistics;
  return (
    <section className="card" aria-labelledby="stats-title" data-testid="history-statistics">
      <h2 id="stats-title">Statistics</h2>
      <dl className="summary-grid">
        <div>
          <dt>Total Rewards Received</dt>
          <dd>
            <Vvx value={s.totalRewardsReceived} />
          </dd>
        </div>
        <div>
          <dt>Total NFT Purchases</dt>
          <dd>
            {s.totalNftPurchases} <span className="muted small">({groupDecimal(s.totalNftPurchaseVvx)} VVX)</span>
          </dd>
        </div>
        <div>
          <dt>Total Swaps</dt>
          <dd>{s.totalSwaps}</dd>
        </div>
        <div>
          <dt>Game Bets and Payouts</dt>
          <dd>{s.totalGames}</dd>
        </div>
      </dl>
    </section>
  );
}

function Table({ rows, tab }: { rows: Transaction[]; tab: Tab }) {
  return (
    <div className="table-wrap">
      <table className="table stack-table" data-testid="history-table">
        <thead>
          <tr>
            <th>Date</th>
            <th>Type</th>
            <th>Description</th>
            {(tab === "rewards" || tab === "transfers") && <th>NFT Tier</th>}
            {tab === "swaps" && <th>Details</th>}
            <th>Amount</th>
            <th>Transaction</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => (
            <tr key={t.id} data-testid="history-row">
              <td data-label="Date">{formatDate(t.date)}</td>
              <td data-label="Type">
                {t.type} <StatusBadge status={t.status} />
              </td>
              <td data-label="Description">{t.description}</td>
              {(tab === "rewards" || tab === "transfers") && <td data-label="NFT Tier">{t.tier ?? "—"}</td>}
              {tab === "swaps" && <td data-label="Details">{t.details ?? "—"}</td>}
              <td data-label="Amount" className={t.amount.startsWith("-") ? "amount-out" : "amount-in"}>
                {/* One element: on a phone the cell spreads its children apart. */}
                <span>
                  {t.amount.startsWith("-") ? "" : "+"}
                  {t.currency === "VVX" ? <Vvx value={t.amount} /> : `${groupDecimal(t.amount)} ${t.currency}`}
                </span>
              </td>
              <td data-label="Transaction">
                <TxLink txid={t.txid} url={t.explorerUrl} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
