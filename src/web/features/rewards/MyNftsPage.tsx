import { useCallback, useMemo, useState } from "react";
import useSWR, { useSWRConfig } from "swr";
import { useSnapshot } from "valtio";
import { getJson } from "../../lib/api";
import { shortAddress } from "../../lib/format";
import { usePageTitle } from "../../lib/usePageTitle";
import { useWalletPush } from "../../lib/useWalletPush";
import { useTiers } from "../nfts/useTiers";
import { walletState } from "../wallet/walletStore";
import { fetchOwnedNfts, ownedNftsKey, transfersKey, type OwnedNft, type TransfersResponse } from "./api";
import { sumDecimal } from "./format";
import { IncomingTransfers } from "./IncomingTransfers";
import { NftDetailsDialog } from "./NftDetailsDialog";
import { ConnectPrompt, LoadError, Loading, NftCard, NoNfts, Vvx } from "./parts";
import { Tabs } from "./Tabs";
import { TransferDialog } from "./TransferDialog";

/** /my-nfts: the wallet's NFTs by tier, their details, Transfer NFT, and the investment summary. */
export default function MyNftsPage() {
  usePageTitle("My NFTs");
  const { isConnected, walletAddress, checking } = useSnapshot(walletState);
  const wallet = isConnected ? walletAddress : null;
  const { tiers } = useTiers();
  const [tab, setTab] = useState("all");
  const [details, setDetails] = useState<OwnedNft | null>(null);
  const [transferring, setTransferring] = useState<OwnedNft | null>(null);
  const owned = useSWR<OwnedNft[]>(wallet ? ownedNftsKey(wallet) : null, fetchOwnedNfts);
  const transfers = useSWR<TransfersResponse>(wallet ? transfersKey(wallet) : null, getJson);
  const { mutate } = useSWRConfig();
  const refresh = useCallback(() => {
    if (!wallet) return;
    void mutate(ownedNftsKey(wallet));
    void mutate(transfersKey(wallet));
  }, [wallet, mutate]);
  // Transfers offered, cancelled or accepted (by this wallet or to it) arrive by push; the lists poll only while it is down.
  const pushed = useWalletPush(wallet, (message) => message.type === "nft.transfer" && refresh(), refresh);

  // Tabs follow the live tiers.
  const tabs = useMemo(() => [{ value: "all", label: "All NFTs" }, ...(tiers ?? []).map((t) => ({ value: t.tier, label: t.name }))], [tiers]);
  const nfts = owned.data ?? [];
  const shown = tab === "all" ? nfts : nfts.filter((n) => n.tier.tier === tab);
  const pendingTo = new Map((transfers.data?.outgoing ?? []).map((o) => [o.tokenId, o.to]));

  return (
    <section className="container my-nfts-page">
      <header className="page-header">
        <p className="eyebrow">Your XLS-20 NFTs</p>
        <h1>My NFTs</h1>
        <p className="muted lead-left">The Genesis and Oasis NFTs your wallet holds on the XRP Ledger, what each has earned so far, and transfers to other wallets.</p>
      </header>

      {checking && !wallet ? (
        <Loading text="Checking your wallet..." />
      ) : !wallet ? (
        <ConnectPrompt text="Connect your wallet to view your NFT investments" />
      ) : (
        <>
          <IncomingTransfers wallet={wallet} pushed={pushed} onAccepted={refresh} />
          <Tabs tabs={tabs} value={tab} onChange={setTab} label="NFT tiers" idPrefix="my-nfts" />
          <div id="my-nfts-panel" role="tabpanel" aria-labelledby={`my-nfts-tab-${tab}`} className="tab-panel">
            {owned.error && !owned.data ? (
              <LoadError error={owned.error} fallback="Failed to load your NFTs" retry={() => void owned.mutate()} />
            ) : !owned.data ? (
              <Loading text="Loading your NFTs..." />
            ) : nfts.length === 0 ? (
              <NoNfts />
            ) : shown.length === 0 ? (
              <p className="card muted">You don't own any {tabs.find((t) => t.value === tab)?.label ?? ""} NFTs yet.</p>
            ) : (
              <div className="grid grid-3 nft-grid">
                {shown.map((n) => (
                  <NftCard key={n.tokenId} nft={n} onDetails={setDetails}>
                    {pendingTo.has(n.tokenId) && (
                      <p className="badge badge-pending" data-testid="transfer-badge">
                        Transfer pending to {shortAddress(pendingTo.get(n.tokenId)!)}
                      </p>
                    )}
                  </NftCard>
                ))}
              </div>
            )}
          </div>
          {nfts.length > 0 && <InvestmentSummary nfts={nfts} />}
        </>
      )}
      <NftDetailsDialog
        nft={details}
        onClose={() => setDetails(null)}
        onTransfer={(n) => {
          setDetails(null);
          setTransferring(n);
        }}
      />
      {transferring && wallet && <TransferDialog nft={transferring} wallet={wallet} pushed={pushed} onClose={() => setTransferring(null)} onChanged={refresh} />}
    </section>
  );
}


function InvestmentSummary({ nfts }: { nfts: OwnedNft[] }) {
  return (
    <section className="card section-gap" aria-labelledby="investment-title" data-testid="investment-summary">
      <h2 id="investment-title">Investment Summary</h2>
      <dl className="summary-grid">
        <div>
          <dt>Total Invested</dt>
          <dd>
            <Vvx value={sumDecimal(nfts.map((n) => n.investment))} />
          </dd>
        </div>
        <div>
          <dt>Total ROI Expected</dt>
          <dd>
            <Vvx value={sumDecimal(nfts.map((n) => n.maxRewards))} />
          </dd>
        </div>
        <div>
          <dt>Rewards Earned So Far</dt>
          <dd data-testid="earned-so-far">
            <Vvx value={sumDecimal(nfts.map((n) => n.totalRewardsEarned))} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
