import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor, within } from "@testing-library/react";
import { jsonResponse, setWallet, stubFetch, useDom, withProviders } from "../../testing/dom";

useDom();
afterEach(() => cleanup());


const SERVER_TIERS = [
  { id: 1, name: "Genesis", description: "Premium tier", tier: "GENESIS", price: "500,000 VVX", roiPercentage: "10%", durationMonths: 12, payoutFrequency: "Monthly", currentSupply: 20, maxSupply: 20, imageUrl: "/assets/genesis.png", isActive: true, isPopular: true },
  { id: 2, name: "Oasis", description: "Steady tier", tier: "OASIS", price: "250,000 VVX", roiPercentage: "5%", durationMonths: 24, payoutFrequency: "Monthly", currentSupply: 40, maxSupply: 40, imageUrl: "/assets/oasis.png", isActive: true, isPopular: false },
];

describe("tier card", () => {
  test("shows price, ROI, duration, 'Monthly', availability and the 'Popular' badge", async () => {
    const { TierCard } = await import("./TierCard");
    const { DEFAULT_TIERS } = await import("./tiers");
    const genesis = { ...DEFAULT_TIERS[0]!, currentSupply: 3 };
    const screen = render(<TierCard tier={genesis} onPurchase={() => {}} />);
    const card = screen.getByTestId("tier-card-1");
    expect(within(card).getByText("Popular")).toBeTruthy();
    expect(within(card).getByTestId("tier-price").textContent).toBe("500,000 VVX");
    expect(within(card).getByText("10% monthly")).toBeTruthy();
    expect(within(card).getByText("12 months")).toBeTruthy();
    expect(within(card).getByText("Monthly")).toBeTruthy();
    expect(within(card).getByTestId("tier-availability").textContent).toBe("3/20");
    expect(within(card).getByRole("button", { name: "Purchase with VVX" })).toBeTruthy();
    cleanup();
    const oasis = render(<TierCard tier={DEFAULT_TIERS[1]!} onPurchase={() => {}} />);
    expect(oasis.queryByText("Popular")).toBeNull();
  });

  test("'Sold Out' and disabled at zero supply; 'Processing...' while a purchase runs", async () => {
    const { TierCard } = await import("./TierCard");
    const { DEFAULT_TIERS } = await import("./tiers");
    let clicks = 0;
    const screen = render(<TierCard tier={{ ...DEFAULT_TIERS[0]!, currentSupply: 0 }} onPurchase={() => clicks++} />);
    const soldOut = screen.getByRole("button", { name: "Sold Out" }) as HTMLButtonElement;
    expect(soldOut.disabled).toBe(true);
    fireEvent.click(soldOut);
    expect(clicks).toBe(0);
    expect(screen.getByTestId("tier-availability").textContent).toBe("0/20");
    cleanup();
    const busy = render(<TierCard tier={DEFAULT_TIERS[1]!} processing onPurchase={() => {}} />);
    expect(busy.getByRole("button").textContent).toBe("Processing...");
    expect(busy.getByRole("button").querySelector(".spinner")).toBeTruthy();
  });
});

