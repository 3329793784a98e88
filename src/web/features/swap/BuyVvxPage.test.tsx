import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, render } from "@testing-library/react";
import { jsonResponse, setWallet, stubFetch, useDom, withProviders } from "../../testing/dom";
import type { Quote } from "./api";

useDom();
afterEach(async () => {
  cleanup();
  await setWallet(null);
});

const WALLET = "rB4TVLU37aenTWN5awgimutEYNMbQr6sg7";
const ISSUER = "rPwPUPAsPmSETpDxsYmQRBoUP48dqsuXxV";
const UUID = "44444444-4444-4444-8444-444444444444";

const quote = (xrp: string, extra: Partial<Quote> = {}): Quote => ({
  success: true,
  xrpAmount: xrp,
  drops: String(Number(xrp) * 1e6),
  vvxAmount: `${xrp}000.5`,
  exactVvx: `${xrp}000.5`,
  microVvx: `${xrp}000500000`,
  exchangeRate: "1178.9576",
  spotRate: "1185",
  networkFee: "0.00001",
  networkFeeDrops: "10",
  priceImpact: "0.01",
  priceImpactWarning: false,
  priceImpactTooHigh: false,
  minimumReceived: `${xrp}000`,
  slippagePercent: 5,
  poolXrp: "100000",
  poolVvx: "118500000",
  tradingFee: "0.5",
  tradingFeeUnits: 500,
  ledgerIndex: 9,
  ...extra,
});
const trustline = (has: boolean) => ({ success: true, hasTrustline: has, hasVvxTrustline: has, funded: true, balance: has ? "12.5" : "0", limit: "1e15", issuer: ISSUER, currency: "VVX", error: null });

describe("useQuote", () => {
  test("an older answer that arrives after a newer one never replaces it", async () => {
    const { useQuote } = await import("./useQuote");
    const stub = stubFetch({
      "/api/vvx/swap-rate/1": async () => {
        await Bun.sleep(150);
        return jsonResponse(quote("1"));
      },
      "/api/vvx/swap-rate/12": () => jsonResponse(quote("12")),
    });
    function Probe({ xrp }: { xrp: string }) {
      const { quote: q, loading } = useQuote(xrp, 0, 60_000);
      return <p data-testid="q">{loading ? "loading" : (q?.xrpAmount ?? "none")}</p>;
    }
    try {
      const screen = render(<Probe xrp="1" />);
      await act(() => Bun.sleep(20)); // the slow request for "1" is on its way
      screen.rerender(<Probe xrp="12" />);
      await act(() => Bun.sleep(300)); // both answers are in: "1" came last
      expect(screen.getByTestId("q").textContent).toBe("12");
      expect(stub.calls.filter((c) => c.startsWith("/api/vvx/swap-rate/"))).toEqual(["/api/vvx/swap-rate/1", "/api/vvx/swap-rate/12"]);
    } finally {
      stub.restore();
    }
  });
});

