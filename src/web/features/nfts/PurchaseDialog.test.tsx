import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { FakeSocket, jsonResponse, stubFetch, useDom } from "../../testing/dom";

useDom();
afterEach(() => cleanup());

const WALLET = "rBuyer1111111111111111111111111111";
const PAY_UUID = "11111111-1111-4111-8111-111111111111";
const ACCEPT_UUID = "22222222-2222-4222-8222-222222222222";
const TOKEN = "000800006F5E3E5B7A0C2C8D9F0A1B2C3D4E5F60718293A4000003E9";
const OFFER = "ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789";

/** Short timings so the spec's 3 s / 5 s polls run in milliseconds here. */
const FAST = { purchaseStatusPollMs: 40, signingPollMs: 15, onChainRetryMs: 15, acceptPollMs: 15, mobileDeepLinkDelayMs: 5, autoCloseMs: 1_000, confettiMs: 50 };
// autoCloseMs: long enough for a loaded machine to read "Purchase Complete!" before the dialog closes itself.


/** stubFetch, plus the full URLs and bodies the dialog sent. */
function stub(routes: Parameters<typeof stubFetch>[0]) {
  const s = stubFetch(routes);
  const inner = globalThis.fetch;
  const sent: { url: string; body: unknown }[] = [];
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return inner(input, init);
  }) as typeof fetch;
  return { sent, restore: s.restore };
}

async function renderDialog(props: Partial<{ walletAddress: string | null; onClose: () => void; onComplete: () => void }> = {}) {
  const { PurchaseDialog } = await import("./PurchaseDialog");
  const { Toaster } = await import("../../components/Toaster");
  return render(
    <>
      <PurchaseDialog
        open
        tierId={1}
        tierName="Genesis"
        price="500,000"
        walletAddress={props.walletAddress === undefined ? WALLET : props.walletAddress}
        onClose={props.onClose ?? (() => {})}
        onComplete={props.onComplete}
        timing={FAST}
      />
      <Toaster />
    </>,
  );
}

const title = (screen: ReturnType<typeof render>) => screen.getByRole("dialog").querySelector("h2")?.textContent;
const toastTitle = (screen: ReturnType<typeof render>) => screen.queryByTestId("toast")?.querySelector(".toast-title")?.textContent ?? null;

