import { isValidClassicAddress } from "xrpl";
import { FEES, LSF, lineBalance, lineLimit } from "../apply/common";
import { RpcError } from "../codes";
import { Iou } from "../iou";
import type { Entry } from "../view";
import { ledgerFields, limitOf, requireAccount, stateLedger, type Method } from "./context";

const TF_SET_NO_RIPPLE = 0x00020000;
const TF_CLEAR_NO_RIPPLE = 0x00040000;
const ASF_DEFAULT_RIPPLE = 8;

function peerOf(line: Entry, account: string): string {
  return line.LowLimit.issuer === account ? line.HighLimit.issuer : line.LowLimit.issuer;
}

function ownNoRipple(line: Entry, account: string): boolean {
  return ((line.Flags ?? 0) & (line.LowLimit.issuer === account ? LSF.lowNoRipple : LSF.highNoRipple)) !== 0;
}

export const accountCheckMethods: Record<string, Method> = {
  /** rippled's GatewayBalances: what an issuer owes (obligations), what its hot wallets hold, and what it holds of others. */
  gateway_balances(params, { ledger }) {
    const account = requireAccount(params);
    const which = stateLedger(ledger, params);
    if (!ledger.accountRoot(account, which)) throw new RpcError("actNotFound");
    const hot = new Set<string>(params.hotwallet === undefined ? [] : Array.isArray(params.hotwallet) ? params.hotwallet : [params.hotwallet]);
    for (const h of hot) if (typeof h !== "string" || !isValidClassicAddress(h)) throw new RpcError("invalidHotWallet");
    const obligations = new Map<string, Iou>();
    const balances: Record<string, { currency: string; value: string }[]> = {};
    const assets: Record<string, { currency: string; value: string }[]> = {};
    const frozen: Record<string, { currency: string; value: string }[]> = {};
    for (const line of ledger.ownedEntries(account, which).filter((e) => e.LedgerEntryType === "RippleState")) {
      const peer = peerOf(line, account);
      const currency: string = line.Balance.currency;
      const balance = lineBalance(line, account);
      const frozenByUs = ((line.Flags ?? 0) & (line.LowLimit.issuer === account ? LSF.lowFreeze : LSF.highFreeze)) !== 0;
      if (hot.has(peer)) (balances[peer] ??= []).push({ currency, value: balance.negate().toString() });
      else if (frozenByUs && balance.signum() < 0) (frozen[peer] ??= []).push({ currency, value: balance.negate().toString() });
      else if (balance.signum() < 0) obligations.set(currency, (obligations.get(currency) ?? Iou.ZERO).add(balance.negate()));
      else if (balance.signum() > 0) (assets[peer] ??= []).push({ currency, value: balance.toString() });
    }
    return {
      account,
      ...(obligations.size ? { obligations: Object.fromEntries([...obligations].map(([c, v]) => [c, v.toString()])) } : {}),
      ...(Object.keys(balances).length ? { balances } : {}),
      ...(Object.keys(frozen).length ? { frozen_balances: frozen } : {}),
      ...(Object.keys(assets).length ? { assets } : {}),
      ...ledgerFields(ledger, which),
    };
  },

  /** rippled's NoRippleCheck: the DefaultRipple and NoRipple settings a gateway or a user should have, with fixes. */
  noripple_check(params, { ledger }) {
    const account = requireAccount(params);
    if (params.role !== "gateway" && params.role !== "user") throw new RpcError("invalidParams", params.role === undefined ? "Missing field 'role'." : "Invalid field 'role'.");
    const gateway = params.role === "gateway";
    const which = stateLedger(ledger, params);
    const root = ledger.accountRoot(account, which);
    if (!root) throw new RpcError("actNotFound");
    const limit = limitOf(params, 300, 400);
    const problems: string[] = [];
    const transactions: Record<string, unknown>[] = [];
    let sequence: number = root.Sequence;
    const fix = (tx: Record<string, unknown>) => params.transactions && transactions.push({ ...tx, Account: account, Fee: Number(FEES.baseFee), Sequence: sequence++ });
    const defaultRipple = ((root.Flags ?? 0) & LSF.defaultRipple) !== 0;
    if (gateway && !defaultRipple) {
      problems.push("You should immediately set your default ripple flag");
      fix({ TransactionType: "AccountSet", SetFlag: ASF_DEFAULT_RIPPLE });
    } else if (!gateway && defaultRipple) {
      problems.push("You appear to have set your default ripple flag even though you are not a gateway. This is not recommended unless you are experimenting");
    }
    for (const line of ledger.ownedEntries(account, which).filter((e) => e.LedgerEntryType === "RippleState").slice(0, limit)) {
      const peer = peerOf(line, account);
      const noRipple = ownNoRipple(line, account);
      if (noRipple === !gateway) continue;
      const currency: string = line.Balance.currency;
      problems.push(gateway ? `You should clear the no ripple flag on your ${currency} line to ${peer}` : `You should probably set the no ripple flag on your ${currency} line to ${peer}`);
      fix({ TransactionType: "TrustSet", LimitAmount: { currency, issuer: peer, value: lineLimit(line, account).toString() }, Flags: gateway ? TF_CLEAR_NO_RIPPLE : TF_SET_NO_RIPPLE });
    }
    return { problems, ...(params.transactions ? { transactions } : {}), ...ledgerFields(ledger, which) };
  },

  /** rippled's DepositAuthorized: a destination with DepositAuth takes payments only from itself (the sandbox has no preauthorizations). */
  deposit_authorized(params, { ledger }) {
    const source = params.source_account;
    const destination = params.destination_account;
    if (source === undefined) throw new RpcError("invalidParams", "Missing field 'source_account'.");
    if (typeof source !== "string" || !isValidClassicAddress(source)) throw new RpcError("srcActMalformed");
    if (destination === undefined) throw new RpcError("invalidParams", "Missing field 'destination_account'.");
    if (typeof destination !== "string" || !isValidClassicAddress(destination)) throw new RpcError("dstActMalformed");
    const which = stateLedger(ledger, params);
    if (!ledger.accountRoot(source, which)) throw new RpcError("srcActNotFound");
    const dst = ledger.accountRoot(destination, which);
    if (!dst) throw new RpcError("dstActNotFound");
    const authorized = ((dst.Flags ?? 0) & LSF.depositAuth) === 0 || source === destination;
    return { deposit_authorized: authorized, destination_account: destination, ...ledgerFields(ledger, which), source_account: source };
  },
};
