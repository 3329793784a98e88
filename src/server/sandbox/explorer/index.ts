import { Elysia } from "elysia";
import { isValidClassicAddress } from "xrpl";
import { lineBalance, lineLimit } from "../ledger/apply/common";
import type { SandboxLedger } from "../ledger/ledger";
import type { LedgerHeader } from "../ledger/state";
import { accountPage, indexPage, ledgerPage, notFoundPage, txPage } from "./pages";

const html = (body: string, status = 200) => new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });

/**
 * `/sandbox/explorer/...`: what "View on XRPL Explorer" links open in sandbox
 * mode. Reads validated ledger state and history only.
 */
export function explorerRoutes(ledger: SandboxLedger) {
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
    .get("/sandbox/explorer", () => html(indexPage(ledger.store.recentLedgers(15), ledger.store.recentTxs(25), headerOf)))
    .get("/sandbox/explorer/search", ({ query, redirect }) => {
      const q = String(query.q ?? "").trim();
      if (isValidClassicAddress(q)) return redirect(`/sandbox/explorer/account/${q}`);
      if (/^[0-9A-Fa-f]{64}$/.test(q)) return redirect(`/sandbox/explorer/tx/${q.toUpperCase()}`);
      if (/^\d+$/.test(q)) return redirect(`/sandbox/explorer/ledger/${q}`);
      return html(notFoundPage("Address, transaction or ledger", q), 404);
    })
    .get("/sandbox/explorer/account/:address", ({ params }) => {
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
      return html(accountPage({ address, root, lines, nfts, offers, txs }, headerOf));
    })
    .get("/sandbox/explorer/tx/:hash", ({ params }) => {
      const hash = params.hash;
      const tx = /^[0-9A-Fa-f]{64}$/.test(hash) ? ledger.store.tx(hash) : undefined;
      if (!tx) return html(notFoundPage("Transaction", hash), 404);
      return html(txPage(tx, headerOf(tx.ledger_index)!));
    })
    .get("/sandbox/explorer/ledger/:index", ({ params }) => {
      const header = /^\d+$/.test(params.index) ? ledger.store.ledger(Number(params.index)) : undefined;
      if (!header) return html(notFoundPage("Ledger", params.index), 404);
      return html(ledgerPage(header, ledger.store.ledgerTxs(header.ledger_index)));
    });
}
