import { afterEach, describe, expect, test } from "bun:test";
import { cleanup, render, waitFor } from "@testing-library/react";
import { jsonResponse, setWallet, stubFetch, useDom, withProviders } from "../../testing/dom";
import { DepositsCard, formatDelivered, outcomeText, type DepositRow } from "./DepositsCard";

useDom();
afterEach(() => cleanup());

const SITE = {
  network: "sandbox",
  version: "0.1.0",
  explorerUrl: "http://localhost:3000/sandbox/explorer",
  explorerAccountUrl: "http://localhost:3000/sandbox/explorer/account/{address}",
  explorerTxUrl: "http://localhost:3000/sandbox/explorer/tx/{hash}",
  supportEmail: null,
  maintenanceNotice: false,
  links: {},
};
const row = (over: Partial<DepositRow>): DepositRow => ({
  txHash: "A".repeat(64),
  ledgerIndex: 42,
  closedAt: "2026-11-20T10:00:00.000Z",
  sender: "rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY",
  currency: "XRP",
  issuer: null,
  value: "25000000",
  outcome: "kept",
  reason: "funder",
  refund: null,
  ...over,
});

describe("untagged payments on /admin", () => {
  test("lists kept and refunded payments with amounts, outcomes and explorer links", async () => {
    await setWallet("rAdmin1111111111111111111111111111");
    const s = stubFetch({
      "/api/site-config": SITE,
      "/api/admin/deposits": {
        success: true,
        funders: ["rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY"],
        deposits: [
          row({ txHash: "B".repeat(64), outcome: "refunded", reason: "untagged", value: "7000001", sender: "rStranger111111111111111111111111", refund: { key: "refund:B", status: "validated", hash: "C".repeat(64), result: "tesSUCCESS" } }),
          row({}),
          row({ txHash: "D".repeat(64), reason: "refund_returned", currency: "VVX", issuer: "rIssuer", value: "1000.5" }),
        ],
      },
    });
    try {
      const screen = render(withProviders(<DepositsCard />));
      await waitFor(() => screen.getByTestId("deposits-table"));
      const text = screen.getByTestId("deposits-table").textContent!;
      expect(text).toContain("7.000001 XRP");
      expect(text).toContain("Refunded");
      expect(text).toContain("25 XRP");
      expect(text).toContain("Kept: from a funding account");
      expect(text).toContain("1000.5 VVX");
      expect(text).toContain("Kept: a refund coming back");
      await waitFor(() => screen.getByRole("link", { name: "Refund" }));
      expect(screen.getByRole("link", { name: "Refund" }).getAttribute("href")).toBe(`http://localhost:3000/sandbox/explorer/tx/${"C".repeat(64)}`);
    } finally {
      s.restore();
    }
  });

  test("empty, failing and refused states", async () => {
    await setWallet("rAdmin1111111111111111111111111111");
    let s = stubFetch({ "/api/site-config": SITE, "/api/admin/deposits": { success: true, funders: [], deposits: [] } });
    let screen = render(withProviders(<DepositsCard />));
    await waitFor(() => screen.getByText("No untagged payments have reached the treasury."));
    s.restore();
    cleanup();
    s = stubFetch({ "/api/site-config": SITE, "/api/admin/deposits": () => jsonResponse({ success: false, error: "The database is busy. Please try again in a moment." }, 503) });
    screen = render(withProviders(<DepositsCard />));
    await waitFor(() => screen.getByRole("alert"));
    expect(screen.getByRole("alert").textContent).toContain("The database is busy");
    screen.getByRole("button", { name: "Try Again" });
    s.restore();
    cleanup();
    s = stubFetch({ "/api/site-config": SITE, "/api/admin/deposits": () => jsonResponse({ success: false, error: "This page is for administrators only" }, 403) });
    screen = render(withProviders(<DepositsCard />));
    await waitFor(() => expect(s.calls).toContain("/api/admin/deposits"));
    await Bun.sleep(50);
    expect(screen.queryByTestId("deposits-card")).toBeNull();
    s.restore();
  });

  test("amounts never go through floats; outcomes in words", () => {
    expect(formatDelivered({ currency: "XRP", value: "123456789012345678" })).toBe("123,456,789,012.345678 XRP");
    expect(formatDelivered({ currency: "XRP", value: "1" })).toBe("0.000001 XRP");
    expect(outcomeText({ outcome: "refunded", reason: "untagged", refund: { key: "k", status: "failed", hash: null, result: "tecNO_DST" } })).toBe("Refund failed (tecNO_DST)");
    expect(outcomeText({ outcome: "refunded", reason: "untagged", refund: { key: "k", status: "pending", hash: null, result: null } })).toBe("Refund on its way");
  });
});
