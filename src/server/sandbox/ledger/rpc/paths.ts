import { isValidClassicAddress } from "xrpl";
import { amountJson, cross, fundsOf, issueOf, round, valueOf, XRP, type Issue } from "../apply/book";
import type { TxContext } from "../apply/context";
import { lineBalance, lineLimit, parseAmount } from "../apply/common";
import { RpcError } from "../codes";
import { Rational } from "../iou";
import type { SandboxLedger } from "../ledger";
import { ApplyView } from "../view";
import type { CallContext, Method, Params } from "./context";

const ZERO = Rational.of(0);

interface PathRequest {
  source: string;
  destination: string;
  amount: unknown;
  sendMax?: unknown;
  sourceIssues?: Issue[];
}

function parseRequest(ledger: SandboxLedger, params: Params): PathRequest {
  const source = params.source_account;
  const destination = params.destination_account;
  if (source === undefined) throw new RpcError("invalidParams", "Missing field 'source_account'.");
  if (typeof source !== "string" || !isValidClassicAddress(source)) throw new RpcError("srcActMalformed");
  if (destination === undefined) throw new RpcError("invalidParams", "Missing field 'destination_account'.");
  if (typeof destination !== "string" || !isValidClassicAddress(destination)) throw new RpcError("dstActMalformed");
  if (params.destination_amount === undefined) throw new RpcError("invalidParams", "Missing field 'destination_amount'.");
  const amount = parseAmount(params.destination_amount);
  if (!amount || valueOf(params.destination_amount).compare(ZERO) <= 0) throw new RpcError("dstAmtMalformed");
  if (params.send_max !== undefined && !parseAmount(params.send_max)) throw new RpcError("invalidParams", "Invalid field 'send_max'.");
  if (!ledger.accountRoot(source, "current")) throw new RpcError("srcActNotFound");
  let sourceIssues: Issue[] | undefined;
  if (params.source_currencies !== undefined) {
    if (!Array.isArray(params.source_currencies)) throw new RpcError("srcCurMalformed");
    sourceIssues = params.source_currencies.map((c: Params) => {
      if (!c || typeof c.currency !== "string") throw new RpcError("srcCurMalformed");
      return c.currency === "XRP" ? XRP : { currency: c.currency, issuer: typeof c.issuer === "string" ? c.issuer : source };
    });
  }
  return { source, destination, amount: params.destination_amount, sendMax: params.send_max, sourceIssues };
}

/** The issues the source could pay with: XRP and every currency it holds or issues on its trust lines. */
function sourceIssues(ledger: SandboxLedger, source: string): Issue[] {
  const issues: Issue[] = [XRP];
  for (const line of ledger.ownedEntries(source, "current").filter((e) => e.LedgerEntryType === "RippleState")) {
    const peer = line.LowLimit.issuer === source ? line.HighLimit.issuer : line.LowLimit.issuer;
    const balance = lineBalance(line, source);
    if (balance.signum() > 0) issues.push({ currency: line.Balance.currency, issuer: peer });
    else if (lineLimit(line, peer).signum() > 0) issues.push({ currency: line.Balance.currency, issuer: source });
  }
  return issues;
}

/** Currencies the destination can receive (XRP and its trust lines' currencies), as ripple_path_find lists them. */
function destinationCurrencies(ledger: SandboxLedger, destination: string): string[] {
  const currencies = new Set(["XRP"]);
  for (const line of ledger.ownedEntries(destination, "current").filter((e) => e.LedgerEntryType === "RippleState")) {
    if (lineBalance(line, destination).lt(lineLimit(line, destination))) currencies.add(line.Balance.currency);
  }
  return [...currencies].sort();
}

function quoteContext(ledger: SandboxLedger, account: string): TxContext {
  const last = ledger.lastClosed;
  return {
    view: new ApplyView(ledger.current),
    tx: {},
    account,
    hash: "",
    ledgerIndex: ledger.openIndex,
    parentHash: last.ledger_hash,
    parentCloseTime: last.close_time,
    priorBalance: 0n,
    meta: {},
    offersFor: () => [],
    bookOffers: (base) => ledger.bookOffers(base, "current").map((o) => o.index),
  };
}