describe("marketplace page", () => {
  test("loading text, then the server's tiers with live availability; no-wallet banner; purchase opens the dialog", async () => {
    await setWallet(null);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const s = stubFetch({
      "/api/nft-tiers": SERVER_TIERS,
      "/api/nft-availability": { genesis: { currentSupply: 17, maxSupply: 20 }, oasis: { currentSupply: 0, maxSupply: 40 } },
    });
    const stubbed = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes("/api/nft-tiers")) await gate;
      return stubbed(input, init);
    }) as typeof fetch;
    try {
      const { default: MarketplacePage } = await import("./MarketplacePage");
      const screen = render(withProviders(<MarketplacePage />));
      screen.getByText("Loading NFT tiers...");
      screen.getByTestId("no-wallet-banner");
      await act(async () => release());
      await waitFor(() => screen.getByTestId("tier-card-1"));
      await waitFor(() => expect(screen.getByTestId("tier-card-1").querySelector("[data-testid=tier-availability]")!.textContent).toBe("17/20"));
      expect(within(screen.getByTestId("tier-card-2")).getByRole("button", { name: "Sold Out" })).toBeTruthy();
      expect(screen.getByAltText("Genesis NFT artwork").getAttribute("src")).toBe("/assets/genesis.png");
      const about = screen.getByRole("heading", { name: "About VVX NFTs" }).parentElement!;
      expect(about.querySelectorAll("li")).toHaveLength(4);
      expect(about.textContent).toContain("120%");
      await act(async () => fireEvent.click(within(screen.getByTestId("tier-card-1")).getByRole("button", { name: "Purchase with VVX" })));
      expect(screen.getByRole("dialog").querySelector("h2")!.textContent).toBe("Purchase Genesis NFT");
      screen.getByText("You need to connect your XRPL wallet before purchasing an NFT.");
    } finally {
      s.restore();
    }
  });

  test("keeps the built-in tiers when the tier fetch fails", async () => {
    await setWallet(null);
    const s = stubFetch({ "/api/nft-tiers": () => jsonResponse({ success: false, error: "boom" }, 500), "/api/nft-availability": () => jsonResponse({}, 500) });
    const warn = console.warn;
    console.warn = () => {};
    try {
      const { default: MarketplacePage } = await import("./MarketplacePage");
      const screen = render(withProviders(<MarketplacePage />));
      await waitFor(() => screen.getByTestId("tier-card-2"));
      expect(within(screen.getByTestId("tier-card-1")).getByTestId("tier-price").textContent).toBe("500,000 VVX");
      expect(within(screen.getByTestId("tier-card-2")).getByTestId("tier-price").textContent).toBe("250,000 VVX");
      expect(within(screen.getByTestId("tier-card-2")).getByTestId("tier-availability").textContent).toBe("40/40");
    } finally {
      console.warn = warn;
      s.restore();
    }
  });
});

describe("pending offers card", () => {
  const WALLET = "rOffers111111111111111111111111111";
  test("lists offers, announces the count once, and accepting opens the signing QR", async () => {
    const s = stubFetch({
      [`/api/nfts/active-offers/${WALLET}`]: { success: true, offers: [{ id: 1, offerId: "OFF1", tokenId: "00080000AABBCCDDEEFF", tierName: "Genesis", taxon: 1003 }] },
      "/api/nfts/accept-offer": { success: true, uuid: "33333333-3333-4333-8333-333333333333", qrCodeUrl: "/qr/o.png", xummLink: "xumm://o" },
      "/api/xumm/status/33333333-3333-4333-8333-333333333333": { signed: false, cancelled: false, expired: false },
    });
    try {
      const { PendingOffersCard } = await import("./PendingOffersCard");
      const { toastState } = await import("../../state/toast");
      const screen = render(withProviders(<PendingOffersCard walletAddress={WALLET} />));
      await waitFor(() => screen.getByText("Genesis NFT #3"));
      // The id's distinctive end is shown, the whole id on hover.
      expect(screen.getByText("…AABBCCDDEEFF").getAttribute("title")).toBe("00080000AABBCCDDEEFF");
      expect(toastState.current?.title).toBe("Pending NFT offers");
      expect(toastState.current?.description).toBe("You have 1 pending NFT offer to accept.");
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Accept" })));
      await waitFor(() => screen.getByTestId("signing-modal"));
      expect(screen.getByTestId("signing-modal").getAttribute("data-uuid")).toBe("33333333-3333-4333-8333-333333333333");
    } finally {
      s.restore();
    }
  });

  test("an error shows the message and 'Try Again', which asks again", async () => {
    let fail = true;
    const s = stubFetch({ [`/api/nfts/active-offers/${WALLET}`]: () => (fail ? jsonResponse({ success: false, error: "ledger unavailable" }, 503) : jsonResponse({ success: true, offers: [] })) });
    try {
      const { PendingOffersCard } = await import("./PendingOffersCard");
      const screen = render(withProviders(<PendingOffersCard walletAddress={WALLET} refreshMs={0} />));
      await waitFor(() => screen.getByText("Failed to fetch active NFT offers: ledger unavailable"));
      fail = false;
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Try Again" })));
      await waitFor(() => screen.getByText(/No pending NFT offers/));
    } finally {
      s.restore();
    }
  });
});
