import { afterEach, describe, expect, jest, test } from "bun:test";
import { act, cleanup, render } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { stubFetch, useDom, withProviders } from "./testing/dom";

useDom();
afterEach(() => cleanup());

const SITE = {
  network: "sandbox",
  version: "0.1.0",
  explorerUrl: "http://localhost:3000/sandbox/explorer",
  supportEmail: null,
  maintenanceNotice: false,
  links: { whitepaper: "https://vvx.example/whitepaper.pdf", discord: "https://discord.gg/vvx" },
};


describe("toasts", () => {
  test("one toast is visible; a new one replaces it; it hides after 3 s", async () => {
    const { Toaster } = await import("./components/Toaster");
    const { toast, toastState, TOAST_DURATION_MS } = await import("./state/toast");
    expect(TOAST_DURATION_MS).toBe(3000);
    // The page's own timers, moved by the test: the 3 s are checked to the millisecond without waiting them out.
    jest.useFakeTimers();
    try {
      const screen = render(<Toaster />);
      await act(async () => void toast({ title: "Address Copied" }));
      expect(screen.getByTestId("toast").textContent).toContain("Address Copied");
      await act(async () => jest.advanceTimersByTime(2_000));
      await act(async () => void toast({ title: "Payment received!", variant: "success" }));
      expect(screen.getAllByTestId("toast")).toHaveLength(1);
      expect(screen.getByTestId("toast").textContent).toContain("Payment received!");
      expect(screen.queryByText("Address Copied")).toBeNull();
      // The replacing toast has its own 3 s: the first one's timer does not cut it short.
      await act(async () => jest.advanceTimersByTime(TOAST_DURATION_MS - 1));
      expect(screen.queryByTestId("toast")).not.toBeNull();
      await act(async () => jest.advanceTimersByTime(1));
      expect(screen.queryByTestId("toast")).toBeNull();
      expect(toastState.current?.open).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe("footer", () => {
  test("shows configured links only, the current year and the platform text", async () => {
    const fetchStub = stubFetch({ "/api/site-config": SITE });
    try {
      const { Footer } = await import("./layout/Footer");
      const screen = render(withProviders(<Footer />));
      await screen.findByText("Whitepaper");
      expect(screen.getByText("Discord").getAttribute("href")).toBe("https://discord.gg/vvx");
      expect(screen.queryByText("Twitter")).toBeNull();
      expect(screen.queryByText("Terms of Service")).toBeNull();
      expect(screen.queryByText("Contact")).toBeNull();
      expect(document.body.textContent).toContain(`© ${new Date().getFullYear()}`);
      expect(document.body.textContent).toContain("rewards platform built on the XRP Ledger");
    } finally {
      fetchStub.restore();
    }
  });
});

describe("routing", () => {
  test("an unknown path renders the '404 Page Not Found' page and sets the title", async () => {
    const fetchStub = stubFetch({ "/api/site-config": SITE, "/api/stats": { totalRewardsPoolVvx: 1, totalRewardsPaidVvx: 0, nftSupply: 1, nftsMinted: 0, holders: 0, vvxBurned: 0 } });
    try {
      const { AppRoutes } = await import("./App");
      const screen = render(withProviders(<MemoryRouter initialEntries={["/definitely/not/here"]}><AppRoutes /></MemoryRouter>, { router: false }));
      await screen.findByRole("heading", { name: "404 Page Not Found" });
      expect(document.title).toStartWith("404 Page Not Found");
    } finally {
      fetchStub.restore();
    }
  });

  test("every client route the server serves has a page component", async () => {
    const { PAGES } = await import("./App");
    const { CLIENT_ROUTES } = await import("../shared/routes");
    for (const r of CLIENT_ROUTES) if (r.path !== "/") expect(PAGES[r.path]).toBeDefined();
  });

  test("the landing page shows the server's figures, not literals", async () => {
    const fetchStub = stubFetch({ "/api/site-config": SITE, "/api/stats": { totalRewardsPoolVvx: 3_500_000, totalRewardsPaidVvx: 1234, nftSupply: 77, nftsMinted: 5, holders: 4, vvxBurned: 12.5 } });
    try {
      const { AppRoutes } = await import("./App");
      const screen = render(withProviders(<MemoryRouter initialEntries={["/"]}><AppRoutes /></MemoryRouter>, { router: false }));
      await screen.findByText("3.5M VVX");
      const stats = screen.getByTestId("landing-stats").textContent!;
      expect(stats).toContain("77");
      expect(stats).toContain("5 minted");
      expect(stats).toContain("4");
      expect(stats).toContain("1,234 VVX paid so far");
    } finally {
      fetchStub.restore();
    }
  });
});

describe("theme preference", () => {
  test("is stored under 'theme' and the app stays dark", async () => {
    const { initTheme, THEME_KEY } = await import("./state/theme");
    localStorage.removeItem(THEME_KEY);
    expect(initTheme()).toBe("dark");
    expect(localStorage.getItem("theme")).toBe("dark");
    localStorage.setItem("theme", "light");
    expect(initTheme()).toBe("light");
    expect(document.documentElement.classList.contains("dark")).toBe(true);
  });
});
