import { afterEach, describe, expect, mock, test } from "bun:test";
import { act, cleanup, render } from "@testing-library/react";
import { jsonResponse, stubFetch, useDom } from "../../testing/dom";
import type { SigningRequest } from "./walletStore";

useDom();
afterEach(() => cleanup());

const UUID = "33333333-3333-4333-8333-333333333333";
const STATUS = `/api/xumm/status/${UUID}`;
const base = { signed: false, account: null, cancelled: false, expired: false, betConfirmed: false, txid: null };
const request = (extra: Partial<SigningRequest> = {}): SigningRequest => ({ uuid: UUID, qrUrl: "/qr.png", xummUrl: "http://localhost/sandbox/wallet/sign/x", purpose: "wallet_connect", ...extra });

/** Renders the modal with spies; `answers` are served in turn by the status route (the last one repeats). */
async function open(req: SigningRequest, answers: (() => Response)[]) {
  let calls = 0;
  const stub = stubFetch({ [STATUS]: () => answers[Math.min(calls++, answers.length - 1)]!() });
  const { SigningModal } = await import("./SigningModal");
  const onSuccess = mock(() => {});
  const onError = mock((_: string) => {});
  const onClose = mock(() => {});
  const screen = render(<SigningModal request={req} onSuccess={onSuccess} onError={onError} onClose={onClose} />);
  return { screen, onSuccess, onError, onClose, calls: () => calls, restore: stub.restore };
}

describe("signing QR modal", () => {
  test("wallet connect: checks at once, reports the account, and closes itself after 1.5 s", async () => {
    const m = await open(request(), [() => jsonResponse({ ...base, signed: true, account: "rSigner" })]);
    try {
      await m.screen.findByText("Wallet connected successfully!");
      expect(m.onSuccess).toHaveBeenCalledWith({ account: "rSigner", txid: null });
      expect(m.screen.getByText("The QR code expires in 5 minutes.")).toBeTruthy();
      expect(m.onClose).not.toHaveBeenCalled();
      await act(() => Bun.sleep(1600));
      expect(m.onClose).toHaveBeenCalledTimes(1);
    } finally {
      m.restore();
    }
  });

  test("slot payment: the spec's activation message, and the modal stays open", async () => {
    const m = await open(request({ purpose: "slot" }), [() => jsonResponse({ ...base, signed: true, account: "rSigner", txid: "AB" })]);
    try {
      await m.screen.findByText("VVX payment confirmed! Your spins are being activated. You can close this modal now.");
      await act(() => Bun.sleep(1600));
      expect(m.onClose).not.toHaveBeenCalled();
      expect(m.calls()).toBe(1);
    } finally {
      m.restore();
    }
  });

  test("cancelled: the error callback gets 'Sign request cancelled' and the modal closes", async () => {
    const m = await open(request(), [() => jsonResponse({ ...base, cancelled: true })]);
    try {
      await act(() => Bun.sleep(50));
      expect(m.onError).toHaveBeenCalledWith("Sign request cancelled");
      expect(m.onClose).toHaveBeenCalledTimes(1);
    } finally {
      m.restore();
    }
  });

  test("expired sign-in: the expiry text and no payment texts; the modal stays open", async () => {
    const m = await open(request(), [() => jsonResponse({ ...base, expired: true })]);
    try {
      await m.screen.findByText("Request expired. Please close and try again.");
      expect(m.screen.getByTestId("signing-status").textContent).toContain("Request expired ⏱");
      expect(m.screen.getByTestId("signing-modal").textContent).not.toMatch(/payment/i);
      expect(m.onClose).not.toHaveBeenCalled();
      // The expired QR code is no longer shown (nor its link): nobody scans a request Xaman refuses.
      expect(m.screen.queryByTestId("signing-qr")).toBeNull();
      expect(m.screen.queryByTestId("signing-link")).toBeNull();
      expect(m.screen.getByTestId("signing-qr-ended").textContent).toBe("QR code expired");
    } finally {
      m.restore();
    }
  });

  test("bet payment: HTTP 429 shows the processing message and stops polling", async () => {
    const m = await open(request({ purpose: "bet", isPaymentRequest: true, betId: "bet-1" }), [() => jsonResponse({ error: "slow down" }, 429)]);
    try {
      await m.screen.findByText("Payment processing - you can close this modal and your spins will be activated automatically.");
      await act(() => Bun.sleep(1200));
      expect(m.calls()).toBe(1);
    } finally {
      m.restore();
    }
  });

  test("bet payment: stays open once signed and closes 1.5 s after the bet is confirmed", async () => {
    const m = await open(request({ purpose: "bet", isPaymentRequest: true, betId: "bet-1" }), [
      () => jsonResponse({ ...base, signed: true, account: "rSigner" }),
      () => jsonResponse({ ...base, signed: true, account: "rSigner", betConfirmed: true }),
    ]);
    try {
      await m.screen.findByText("Payment signed. Confirming your bet on the ledger…");
      expect(m.onSuccess).toHaveBeenCalledTimes(1);
      expect(m.onClose).not.toHaveBeenCalled();
      await m.screen.findByText("Bet confirmed! Good luck!", undefined, { timeout: 2000 });
      await act(() => Bun.sleep(1600));
      expect(m.onClose).toHaveBeenCalledTimes(1);
      expect(m.onSuccess).toHaveBeenCalledTimes(1);
    } finally {
      m.restore();
    }
  });
});