describe("/buy-vvx page", () => {
  async function page(routes: Record<string, unknown>) {
    const stub = stubFetch({ "/api/site-config": { network: "sandbox", explorerTxUrl: "/tx/{hash}", explorerAccountUrl: "/a/{address}" }, ...routes });
    const { default: BuyVvxPage } = await import("./BuyVvxPage");
    const screen = render(withProviders(<BuyVvxPage />));
    return { screen, stub };
  }
  /**
   * Types into the amount field. react-dom was loaded before happy-dom existed, so React uses its
   * input-event polyfill (focus, then a value change seen on keyup) instead of the input event.
   */
  const type = async (screen: ReturnType<typeof render>, value: string) => {
    const input = screen.getByTestId("swap-amount") as HTMLInputElement;
    const legacy = HTMLElement.prototype as unknown as Record<string, unknown>;
    legacy.attachEvent ??= () => {};
    legacy.detachEvent ??= () => {};
    await act(async () => {
      input.focus();
      input.dispatchEvent(new FocusEvent("focusin", { bubbles: true }));
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, value);
      input.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
    });
  };

  test("without a wallet: the live rate and a quote, but a connect button and no swap", async () => {
    const { screen, stub } = await page({ "/api/vvx/swap-rate/1": quote("1"), "/api/vvx/swap-rate/10": quote("10") });
    try {
      await screen.findByText("1,185 VVX");
      await type(screen, "10");
      await screen.findByText("10,000.5 VVX");
      expect((screen.getByTestId("swap-button") as HTMLButtonElement).disabled).toBe(true);
      expect(screen.getByText("Connect your wallet to swap.")).toBeTruthy();
      expect(screen.getAllByRole("button", { name: "Connect Wallet" }).length).toBeGreaterThan(0);
      expect(screen.getAllByText(/5% slippage protection/).length).toBe(2); // the lead and the info card
      expect(screen.getAllByText(/no platform fees beyond the network fee/i).length).toBe(2);
      for (const tile of ["Instant Swaps", "Secure Transactions", "No Platform Fees"]) expect(screen.getByText(tile)).toBeTruthy();
    } finally {
      stub.restore();
    }
  });

  test("no trustline: the issuer and a create button; the swap stays disabled", async () => {
    await setWallet(WALLET);
    const { screen, stub } = await page({
      "/api/vvx/swap-rate/1": quote("1"),
      "/api/vvx/swap-rate/5": quote("5"),
      [`/api/vvx/trustline-status/${WALLET}`]: trustline(false),
      "/api/wallet/balance": { success: true, balance: "99999988" },
    });
    try {
      await screen.findByTestId("trustline-create");
      expect(screen.getByText(ISSUER)).toBeTruthy();
      expect(screen.getByTestId("swap-balance").textContent).toBe("99.999988 XRP");
      await type(screen, "5");
      await screen.findByText("5,000.5 VVX");
      expect((screen.getByTestId("swap-button") as HTMLButtonElement).disabled).toBe(true);
      expect(screen.getByText("Create a VVX trustline first.")).toBeTruthy();
    } finally {
      stub.restore();
    }
  });

  test("with a trustline the swap needs an amount and a quote; bad amounts are named and not quoted; >50% impact is refused", async () => {
    await setWallet(WALLET);
    const { screen, stub } = await page({
      "/api/vvx/swap-rate/1": quote("1"),
      "/api/vvx/swap-rate/2": quote("2"),
      "/api/vvx/swap-rate/90000": quote("90000", { priceImpact: "52.31", priceImpactWarning: true, priceImpactTooHigh: true }),
      [`/api/vvx/trustline-status/${WALLET}`]: trustline(true),
      "/api/wallet/balance": { success: true, balance: "100000000" },
    });
    try {
      await screen.findByText("Active");
      const button = () => screen.getByTestId("swap-button") as HTMLButtonElement;
      expect(button().disabled).toBe(true);
      await type(screen, "1.1234567");
      expect(screen.getByText("XRP has at most 6 decimals (0.000001)")).toBeTruthy();
      await type(screen, "0");
      expect(screen.getByText("Enter an amount above 0")).toBeTruthy();
      await type(screen, "2");
      expect(button().disabled).toBe(true); // no quote yet
      await screen.findByText("2,000.5 VVX");
      expect(button().disabled).toBe(false);
      await type(screen, "90000");
      await screen.findByText(/swaps above 50% price impact are refused/);
      expect(button().disabled).toBe(true);
      expect(stub.calls.some((c) => c.includes("1.1234567"))).toBe(false);
    } finally {
      stub.restore();
    }
  });
});

