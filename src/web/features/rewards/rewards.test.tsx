import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { jsonResponse, setWallet, stubFetch, useDom, withProviders } from "../../testing/dom";
import { groupDecimal, nextClaimText, percentOf, sumDecimal, toMicro } from "./format";
import { pageWindow } from "./parts";
import { recipientProblem } from "./TransferDialog";

useDom();
afterEach(() => cleanup());

const WALLET = "rHolder111111111111111111111111111";
const TOKEN = "00080000" + "AB".repeat(28);
const NOW = "2026-12-23T10:00:00.000Z";

describe("exact VVX text", () => {
  test("grouping, sums and shares never go through floats", () => {
    expect([groupDecimal("1666.666666"), groupDecimal("-500000"), groupDecimal("0"), groupDecimal("50000.100000"), groupDecimal("12345678.5")]).toEqual([
      "1,666.666666",
      "-500,000",
      "0",
      "50,000.1",
      "12,345,678.5",
    ]);
    expect(sumDecimal(["0.1", "0.2", "1666.666666", "1666.666667"])).toBe("3333.633333");
    expect(toMicro("-25.5")).toBe(-25_500_000n);
    expect([percentOf("25000", "50000"), percentOf("60000", "50000"), percentOf("1", "0")]).toEqual([50, 100, 0]);
  });

  test("next claim: 'Available now' or hours and minutes, measured on the server's clock", () => {
    expect(nextClaimText("2026-12-23T09:00:00.000Z", NOW)).toBe("Available now");
    expect(nextClaimText(NOW, NOW)).toBe("Available now");
    expect(nextClaimText("2026-12-24T09:59:30.000Z", NOW)).toBe("24h 0m");
    expect(nextClaimText("2026-12-23T10:05:00.000Z", NOW)).toBe("0h 5m");
    expect(nextClaimText(null, NOW)).toBe("No further rewards");
  });

  test("page buttons around the current page; the recipient check", () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(5, 20)).toEqual([1, null, 4, 5, 6, null, 20]);
    expect(recipientProblem("", WALLET)).toContain("Enter");
    expect(recipientProblem("0xabc", WALLET)).toContain("not an XRPL classic address");
    const owner = "rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe";
    expect(recipientProblem(` ${owner} `, owner)).toContain("your own wallet");
    expect(recipientProblem("rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH", owner)).toBeNull();
  });
});

const nft = {
  id: TOKEN,
  tokenId: TOKEN,
  name: "Genesis NFT #1",
  number: 1,
  taxon: 1001,
  tier: { name: "Genesis", tier: "GENESIS", roiPercentage: "10", durationMonths: 12, price: "500,000 VVX" },
  tierId: 1,
  owner: WALLET,
  mintedAt: "2026-11-23T10:00:00.000Z",
  purchasedAt: "2026-11-23T10:00:00.000Z",
  investment: "500000",
  rewardsEarned: "0",
  totalRewardsEarned: "50000",
  rewardsClaimable: "50000",
  rewardsForfeited: "0",
  maxRewards: "600000",
  roiProgress: 8.33,
  nextRewardDate: "2026-12-24T10:00:00.000Z",
  imageUrl: "/assets/nfts/genesis.svg",
  explorerUrl: "http://localhost/sandbox/explorer/account/" + WALLET,
};
const REWARDS = {
  success: true,
  walletAddress: WALLET,
  now: NOW,
  period: "30days",
  totalAccruedVVX: "50000",
  totalEarnedVVX: "50000",
  dailyVVX: "1666.666666",
  nextClaimTime: "2026-11-24T10:00:00.000Z",
  canClaimEarly: true,
  canClaimFull: true,
  rewards: [],
  rewardsTotal: 0,
  page: 1,
  pageSize: 10,
  totalPages: 1,
  nfts: [
    {
      nft,
      tier: { id: 1, name: "Genesis", tier: "GENESIS", roiPercentage: "10", durationMonths: 12, price: "500,000 VVX" },
      totalRewards: "50000",
      maxRewards: "600000",
      dailyVVX: "1666.666666",
      accruedRewardsSinceLastClaim: "50000",
      earlyClaimAmount: "25000",
      fullClaimTarget: "50000",
      daysToFullClaim: 30,
      estimatedFullClaimDate: "2026-12-23T10:00:00.000Z",
      canClaimEarly: true,
      canClaimFull: true,
      nextClaimTime: "2026-11-24T10:00:00.000Z",
      lastClaimTime: null,
      claimPending: false,
    },
  ],
};

async function renderRewards() {
  await setWallet(WALLET);
  const { default: RewardsPage } = await import("./RewardsPage");
  const { Toaster } = await import("../../components/Toaster");
  return render(
    withProviders(
      <>
        <RewardsPage />
        <Toaster />
      </>,
    ),
  );
}
const toastText = (screen: ReturnType<typeof render>) => screen.queryByTestId("toast")?.textContent ?? "";