describe("purchase dialog", () => {
  test("without a wallet: the connect message, a Connect Wallet button, and Start Purchase disabled", async () => {
    const s = stub({});
    try {
      const screen = await renderDialog({ walletAddress: null });
      expect(title(screen)).toBe("Purchase Genesis NFT");
      screen.getByText("You need to connect your XRPL wallet before purchasing an NFT.");
      screen.getByRole("button", { name: "Connect Wallet" });
      expect((screen.getByRole("button", { name: "Start Purchase" }) as HTMLButtonElement).disabled).toBe(true);
      expect(screen.getByText("500,000 VVX")).toBeTruthy();
      expect(s.sent).toHaveLength(0);
    } finally {
      s.restore();
    }
  });

  test("pays, sees the payment, accepts the offer and completes: every step title, toast and call", async () => {
    let signed = false;
    let purchase: unknown = { status: "pending", requestId: "REQ-1" };
    let accepted = false;
    const s = stub({
      "/api/payments/vvx-payment-qr": { success: true, uuid: PAY_UUID, requestId: "REQ-1", qrUrl: "/qr/pay.png", xummUrl: "http://localhost:3000/sandbox/wallet/sign/" + PAY_UUID },
      [`/api/xumm/status/${PAY_UUID}`]: () => jsonResponse({ success: true, accepted: signed, signed, expired: false, cancelled: false }),
      [`/api/xumm/status/${ACCEPT_UUID}`]: () => jsonResponse({ success: true, accepted: false, signed: false, expired: false }),
      "/api/check-vvx-payment": () => jsonResponse({ status: signed ? "payment_detected" : "no_payment", requestId: "REQ-1" }),
      "/api/nfts/purchase-status/REQ-1": () => jsonResponse(purchase),
      "/api/check-offer-acceptance": () => jsonResponse({ accepted }),
    });
    let completed = 0;
    let closed = 0;
    try {
      const screen = await renderDialog({ onComplete: () => completed++, onClose: () => closed++ });
      expect(title(screen)).toBe("Purchase Genesis NFT");
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Start Purchase" })));
      await waitFor(() => expect(title(screen)).toBe("Step 1: Pay VVX"));
      const create = s.sent.find((c) => c.url.endsWith("/api/payments/vvx-payment-qr"))!;
      expect(create.body).toEqual({ amount: "500,000", walletAddress: WALLET, tierId: 1 });
      expect(screen.getByTestId("payment-qr").getAttribute("data-uuid")).toBe(PAY_UUID);
      expect(screen.getByAltText("QR code of the VVX payment request").getAttribute("src")).toBe("/qr/pay.png");
      expect(screen.getByTestId("purchase-dialog").textContent).toContain("3-10 seconds");

      // The wallet signs: the signing poll sees it and the on-chain check reports the payment.
      signed = true;
      await waitFor(() => expect(screen.getByTestId("payment-status").textContent).toContain("Payment detected"));
      expect(screen.getByTestId("purchase-dialog").textContent).toContain("5-15 seconds");
      const check = s.sent.find((c) => c.url.includes("/api/check-vvx-payment"))!;
      const q = new URL(check.url, "http://x").searchParams;
      expect(Object.fromEntries(q)).toEqual({ walletAddress: WALLET, tierId: "1", amount: "500000", requestId: "REQ-1" });

      // The server made the offer and its acceptance request.
      purchase = { status: "offer_created", offerId: OFFER, tokenId: TOKEN, xummQrUrl: "/qr/accept.png", xummUrl: "xumm://accept", xummUuid: ACCEPT_UUID, requestId: "REQ-1" };
      await waitFor(() => expect(title(screen)).toBe("Step 2: Accept NFT Offer"));
      expect(toastTitle(screen)).toBe("Payment received!");
      expect(screen.getByTestId("offer-qr").getAttribute("data-uuid")).toBe(ACCEPT_UUID);
      // The token id's distinctive end, not the flags and fee every NFT of the platform starts with.
      expect(screen.getByTestId("purchase-dialog").textContent).toContain(`…${TOKEN.slice(-12)}`);
      expect(screen.getByTestId("purchase-dialog").textContent).not.toContain(TOKEN.slice(0, 8));

      // Verify before accepting: 'Offer pending'.
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "I've Accepted the NFT Offer - Verify" })));
      await waitFor(() => expect(toastTitle(screen)).toBe("Offer pending"));
      expect(screen.getByTestId("toast").textContent).toContain("wallet app");
      const verify = s.sent.filter((c) => c.url.includes("/api/check-offer-acceptance")).at(-1)!;
      expect(new URL(verify.url, "http://x").searchParams.get("offerId")).toBe(OFFER);
      expect(new URL(verify.url, "http://x").searchParams.get("requestId")).toBe("REQ-1");

      accepted = true;
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "I've Accepted the NFT Offer - Verify" })));
      await waitFor(() => expect(title(screen)).toBe("Purchase Complete!"));
      screen.getByRole("button", { name: "Done" });
      // Auto-close after the (shortened) 3 s, calling the completion callback once.
      await waitFor(() => expect(closed).toBe(1));
      expect(completed).toBe(1);
      expect(title(screen)).toBe("Purchase Genesis NFT");
    } finally {
      s.restore();
    }
  });

  test("an offer found by the on-chain check gets its acceptance request from POST /api/nfts/accept-offer", async () => {
    // The buyer signs the acceptance only once the test has seen its QR (a fast page would otherwise pass it by).
    let acceptSigned = false;
    const s = stub({
      "/api/payments/vvx-payment-qr": { success: true, uuid: PAY_UUID, requestId: "REQ-2", refs: { qr_png: "/qr/pay2.png" }, next: { always: "xumm://pay" } },
      [`/api/xumm/status/${PAY_UUID}`]: { success: true, signed: true, accepted: true, expired: false },
      [`/api/xumm/status/${ACCEPT_UUID}`]: () => jsonResponse({ success: true, signed: acceptSigned, accepted: acceptSigned, expired: false }),
      "/api/check-vvx-payment": { status: "offer_created", nftOfferId: OFFER, tokenId: TOKEN, requestId: "REQ-2" },
      "/api/nfts/purchase-status/REQ-2": { status: "payment_detected", requestId: "REQ-2" },
      "/api/nfts/accept-offer": { success: true, uuid: ACCEPT_UUID, qrCodeUrl: "/qr/accept2.png", xummLink: "xumm://accept2" },
      "/api/check-offer-acceptance": () => jsonResponse({ accepted: acceptSigned }),
    });
    try {
      const screen = await renderDialog();
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Start Purchase" })));
      await waitFor(() => expect(title(screen)).toBe("Step 2: Accept NFT Offer"));
      await waitFor(() => expect(screen.getByTestId("offer-qr").getAttribute("data-uuid")).toBe(ACCEPT_UUID));
      expect(s.sent.find((c) => c.url.endsWith("/api/nfts/accept-offer"))!.body).toEqual({ offerId: OFFER, walletAddress: WALLET });
      // The signed acceptance completes the purchase without pressing verify.
      acceptSigned = true;
      await waitFor(() => expect(title(screen)).toBe("Purchase Complete!"));
    } finally {
      s.restore();
    }
  });

  test("a failed payment request shows 'Payment initiation failed' with the server's reason and stays on initiate", async () => {
    const s = stub({
      "/api/payments/vvx-payment-qr": () => jsonResponse({ success: false, error: "Genesis NFTs are sold out", message: "Genesis NFTs are sold out", code: "SOLD_OUT" }, 409),
    });
    try {
      const screen = await renderDialog();
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Start Purchase" })));
      await waitFor(() => expect(toastTitle(screen)).toBe("Payment initiation failed"));
      expect(screen.getByTestId("toast").textContent).toContain("Failed to create VVX payment request: Genesis NFTs are sold out");
      expect(title(screen)).toBe("Purchase Genesis NFT");
    } finally {
      s.restore();
    }
  });

  test("an expired payment request ends the attempt with a message and Try Again; Cancel resets and closes", async () => {
    let closed = 0;
    const s = stub({
      "/api/payments/vvx-payment-qr": { success: true, uuid: PAY_UUID, requestId: "REQ-3", qrUrl: "/qr/pay3.png" },
      [`/api/xumm/status/${PAY_UUID}`]: { success: true, signed: false, expired: true, cancelled: false },
    });
    try {
      const screen = await renderDialog({ onClose: () => closed++ });
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Start Purchase" })));
      await waitFor(() => screen.getByText("Request expired. Please close and try again."));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Try Again" })));
      expect(title(screen)).toBe("Purchase Genesis NFT");
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Cancel" })));
      expect(closed).toBe(1);
    } finally {
      s.restore();
    }
  });

  test("a payment that fails on the ledger ends the attempt with the ledger's result", async () => {
    const s = stub({
      "/api/payments/vvx-payment-qr": { success: true, uuid: PAY_UUID, requestId: "REQ-4", qrUrl: "/qr/pay4.png" },
      [`/api/xumm/status/${PAY_UUID}`]: { success: true, signed: true, cancelled: false, expired: false, dispatchedResult: "tecPATH_PARTIAL" },
    });
    try {
      const screen = await renderDialog();
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Start Purchase" })));
      await waitFor(() => screen.getByText(/did not go through on the ledger \(tecPATH_PARTIAL\)/));
      expect(s.sent.some((c) => c.url.includes("/api/check-vvx-payment"))).toBe(false);
    } finally {
      s.restore();
    }
  });

  test("verify without an offer id is refused with 'Missing offer ID'", async () => {
    const { PurchaseFlow } = await import("./purchaseFlow");
    const toasts: { title: string; description?: string }[] = [];
    const flow = new PurchaseFlow({ tierId: 1, tierName: "Genesis", price: "500,000", walletAddress: WALLET }, { toast: (t) => (toasts.push(t), 0) });
    await flow.verify();
    expect(toasts).toEqual([{ title: "Missing offer ID", description: "No NFT offer found to verify", variant: "destructive" } as never]);
    const noWallet = new PurchaseFlow({ tierId: 1, tierName: "Genesis", price: "500,000", walletAddress: null }, { toast: (t) => (toasts.push(t), 0) });
    await noWallet.start();
    expect(toasts.at(-1)?.title).toBe("Wallet not connected");
  });

  test("with its socket up the dialog follows pushes: no status poll, and the polls resume when the socket drops", async () => {
    const s = stub({
      "/api/payments/vvx-payment-qr": { success: true, uuid: PAY_UUID, requestId: "REQ-P", qrUrl: "/qr/pay.png", xummUrl: "xumm://pay", reused: false },
      "/api/nfts/accept-offer": { success: true, uuid: ACCEPT_UUID, qrCodeUrl: "/qr/accept.png", xummLink: "xumm://accept" },
      "/api/nfts/purchase-status/REQ-P": { status: "offer_created", offerId: OFFER, tokenId: TOKEN, xummQrUrl: "/qr/accept.png", xummUrl: "xumm://accept", xummUuid: ACCEPT_UUID, requestId: "REQ-P" },
    });
    const polls = () => s.sent.filter((c) => /\/api\/(nfts\/purchase-status|check-vvx-payment|xumm\/status|check-offer-acceptance)/.test(c.url)).map((c) => c.url);
    const push = (status: string, extra: object = {}) =>
      act(async () => FakeSocket.last!.push({ type: "purchase", topic: `wallet:${WALLET}`, requestId: "REQ-P", status, offerId: null, tokenId: null, tierId: 1, reason: null, ...extra }));
    try {
      const screen = await renderDialog();
      const socket = FakeSocket.last!;
      await act(async () => socket.open());
      expect(socket.sent).toContainEqual({ type: "subscribe", topic: `wallet:${WALLET}` });
      await act(async () => socket.subscribeAll());
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Start Purchase" })));
      await waitFor(() => expect(title(screen)).toBe("Step 1: Pay VVX"));

      await push("payment_detected");
      expect(screen.getByTestId("payment-status").textContent).toContain("Payment signed");
      await push("processing");
      expect(screen.getByTestId("payment-status").textContent).toContain("Payment detected");
      await push("offer_created", { offerId: OFFER, tokenId: TOKEN });
      await waitFor(() => expect(title(screen)).toBe("Step 2: Accept NFT Offer"));
      // The accept request is asked for with a POST, never by a status poll.
      await waitFor(() => expect(screen.getByTestId("offer-qr").getAttribute("data-uuid")).toBe(ACCEPT_UUID));
      await push("offer_created", { offerId: OFFER, tokenId: TOKEN, acceptIssue: { state: "rejected", result: null } });
      expect(screen.getByTestId("offer-hint").textContent).toBe("The acceptance request was rejected in the wallet.");
      await Bun.sleep(120); // several poll periods at the test's timings
      expect(polls()).toEqual([]);

      // The socket drops: the spec's polls take over (and find the offer where it was).
      await act(async () => socket.close());
      await waitFor(() => expect(polls().length).toBeGreaterThan(0));
      // It reconnects by itself (after its backoff) and subscribes again.
      await waitFor(() => expect(FakeSocket.last).not.toBe(socket), { timeout: 3000 });
      await act(async () => FakeSocket.last!.open());
      await act(async () => FakeSocket.last!.subscribeAll());
      await push("completed", { offerId: OFFER, tokenId: TOKEN });
      await waitFor(() => expect(title(screen)).toBe("Purchase Complete!"));
    } finally {
      s.restore();
    }
  });

  test("a pushed rejection or ledger failure ends the attempt with the same texts the signing poll gives", async () => {
    const s = stub({ "/api/payments/vvx-payment-qr": { success: true, uuid: PAY_UUID, requestId: "REQ-R", qrUrl: "/qr/pay.png", xummUrl: "xumm://pay", reused: false } });
    try {
      const screen = await renderDialog();
      await act(async () => FakeSocket.last!.open());
      await act(async () => FakeSocket.last!.subscribeAll());
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Start Purchase" })));
      await waitFor(() => expect(title(screen)).toBe("Step 1: Pay VVX"));
      await act(async () =>
        FakeSocket.last!.push({ type: "purchase", topic: `wallet:${WALLET}`, requestId: "REQ-R", status: "expired", offerId: null, tokenId: null, tierId: 1, reason: "payment_failed: tecUNFUNDED_PAYMENT" }),
      );
      await waitFor(() => screen.getByText(/did not go through on the ledger \(tecUNFUNDED_PAYMENT\)/));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Try Again" })));
      await act(async () => fireEvent.click(screen.getByRole("button", { name: "Start Purchase" })));
      await waitFor(() => expect(title(screen)).toBe("Step 1: Pay VVX"));
      await act(async () =>
        FakeSocket.last!.push({ type: "purchase", topic: `wallet:${WALLET}`, requestId: "REQ-R", status: "expired", offerId: null, tokenId: null, tierId: 1, reason: "payment_rejected" }),
      );
      await waitFor(() => screen.getByText("Sign request cancelled"));
    } finally {
      s.restore();
    }
  });
});