/**
 * Alternatives for a payment: for each issue the source could spend, what it
 * would cost to deliver the amount now, through the order book and the AMM
 * (a quote on a throwaway view of the open ledger). Same-currency payments
 * need no path and XRP to XRP none at all, as in rippled.
 */
function alternatives(ledger: SandboxLedger, req: PathRequest): Record<string, unknown>[] {
  if (!ledger.accountRoot(req.destination, "current")) return [];
  const gets = issueOf(req.amount);
  const target = valueOf(req.amount);
  const candidates = req.sendMax !== undefined ? [issueOf(req.sendMax)] : req.sourceIssues ?? sourceIssues(ledger, req.source);
  const out: Record<string, unknown>[] = [];
  for (const pays of candidates) {
    if (pays.currency === gets.currency && (pays.currency === "XRP" || pays.issuer === gets.issuer || pays.issuer === req.source)) continue;
    if ((pays.currency === "XRP") === (gets.currency === "XRP")) continue; // IOU to IOU of another currency needs two books
    const ctx = quoteContext(ledger, req.source);
    const funds = fundsOf(ctx.view, req.source, pays);
    const cap = req.sendMax !== undefined ? valueOf(req.sendMax) : undefined;
    const maxIn = funds === "unlimited" ? cap : cap && cap.compare(funds) < 0 ? cap : funds;
    const { paid, got } = cross(ctx, { pays, gets, payer: req.source, receiver: req.destination, maxIn, maxOut: target });
    if (got.compare(target) < 0) continue;
    const step = gets.currency === "XRP" ? { currency: "XRP", type: 16, type_hex: "0000000000000010" } : { currency: gets.currency, issuer: gets.issuer, type: 48, type_hex: "0000000000000030" };
    out.push({ paths_computed: [[step]], source_amount: amountJson(pays, round(pays, paid, "up")) });
  }
  return out;
}

function pathFindResult(ledger: SandboxLedger, req: PathRequest, id: unknown, full: boolean) {
  return {
    alternatives: alternatives(ledger, req),
    destination_account: req.destination,
    destination_amount: req.amount,
    source_account: req.source,
    full_reply: full,
    id,
    ...(req.sendMax !== undefined ? { send_max: req.sendMax } : {}),
  };
}

export const pathFindMethods: Record<string, Method> = {
  ripple_path_find(params, { ledger, id }) {
    const req = parseRequest(ledger, params);
    return {
      ...pathFindResult(ledger, req, id, true),
      destination_currencies: destinationCurrencies(ledger, req.destination),
      ledger_current_index: ledger.openIndex,
      validated: false,
    };
  },

  path_find(params, call: CallContext) {
    const { ledger, conn, id } = call;
    switch (params.subcommand) {
      case "create": {
        const req = parseRequest(ledger, params);
        conn.pathFind?.stop();
        const sub = conn.subscriber;
        // rippled sends a full reply on the path_find stream after each ledger close until the request is closed.
        const stop = ledger.onClose(() => sub.send(JSON.stringify({ type: "path_find", ...pathFindResult(ledger, req, id, true) })));
        conn.pathFind = { request: params, id, stop };
        return pathFindResult(ledger, req, id, false);
      }
      case "close": {
        if (!conn.pathFind) throw new RpcError("noPathRequest");
        const { request, id: openId } = conn.pathFind;
        conn.pathFind.stop();
        conn.pathFind = undefined;
        return { ...pathFindResult(ledger, parseRequest(ledger, request), openId, true), closed: true };
      }
      case "status": {
        if (!conn.pathFind) throw new RpcError("noPathRequest");
        return { ...pathFindResult(ledger, parseRequest(ledger, conn.pathFind.request), conn.pathFind.id, true), status: "success" };
      }
      default:
        throw new RpcError("invalidParams", "Invalid field 'subcommand'.");
    }
  },
};
