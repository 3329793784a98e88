import { Elysia } from "elysia";
import { isValidClassicAddress } from "xrpl";
import type { AdvancingClock } from "../../platform/clock";
import { advanceSandboxClock } from "../clock";
import { lineBalance, lineLimit } from "../ledger/apply/common";
import type { SandboxLedger } from "../ledger/ledger";
import type { LedgerHeader } from "../ledger/state";
import { CLOCK_STEPS, accountPage, clockBar, indexPage, ledgerPage, notFoundPage, page, txPage, withClockBar } from "./pages";

const BASE = "/sandbox/explorer";

/**
 * `/sandbox/explorer/...`: what "View on XRPL Explorer" links open in sandbox
 * mode. Reads validated ledger state and history only.
 */
export function explorerRoutes(ledger: SandboxLedger, clock: AdvancingClock) {
  // Every page carries the clock bar; its buttons come back to the page they were pressed on.
  const html = (body: string, status = 200, request?: Request) => {
    const back = request ? new URL(request.url).pathname + new URL(request.url).search : BASE;
    return new Response(withClockBar(body, clockBar(clock.now(), clock.offsetMs, back)), { status, headers: { "content-type": "text/html; charset=utf-8" } });
  };
  const headerCache = new Map<number, LedgerHeader>();
  const headerOf = (i: number) => {
    let h = headerCache.get(i);
    if (!h) {
      h = ledger.store.ledger(i);
      if (h) headerCache.set(i, h);
      if (headerCache.size > 5000) headerCache.clear();
    }
    return h;
  };

  return new Elysia({ name: "sandbox-explorer" })
    .get("/sandbox/explorer", ({ request }) => html(indexPage(ledger.store.recentLedgers(15), ledger.store.recentTxs(25), headerOf), 200, request))
    .post("/sandbox/explorer/clock", async ({ body }) => {
      // A plain HTML form (works without JavaScript): one of the offered steps, then back to the page (303: a GET).
      // The request guard reads the form (this is one of its form routes) and hands its fields over as `body`.
      const form = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
      const ms = Number(form.ms);
      const back = String(form.back ?? "");
      const target = back.startsWith(`${BASE}/`) || back === BASE ? back : BASE;
      if (!CLOCK_STEPS.some((s) => s.ms === ms)) {
        return html(page("Clock", `<h1>The clock moves by +1 hour, +1 day or +30 days</h1><div class="card"><p><a href="${BASE}">Back to the latest ledgers</a></p></div>`), 400);
      }
      await advanceSandboxClock(clock, ledger, ms);
      return new Response(null, { status: 303, headers: { location: target } });
    })
    .get("/sandbox/explorer/search", ({ query, redirect }) => {
      const q = String(query.q ?? "").trim();
      if (isValidClassicAddress(q)) return redirect(`/sandbox/explorer/account/${q}`);
      if (/^[0-9A-Fa-f]{64}$/.test(q)) return redirect(`/sandbox/explorer/tx/${q.toUpperCase()}`);
      if (/^\d+$/.test(q)) return redirect(`/sandbox/explorer/ledger/${q}`);
      return html(notFoundPage("Address, transaction or ledger", q), 404);
    })
    .get("/sandbox/explorer/account/:address", ({ params, request }) => {
      const address = params.address;
      const root = isValidClassicAddress(address) ? ledger.accountRoot(address, "validated") : undefined;
      if (!root) return html(notFoundPage("Account", address), 404);
      const owned = ledger.ownedEntries(address, "validated");
      const lines = owned
        .filter((e) => e.LedgerEntryType === "RippleState")
        .map((line) => {
          const peer = line.LowLimit.issuer === address ? line.HighLimit.issuer : line.LowLimit.issuer;
          return { peer, currency: line.Balance.currency, balance: lineBalance(line, address).toString(), limit: lineLimit(line, address).toString(), limitPeer: lineLimit(line, peer).toString() };
        });
      const nfts = owned.filter((e) => e.LedgerEntryType === "NFTokenPage").flatMap((p) => (p.NFTokens as { NFToken: { NFTokenID: string; URI?: string } }[]).map((t) => t.NFToken));
      const offers = owned.filter((e) => e.LedgerEntryType === "NFTokenOffer");
      const txs = ledger.store.accountTxs(address, 1, ledger.validatedIndex, false, 25);
      return html(accountPage({ address, root, lines, nfts, offers, txs }, headerOf), 200, request);
    })
    .get("/sandbox/explorer/tx/:hash", ({ params, request }) => {
      const hash = params.hash;
      const tx = /^[0-9A-Fa-f]{64}$/.test(hash) ? ledger.store.tx(hash) : undefined;
      if (!tx) return html(notFoundPage("Transaction", hash), 404);
      return html(txPage(tx, headerOf(tx.ledger_index)!), 200, request);
    })
    .get("/sandbox/explorer/ledger/:index", ({ params, request }) => {
      const header = /^\d+$/.test(params.index) ? ledger.store.ledger(Number(params.index)) : undefined;
      if (!header) return html(notFoundPage("Ledger", params.index), 404);
      return html(ledgerPage(header, ledger.store.ledgerTxs(header.ledger_index)), 200, request);
    });
}