describe("/rewards claims", () => {
  test("a full claim shows the spec's success toast and reloads the rewards 1 s later", async () => {
    let loads = 0;
    const s = stubFetch({
      [`/api/rewards/wallet/${WALLET}`]: () => (loads++, jsonResponse(REWARDS)),
      "/api/rewards/claim": () => jsonResponse({ success: true, claimId: 1, tokenId: TOKEN, claimType: "full", claimedAmount: "50000", forfeitedAmount: "0", status: "Claimed", txid: "AA".repeat(32), explorerUrl: null, message: "ok" }),
    });
    try {
      const screen = await renderRewards();
      await waitFor(() => screen.getByTestId("reward-card"));
      expect(screen.getByTestId("total-accrued").textContent).toBe("50,000 VVX");
      expect(screen.getByTestId("next-claim").textContent).toBe("Available now");
      const before = loads;
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Claim Full" })));
      await waitFor(() => expect(toastText(screen)).toContain("Rewards Claimed"));
      expect(toastText(screen)).toContain("Successfully claimed 50,000 VVX rewards from Genesis NFT.");
      expect(s.calls).toContain("/api/rewards/claim");
      await waitFor(() => expect(loads).toBeGreaterThan(before), { timeout: 2500 });
    } finally {
      s.restore();
    }
  });

  test("an early claim asks first; failures show the server's message or 'Failed to parse error response'", async () => {
    let reply: () => Response = () => jsonResponse({ success: false, error: "Nothing to claim yet", message: "Nothing to claim yet", code: "NOTHING_TO_CLAIM" }, 409);
    const s = stubFetch({ [`/api/rewards/wallet/${WALLET}`]: REWARDS, "/api/rewards/claim": () => reply() });
    try {
      const screen = await renderRewards();
      await waitFor(() => screen.getByTestId("reward-card"));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Claim Early (50%)" })));
      expect(screen.getByTestId("early-confirm").textContent).toContain("25,000 VVX");
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Claim 25,000 VVX" })));
      await waitFor(() => expect(toastText(screen)).toContain("Nothing to claim yet"));
      expect(screen.queryByTestId("toast")!.querySelector(".toast-title")!.textContent).toBe("Error");
      reply = () => new Response("<html>bad gateway</html>", { status: 502 });
      await waitFor(() => expect(screen.getByRole("button", { name: "Claim Full" }).hasAttribute("disabled")).toBe(false));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Claim Full" })));
      await waitFor(() => expect(toastText(screen)).toContain("Failed to parse error response"));
    } finally {
      s.restore();
    }
  });

  test("not connected: 'Connect Your Wallet' with the XUMM button and the marketplace link; no NFTs: 'No NFTs Found'", async () => {
    await setWallet(null);
    const { default: RewardsPage } = await import("./RewardsPage");
    let screen = render(withProviders(<RewardsPage />));
    screen.getByRole("heading", { name: "Connect Your Wallet" });
    screen.getByRole("button", { name: "Connect XUMM Wallet" });
    screen.getByRole("link", { name: "Go to Marketplace" });
    cleanup();
    const s = stubFetch({ [`/api/rewards/wallet/${WALLET}`]: { ...REWARDS, nfts: [], totalAccruedVVX: "0" } });
    try {
      screen = await renderRewards();
      await waitFor(() => screen.getByRole("heading", { name: "No NFTs Found" }));
      screen.getByRole("link", { name: "Explore Marketplace" });
    } finally {
      s.restore();
    }
  });
});

describe("/history", () => {
  test("tabs follow the type; the Rewards tab adds the NFT tier; empty periods say so", async () => {
    await setWallet(WALLET);
    const row = { id: "reward:1", date: NOW, type: "Reward", category: "rewards", description: "Full reward claim from Genesis NFT #1", amount: "50000", currency: "VVX", status: "Claimed", txid: "AB".repeat(32), explorerUrl: "http://x/tx/1", tier: "Genesis" };
    const body = (rows: unknown[]) => ({ success: true, period: "30days", type: "all", page: 1, pageSize: 10, total: rows.length, totalPages: 1, transactions: rows, statistics: { totalRewardsReceived: "50000", totalNftPurchases: 1, totalNftPurchaseVvx: "500000", totalSwaps: 0, totalGames: 0 } });
    const s = stubFetch({ "/api/history": () => jsonResponse(body([row])) });
    const urls: string[] = [];
    const inner = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => (urls.push(String(input)), inner(input, init))) as typeof fetch;
    try {
      const { default: HistoryPage } = await import("./HistoryPage");
      const screen = render(withProviders(<HistoryPage />));
      await waitFor(() => screen.getByTestId("history-row"));
      expect(screen.getByTestId("history-row").textContent).toContain("+50,000 VVX");
      expect(screen.queryByRole("columnheader", { name: "NFT Tier" })).toBeNull();
      await act(async () => fireEvent.click(screen.getByRole("tab", { name: "Rewards" })));
      await waitFor(() => screen.getByRole("columnheader", { name: "NFT Tier" }));
      expect(urls.some((u) => u.includes("type=rewards") && u.includes("period=30days"))).toBe(true);
      expect(screen.getByTestId("history-statistics").textContent).toContain("50,000 VVX");
      globalThis.fetch = inner;
      s.restore();
      const empty = stubFetch({ "/api/history": () => jsonResponse(body([])) });
      try {
        await act(async () => fireEvent.click(screen.getByRole("tab", { name: "Swaps" })));
        await waitFor(() => screen.getByText("No swaps in the selected period"));
      } finally {
        empty.restore();
      }
    } finally {
      s.restore();
    }
  });
});
