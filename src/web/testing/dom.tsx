import { GlobalRegistrator } from "@happy-dom/global-registrator";
import { afterAll, beforeAll } from "bun:test";
import type { ReactNode } from "react";
import { MemoryRouter } from "react-router-dom";
import { SWRConfig } from "swr";

const KEEP = ["fetch", "Request", "Response", "Headers", "WebSocket", "URL", "AbortController", "AbortSignal"] as const;

/**
 * Registers happy-dom for the component tests of one file and removes it
 * afterwards. Bun's own fetch/Request/Response/WebSocket are restored so that
 * server tests in the same `bun test` process keep working. Query through
 * render()'s result, not testing-library's `screen` (bound at import time).
 */
export function useDom(url = "http://localhost:3000/") {
  const saved: Record<string, unknown> = {};
  beforeAll(async () => {
    for (const k of KEEP) saved[k] = (globalThis as Record<string, unknown>)[k];
    GlobalRegistrator.register({ url, width: 1280, height: 800 });
    (globalThis as Record<string, unknown>).IS_REACT_ACT_ENVIRONMENT = true;
    // findBy/waitFor wait for a condition, never longer than it takes: 5 s instead of 1 s only matters on a busy
    // machine (the suite's files run in parallel), where a chain of renders can take more than a second.
    const { configure } = await import("@testing-library/react");
    configure({ asyncUtilTimeout: 5_000 });
    // No server behind the page: its push socket never opens (so the spec's polls run) unless a test brings one.
    const { setSocketFactory } = await import("../lib/socket");
    setSocketFactory(() => new FakeSocket());
  });
  afterAll(async () => {
    await Bun.sleep(50); // let React's scheduler finish before the window goes away
    await GlobalRegistrator.unregister();
    for (const k of KEEP) (globalThis as Record<string, unknown>)[k] = saved[k];
  });
}

/** Replaces fetch for one test with a handler of JSON routes; returns the calls made. */
export function stubFetch(routes: Record<string, unknown | ((init?: RequestInit) => Response)>) {
  const calls: string[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, "http://localhost").pathname;
    calls.push(path);
    const route = routes[path];
    if (route === undefined) return new Response(JSON.stringify({ error: "not found" }), { status: 404 });
    if (typeof route === "function") return (route as (init?: RequestInit) => Response)(init);
    return new Response(JSON.stringify(route), { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}

/** A JSON response for stubbed routes. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

/** Wraps a component in a fresh swr cache (no data shared between tests) and, unless it brings its own, a router. */
export function withProviders(ui: ReactNode, { router = true } = {}) {
  return (
    <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false, dedupingInterval: 0 }}>
      {router ? <MemoryRouter>{ui}</MemoryRouter> : ui}
    </SWRConfig>
  );
}

/** Sets the connected wallet directly, as a finished sign-in would. */
export async function setWallet(address: string | null) {
  const { walletState } = await import("../features/wallet/walletStore");
  walletState.checking = false;
  walletState.isConnected = Boolean(address);
  walletState.walletAddress = address;
}

/**
 * A stand-in for the page's `/ws` socket: closed until `open()`; records what the page sent;
 * `subscribeAll()` confirms every subscription as the server would; `push()` delivers a message.
 */
export class FakeSocket {
  static last: FakeSocket | undefined;
  readyState = 0;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  readonly sent: Record<string, unknown>[] = [];

  constructor() {
    FakeSocket.last = this;
  }

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({});
  }

  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  /** Answers every subscribe the page sent with `subscribed`. */
  subscribeAll(): void {
    for (const m of this.sent) if (m.type === "subscribe") this.push({ type: "subscribed", topic: m.topic });
  }

  push(message: object): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}
