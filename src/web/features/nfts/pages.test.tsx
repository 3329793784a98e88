import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { jsonResponse, setWallet, stubFetch, useDom, withProviders } from "../../testing/dom";

useDom();
afterEach(() => cleanup());

const MINTING = {
  success: true,
  genesis: { minted: 5, remaining: 15, total: 20 },
  oasis: { minted: 2, remaining: 38, total: 40 },
  total: { minted: 7, remaining: 53, total: 60 },
  trackedInDatabase: true,
  timestamp: "2026-01-01T10:00:00.000Z",
};

describe("minting status pages", () => {
  test("/nft-status shows genesis, oasis and total progress", async () => {
    const s = stubFetch({ "/api/nft-minting-status": MINTING });
    try {
      const { default: NftStatusPage } = await import("./NftStatusPage");
      const screen = render(withProviders(<NftStatusPage />));
      await waitFor(() => screen.getByTestId("minting-total"));
      expect(screen.getByTestId("minting-genesis").textContent).toContain("5 / 20 minted");
      expect(screen.getByTestId("minting-genesis").textContent).toContain("15 remaining");
      expect(screen.getByTestId("minting-oasis").textContent).toContain("2 / 40 minted");
      expect(screen.getByTestId("minting-total").textContent).toContain("7 / 60 minted");
      expect(screen.getByTestId("minting-total").querySelector("[role=progressbar]")!.getAttribute("aria-valuenow")).toBe("12");
    } finally {
      s.restore();
    }
  });

  test("a failed status call shows the spec's error", async () => {
    const s = stubFetch({ "/api/nft-minting-status": () => jsonResponse({ success: false, error: "down" }, 503), "/api/nft-tiers": () => jsonResponse([], 503), "/api/nft-availability": () => jsonResponse({}, 503) });
    const warn = console.warn;
    console.warn = () => {};
    try {
      const { default: NftMintingStatusPage } = await import("./NftMintingStatusPage");
      const screen = render(withProviders(<NftMintingStatusPage />));
      await waitFor(() => screen.getByText("Error Loading Minting Status"));
      screen.getByText("Unable to load NFT minting status. Please try again later.");
    } finally {
      console.warn = warn;
      s.restore();
    }
  });
});

describe("admin page", () => {
  test("a non-admin sees a refusal, not an error dump", async () => {
    await setWallet("rNotAdmin11111111111111111111111111");
    const s = stubFetch({
      "/api/admin/nft-vault-summary": () => jsonResponse({ success: false, error: "This page is for administrators only", code: "ADMIN_ONLY" }, 403),
      "/api/nft-minting-status": MINTING,
    });
    try {
      const { default: AdminPage } = await import("./AdminPage");
      const screen = render(withProviders(<AdminPage />));
      await waitFor(() => screen.getByTestId("admin-refused"));
      expect(screen.getByRole("heading").textContent).toBe("Access denied");
      expect(screen.getByTestId("admin-refused").textContent).not.toContain("403");
    } finally {
      s.restore();
    }
  });

  test("an admin sees the vault rows with totals and the minting progress", async () => {
    await setWallet("rAdmin1111111111111111111111111111");
    const s = stubFetch({
      "/api/admin/nft-vault-summary": [
        { tier_id: 1, tier_name: "Genesis", minted_count: 5, max_supply: 20, sold_count: 6 },
        { tier_id: 2, tier_name: "Oasis", minted_count: 2, max_supply: 40, sold_count: 2 },
      ],
      "/api/nft-minting-status": MINTING,
    });
    try {
      const { default: AdminPage } = await import("./AdminPage");
      const screen = render(withProviders(<AdminPage />));
      await waitFor(() => screen.getByTestId("vault-table"));
      const rows = [...screen.getByTestId("vault-table").querySelectorAll("tbody tr")].map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent));
      expect(rows).toEqual([
        ["Genesis", "5", "6", "20", "15"],
        ["Oasis", "2", "2", "40", "38"],
        ["Total", "7", "8", "60", "53"],
      ]);
      await waitFor(() => screen.getByTestId("minting-total"));
    } finally {
      s.restore();
    }
  });
});

