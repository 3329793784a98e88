import { afterEach, describe, expect, test } from "bun:test";
import { act, cleanup, fireEvent, render, waitFor } from "@testing-library/react";
import { jsonResponse, stubFetch, useDom, withProviders } from "../../testing/dom";

useDom();
afterEach(() => cleanup());

const WALLET = "rPush11111111111111111111111111111";
const STATUS = "/api/auth/push-to-sign/status";

describe("push-to-sign settings panel", () => {
  test("shows the wallet's setting and turns it on through the API; the status call reflects it", async () => {
    let enabled = false;
    const posted: unknown[] = [];
    const s = stubFetch({
      [STATUS]: () => jsonResponse({ success: true, walletAddress: WALLET, pushToSignEnabled: enabled, pushReady: true }),
      "/api/auth/push-to-sign": (init?: RequestInit) => {
        const body = JSON.parse(String(init?.body)) as { enabled: boolean };
        posted.push(body);
        enabled = body.enabled;
        return jsonResponse({ success: true, walletAddress: WALLET, pushToSignEnabled: enabled });
      },
    });
    try {
      const { PushToSignSettings } = await import("./PushToSignSettings");
      const screen = render(withProviders(<PushToSignSettings walletAddress={WALLET} onClose={() => {}} />));
      const toggle = (await screen.findByTestId("push-to-sign-toggle")) as HTMLInputElement;
      expect(toggle.checked).toBe(false);
      expect(screen.getByTestId("push-to-sign-state").textContent).toBe("Off");
      await act(async () => fireEvent.click(toggle));
      await waitFor(() => expect(screen.getByTestId("push-to-sign-state").textContent).toBe("On"));
      expect(posted).toEqual([{ enabled: true, walletAddress: WALLET }]);
      expect(s.calls.filter((c) => c === STATUS).length).toBe(2);
    } finally {
      s.restore();
    }
  });

  test("a failed load says so and offers a retry", async () => {
    const s = stubFetch({ [STATUS]: () => jsonResponse({ success: false, error: "Field 'walletAddress' is not an XRPL address" }, 400) });
    try {
      const { PushToSignSettings } = await import("./PushToSignSettings");
      const screen = render(withProviders(<PushToSignSettings walletAddress={WALLET} onClose={() => {}} />));
      await screen.findByText(/Could not load your settings: Field 'walletAddress' is not an XRPL address/);
      expect(screen.getByRole("button", { name: "Try Again" })).toBeTruthy();
    } finally {
      s.restore();
    }
  });
});