describe("swap and trustline dialogs", () => {
  async function dialog(kind: "swap" | "trustline", routes: Record<string, unknown>) {
    const stub = stubFetch({ "/api/site-config": { network: "sandbox", explorerTxUrl: "/tx/{hash}", explorerAccountUrl: "/a/{address}" }, ...routes });
    const { SignDialog } = await import("./SignDialog");
    const { toastState } = await import("../../state/toast");
    let settled = 0;
    const screen = render(
      withProviders(
        <SignDialog
          request={{ kind, uuid: UUID, wallet: WALLET, qrUrl: "/qr.png", xummUrl: "http://localhost/sandbox/wallet/sign/x", xrpAmount: "10", estimatedVvx: "11789.576937", minimumVvx: "11200.098090" }}
          onClose={() => {}}
          onSettled={() => settled++}
        />,
      ),
    );
    return { screen, stub, toast: () => toastState.current, settled: () => settled };
  }
  const status = (s: Record<string, unknown>) => ({ success: true, type: "vvx_swap", signed: false, cancelled: false, expired: false, txid: null, ...s });

  test("cancelled: 'Swap Cancelled' / 'Payment was cancelled'", async () => {
    const d = await dialog("swap", { [`/api/xumm/status/${UUID}`]: status({ cancelled: true }) });
    try {
      await d.screen.findByText("Payment was cancelled");
      expect(d.toast()).toMatchObject({ title: "Swap Cancelled", description: "Payment was cancelled" });
      expect(d.settled()).toBe(1);
    } finally {
      d.stub.restore();
    }
  });

  test("expired: 'Swap Cancelled' / 'Payment request expired'; a trustline: 'Trustline Creation Cancelled'", async () => {
    const d = await dialog("swap", { [`/api/xumm/status/${UUID}`]: status({ expired: true }) });
    try {
      await d.screen.findByText("Payment request expired");
      expect(d.toast()).toMatchObject({ title: "Swap Cancelled", description: "Payment request expired" });
    } finally {
      d.stub.restore();
    }
    cleanup();
    const t = await dialog("trustline", { [`/api/xumm/status/${UUID}`]: status({ type: "vvx_trustline", cancelled: true }) });
    try {
      await t.screen.findByText("Payment was cancelled");
      expect(t.toast()).toMatchObject({ title: "Trustline Creation Cancelled" });
    } finally {
      t.stub.restore();
    }
  });

  test("signed, then the ledger refused it: the reason and that the XRP stays", async () => {
    const reason = "The pool's price moved more than 5% before the swap reached the ledger, so nothing was swapped: your XRP stays in your wallet (only the network fee of 0.000012 XRP was charged).";
    const d = await dialog("swap", {
      [`/api/xumm/status/${UUID}`]: status({ signed: true, txid: "AB".repeat(32) }),
      [`/api/vvx/swaps/${UUID}`]: { success: true, status: "failed", xrpAmount: "10", quotedVvx: "1", minimumVvx: "1", txid: "AB".repeat(32), result: "tecPATH_PARTIAL", deliveredVvx: null, spentXrp: "0", feeXrp: "0.000012", xrpKept: true, reason },
    });
    try {
      await d.screen.findByText(reason);
      expect(d.screen.getByTestId("swap-sign-dialog").getAttribute("data-phase")).toBe("failed");
    } finally {
      d.stub.restore();
    }
  });

  test("completed: the VVX delivered and the explorer link", async () => {
    const d = await dialog("swap", {
      [`/api/xumm/status/${UUID}`]: status({ signed: true, txid: "CD".repeat(32) }),
      [`/api/vvx/swaps/${UUID}`]: { success: true, status: "completed", xrpAmount: "10", quotedVvx: "11789.576937", minimumVvx: "1", txid: "CD".repeat(32), result: "tesSUCCESS", deliveredVvx: "11789.576937", spentXrp: "10", feeXrp: "0.000012", xrpKept: false, reason: null },
    });
    try {
      await d.screen.findByText("+11,789.576937");
      // The unit is a box of its own that never wraps inside (a phone breaks the line before it).
      expect(d.screen.getByTestId("swap-result-unit").textContent).toBe("VVX");
      expect(d.screen.getByTestId("swap-result").querySelector(".swap-result-big")!.textContent).toBe("+11,789.576937 VVX");
      expect(d.screen.getByTestId("swap-tx-link").getAttribute("href")).toBe(`/tx/${"CD".repeat(32)}`);
      expect(d.toast()).toMatchObject({ title: "Swap complete" });
    } finally {
      d.stub.restore();
    }
  });
});