describe("direct NFT offer page", () => {
  test("asks for a tier, then for a wallet", async () => {
    await setWallet(null);
    const s = stubFetch({ "/api/nft-tiers": [{ id: 1, name: "Genesis", tier: "GENESIS", price: "500,000 VVX" }], "/api/nft-availability": {} });
    try {
      const { default: DirectNftOfferPage } = await import("./DirectNftOfferPage");
      const screen = render(withProviders(<DirectNftOfferPage />));
      await waitFor(() => screen.getByRole("option", { name: "Genesis - 500,000 VVX" }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Create NFT Offer" })));
      screen.getByText("Please select an NFT tier.");
      await act(async () => fireEvent.change(screen.getByLabelText("NFT tier"), { target: { value: "1" } }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Create NFT Offer" })));
      expect(screen.getAllByText("Please connect your wallet first.").length).toBeGreaterThanOrEqual(1);
      expect(screen.queryByRole("dialog")).toBeNull();
    } finally {
      s.restore();
    }
  });

  test("an expired payment request says so and Try Again starts over", async () => {
    await setWallet("rDirect11111111111111111111111111");
    const UUID = "44444444-4444-4444-8444-444444444444";
    let creates = 0;
    const s = stubFetch({
      "/api/nft-tiers": [{ id: 2, name: "Oasis", tier: "OASIS", price: "250,000 VVX" }],
      "/api/nft-availability": {},
      "/api/nfts/direct-offer": () => (creates++, jsonResponse({ success: true, result: { step: "payment", uuid: UUID, qrCode: "/qr/d.png", deepLink: "xumm://d", nftTier: "Oasis", price: "250,000 VVX" } })),
      [`/api/xumm/payload-status/${UUID}`]: { success: true, accepted: false, expired: true },
    });
    try {
      const { default: DirectNftOfferPage } = await import("./DirectNftOfferPage");
      const screen = render(withProviders(<DirectNftOfferPage pollMs={10} />));
      await waitFor(() => screen.getByRole("option", { name: "Oasis - 250,000 VVX" }));
      await act(async () => fireEvent.change(screen.getByLabelText("NFT tier"), { target: { value: "2" } }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Create NFT Offer" })));
      await waitFor(() => screen.getByText("The XUMM request has expired. Please try again."));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Try Again" })));
      await waitFor(() => expect(creates).toBe(2));
    } finally {
      s.restore();
    }
  });
});

describe("test NFT offers page", () => {
  test("outside sandbox mode: the purchase tools stay, with a notice and no 'simulate payment'", async () => {
    await setWallet(null);
    const s = stubFetch({ "/api/site-config": { network: "mainnet", links: {} }, "/api/nft-tiers": [], "/api/nft-availability": {} });
    const warn = console.warn;
    console.warn = () => {};
    try {
      const { default: TestNftOffersPage } = await import("./TestNftOffersPage");
      const screen = render(withProviders(<TestNftOffersPage />));
      await waitFor(() => screen.getByTestId("sandbox-only"));
      expect(screen.getByTestId("sandbox-only").textContent).toContain("only in sandbox mode");
      expect(screen.getByTestId("sandbox-only").textContent).toContain("mainnet");
      expect(screen.queryByText(/Simulate Payment/)).toBeNull();
      await waitFor(() => screen.getByText("Connect your wallet to buy with Xaman."));
      expect(screen.getByTestId("pending-offers")).toBeTruthy();
    } finally {
      console.warn = warn;
      s.restore();
    }
  });

  test("in sandbox mode, Simulate Payment sends the spec's amount; a failure toasts 'Simulation failed'", async () => {
    const WALLET = "rSim111111111111111111111111111111";
    await setWallet(WALLET);
    const bodies: unknown[] = [];
    const s = stubFetch({
      "/api/site-config": { network: "sandbox", links: {} },
      "/api/nft-tiers": [
        { id: 1, name: "Genesis", tier: "GENESIS", price: "500,000 VVX", currentSupply: 20, maxSupply: 20 },
        { id: 2, name: "Oasis", tier: "OASIS", price: "250,000 VVX", currentSupply: 40, maxSupply: 40 },
      ],
      "/api/nft-availability": {},
      [`/api/nfts/active-offers/${WALLET}`]: { success: true, offers: [] },
      "/api/test/simulate-payment": (init?: RequestInit) => (bodies.push(JSON.parse(String(init?.body))), jsonResponse({ success: false, error: "Not enough VVX", message: "Not enough VVX" }, 409)),
    });
    try {
      const { default: TestNftOffersPage } = await import("./TestNftOffersPage");
      const { toastState } = await import("../../state/toast");
      const screen = render(withProviders(<TestNftOffersPage />));
      await waitFor(() => screen.getByRole("button", { name: "Simulate Payment (250,000 VVX)" }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Simulate Payment (500,000 VVX)" })));
      await waitFor(() => expect(toastState.current?.title).toBe("Simulation failed"));
      expect(toastState.current?.description).toBe("Not enough VVX");
      expect(bodies).toEqual([{ walletAddress: WALLET, tierId: 1, amount: 500000 }]);
    } finally {
      s.restore();
    }
  });

  test("Simulate Payment asks for a signature like any payment and says what happened: waiting, paid with its transaction, the offer ready", async () => {
    const WALLET = "rSim222222222222222222222222222222";
    const UUID = "11111111-2222-4333-8444-555555555555";
    const TX = "AB".repeat(32);
    await setWallet(WALLET);
    let signed = false;
    const s = stubFetch({
      "/api/site-config": { network: "sandbox", links: {}, explorerTxUrl: "/sandbox/explorer/tx/{hash}" },
      "/api/nft-tiers": [{ id: 2, name: "Oasis", tier: "OASIS", price: "250,000 VVX", currentSupply: 40, maxSupply: 40 }],
      "/api/nft-availability": {},
      [`/api/nfts/active-offers/${WALLET}`]: { success: true, offers: [] },
      "/api/test/simulate-payment": {
        success: true,
        requestId: "REQ-9",
        uuid: UUID,
        qrUrl: "/qr.png",
        xummUrl: "/sandbox/wallet/sign/" + UUID,
        expiresAt: "2026-12-01T00:05:00.000Z",
        price: "250,000 VVX",
        tierName: "Oasis",
        status: "pending",
        message: "Sign the payment",
      },
      [`/api/xumm/status/${UUID}`]: () => jsonResponse({ signed, account: signed ? WALLET : null, cancelled: false, expired: false, txid: signed ? TX : null }),
      "/api/nfts/purchase-status/REQ-9": { success: true, status: "offer_created", requestId: "REQ-9", paymentTxHash: TX, offerId: "CD".repeat(32) },
    });
    try {
      const { default: TestNftOffersPage } = await import("./TestNftOffersPage");
      const screen = render(withProviders(<TestNftOffersPage />));
      await waitFor(() => screen.getByRole("button", { name: "Simulate Payment (250,000 VVX)" }));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Simulate Payment (250,000 VVX)" })));
      // Nothing is paid yet: the signing modal asks for it, and the page says so.
      await waitFor(() => expect(screen.getByTestId("signing-modal").getAttribute("data-uuid")).toBe(UUID));
      expect(screen.getByTestId("simulate-result").textContent).toContain("Sign the payment of 250,000 VVX");
      expect(screen.getByTestId("simulate-result").textContent).toContain("Nothing leaves your wallet until you sign.");
      // Signed in the wallet: paid, with the transaction; then the offer is ready.
      signed = true;
      await waitFor(() => expect(screen.getByTestId("simulate-result").getAttribute("data-phase")).toBe("offer_created"), { timeout: 5000 });
      const result = screen.getByTestId("simulate-result");
      expect(result.textContent).toContain("Paid 250,000 VVX: your Oasis NFT offer is ready");
      expect(result.querySelector("a")!.getAttribute("href")).toBe(`/sandbox/explorer/tx/${TX}`);
    } finally {
      s.restore();
    }
  });

  test("a simulated payment closed unsigned says nothing was paid", async () => {
    const { simulationText } = await import("./simulatePayment");
    expect(simulationText({ kind: "not-paid", tierName: "Oasis", price: "250,000 VVX", reason: "You closed the request before signing it." })).toEqual({
      title: "Payment not made",
      text: "You closed the request before signing it. Nothing was taken from your wallet.",
    });
  });
});
