import { parseNFTokenID } from "xrpl";
import { LSF, lineBalance, lineLimit } from "../apply/common";
import { RpcError } from "../codes";
import { signerListKey } from "../keys";
import type { LedgerSelector, SandboxLedger } from "../ledger";
import type { Entry } from "../view";
import { ledgerFields, limitOf, page, requireAccount, stateLedger, type Method, type Params } from "./context";

/** account_objects `type` filter names and the ledger entry types they select. */
const OBJECT_TYPES: Record<string, string> = { state: "RippleState", offer: "Offer", nft_offer: "NFTokenOffer", nft_page: "NFTokenPage", amm: "AMM", signer_list: "SignerList" };
/** Types rippled knows that the sandbox never holds: the filter is valid and selects nothing. */
const EMPTY_TYPES = new Set(["check", "deposit_preauth", "escrow", "payment_channel", "ticket", "did", "oracle", "bridge", "credential", "mpt_issuance", "mptoken", "permissioned_domain", "vault", "delegate"]);
/** Objects that stop an account from being deleted (account_objects deletion_blockers_only); offers and signer lists go with the account. */
const DELETION_BLOCKERS = new Set(["RippleState", "NFTokenPage"]);

/** One trust line as account_lines shows it, from `account`'s side. */
export function lineJson(line: Entry, account: string) {
  const accountIsLow = line.LowLimit.issuer === account;
  const peer = accountIsLow ? line.HighLimit.issuer : line.LowLimit.issuer;
  const flags = line.Flags ?? 0;
  const own = (low: number, high: number) => (flags & (accountIsLow ? low : high)) !== 0;
  const theirs = (low: number, high: number) => (flags & (accountIsLow ? high : low)) !== 0;
  const side = accountIsLow ? "Low" : "High";
  return {
    account: peer,
    balance: lineBalance(line, account).toString(),
    currency: line.Balance.currency,
    limit: lineLimit(line, account).toString(),
    limit_peer: lineLimit(line, peer).toString(),
    no_ripple: own(LSF.lowNoRipple, LSF.highNoRipple),
    no_ripple_peer: theirs(LSF.lowNoRipple, LSF.highNoRipple),
    quality_in: line[`${side}QualityIn`] ?? 0,
    quality_out: line[`${side}QualityOut`] ?? 0,
    ...(own(LSF.lowFreeze, LSF.highFreeze) ? { freeze: true } : {}),
    ...(theirs(LSF.lowFreeze, LSF.highFreeze) ? { freeze_peer: true } : {}),
    ...(own(LSF.lowDeepFreeze, LSF.highDeepFreeze) ? { deep_freeze: true } : {}),
    ...(theirs(LSF.lowDeepFreeze, LSF.highDeepFreeze) ? { deep_freeze_peer: true } : {}),
  };
}

export function nftJson(id: string, uri?: string) {
  const parsed = parseNFTokenID(id);
  return {
    Flags: parsed.Flags,
    Issuer: parsed.Issuer,
    NFTokenID: id,
    NFTokenTaxon: parsed.Taxon,
    ...(uri ? { URI: uri } : {}),
    nft_serial: parsed.Sequence,
    ...(parsed.TransferFee ? { TransferFee: parsed.TransferFee } : {}),
  };
}

/** An account's NFTs in page order. */
function accountTokens(ledger: SandboxLedger, account: string, which: LedgerSelector): { NFTokenID: string; URI?: string }[] {
  return ledger
    .ownedEntries(account, which)
    .filter((e) => e.LedgerEntryType === "NFTokenPage")
    .flatMap((p) => (p.NFTokens as { NFToken: { NFTokenID: string; URI?: string } }[]).map((t) => t.NFToken));
}

/** The account and ledger every account method starts from; actNotFound when the account is not in that ledger. */
function accountIn(ledger: SandboxLedger, params: Params): { account: string; which: LedgerSelector; root: Entry } {
  const account = requireAccount(params);
  const which = stateLedger(ledger, params);
  const root = ledger.accountRoot(account, which);
  if (!root) throw new RpcError("actNotFound");
  return { account, which, root };
}

export const accountMethods: Record<string, Method> = {
  account_info(params, { ledger, apiVersion }) {
    const { which, root } = accountIn(ledger, params);
    const flags = root.Flags ?? 0;
    const signerList = ledger.entry(signerListKey(root.Account), which);
    const lists = signerList ? [{ ...signerList }] : [];
    return {
      // API v1 puts signer_lists inside account_data; v2 beside it (rippled's AccountInfo.cpp).
      account_data: { ...root, ...(params.signer_lists && apiVersion < 2 ? { signer_lists: lists } : {}) },
      account_flags: {
        allowTrustLineClawback: false,
        defaultRipple: (flags & LSF.defaultRipple) !== 0,
        depositAuth: (flags & LSF.depositAuth) !== 0,
        disableMasterKey: (flags & LSF.disableMaster) !== 0,
        disallowIncomingCheck: false,
        disallowIncomingNFTokenOffer: false,
        disallowIncomingPayChan: false,
        disallowIncomingTrustline: false,
        disallowIncomingXRP: (flags & LSF.disallowXRP) !== 0,
        globalFreeze: false,
        noFreeze: false,
        passwordSpent: false,
        requireAuthorization: false,
        requireDestinationTag: (flags & LSF.requireDestTag) !== 0,
      },
      ...(params.signer_lists && apiVersion >= 2 ? { signer_lists: lists } : {}),
      ...ledgerFields(ledger, which),
    };
  },

  account_lines(params, { ledger }) {
    const { account, which } = accountIn(ledger, params);
    const peer = params.peer === undefined ? undefined : requireAccount(params, "peer");
    let lines = ledger.ownedEntries(account, which).filter((e) => e.LedgerEntryType === "RippleState");
    if (peer) lines = lines.filter((line) => line.LowLimit.issuer === peer || line.HighLimit.issuer === peer);
    if (params.ignore_default) lines = lines.filter((line) => (line.Flags ?? 0) & (line.LowLimit.issuer === account ? LSF.lowReserve : LSF.highReserve));
    const limit = limitOf(params, 200);
    const p = page(lines, (e) => e.index, params.marker, limit);
    return { account, lines: p.items.map((line) => lineJson(line, account)), ...ledgerFields(ledger, which), ...(p.marker ? { limit, marker: p.marker } : {}) };
  },

  account_nfts(params, { ledger }) {
    const { account, which } = accountIn(ledger, params);
    const tokens = accountTokens(ledger, account, which);
    const limit = limitOf(params, 100);
    const start = typeof params.marker === "string" ? tokens.findIndex((t) => t.NFTokenID === params.marker.toUpperCase()) + 1 : 0;
    const slice = tokens.slice(start, start + limit);
    const more = tokens.length > start + limit;
    return { account, account_nfts: slice.map((t) => nftJson(t.NFTokenID, t.URI)), ...ledgerFields(ledger, which), limit, ...(more ? { marker: slice[slice.length - 1]!.NFTokenID } : {}) };
  },

  account_objects(params, { ledger }) {
    const { account, which } = accountIn(ledger, params);
    // A SignerList names no owner: it is found by its key, derived from the account.
    const signerList = ledger.entry(signerListKey(account), which);
    let objects = [...ledger.ownedEntries(account, which), ...(signerList ? [signerList] : [])].sort((a, b) => (a.index < b.index ? -1 : 1));
    if (params.type !== undefined) {
      const type = typeof params.type === "string" && Object.hasOwn(OBJECT_TYPES, params.type) ? OBJECT_TYPES[params.type] : undefined;
      if (!type && !(typeof params.type === "string" && EMPTY_TYPES.has(params.type))) throw new RpcError("invalidParams", "Invalid field 'type'.");
      objects = type ? objects.filter((e) => e.LedgerEntryType === type) : [];
    }
    if (params.deletion_blockers_only) objects = objects.filter((e) => DELETION_BLOCKERS.has(e.LedgerEntryType));
    const limit = limitOf(params, 200);
    const p = page(objects, (e) => e.index, params.marker, limit);
    // rippled reports limit only with a marker or when the request set one.
    return { account, account_objects: p.items, ...ledgerFields(ledger, which), ...(p.marker || params.limit !== undefined ? { limit } : {}), ...(p.marker ? { marker: p.marker } : {}) };
  },

  account_offers(params, { ledger }) {
    const { account, which } = accountIn(ledger, params);
    const offers = ledger.ownedEntries(account, which).filter((e) => e.LedgerEntryType === "Offer");
    const limit = limitOf(params, 200);
    const p = page(offers, (e) => e.index, params.marker, limit);
    return {
      account,
      offers: p.items.map((o) => ({
        flags: o.Flags ?? 0,
        quality: offerQuality(o),
        seq: o.Sequence,
        taker_gets: o.TakerGets,
        taker_pays: o.TakerPays,
        ...(o.Expiration !== undefined ? { expiration: o.Expiration } : {}),
      })),
      ...ledgerFields(ledger, which),
      ...(p.marker ? { limit, marker: p.marker } : {}),
    };
  },

  account_currencies(params, { ledger }) {
    const { account, which } = accountIn(ledger, params);
    const send = new Set<string>();
    const receive = new Set<string>();
    for (const line of ledger.ownedEntries(account, which).filter((e) => e.LedgerEntryType === "RippleState")) {
      const balance = lineBalance(line, account);
      if (balance.lt(lineLimit(line, account))) receive.add(line.Balance.currency);
      const peer = line.LowLimit.issuer === account ? line.HighLimit.issuer : line.LowLimit.issuer;
      if (balance.negate().lt(lineLimit(line, peer))) send.add(line.Balance.currency);
    }
    return { receive_currencies: [...receive].sort(), send_currencies: [...send].sort(), ...ledgerFields(ledger, which) };
  },
};

/** An offer's quality (TakerPays / TakerGets, XRP in drops) as rippled prints it in account_offers and book_offers. */
export function offerQuality(offer: Entry): string {
  const q = BigInt(`0x${(offer.BookDirectory as string).slice(48)}`);
  const exponent = Number(q >> 56n) - 100;
  const mantissa = q & 0x00ffffffffffffffn;
  return formatQuality(mantissa, exponent);
}

function formatQuality(mantissa: bigint, exponent: number): string {
  if (mantissa === 0n) return "0";
  let m = mantissa;
  let e = exponent;
  while (m % 10n === 0n) {
    m /= 10n;
    e += 1;
  }
  const digits = m.toString();
  if (e >= 0) return digits + "0".repeat(e);
  const point = digits.length + e;
  return point > 0 ? `${digits.slice(0, point)}.${digits.slice(point)}` : `0.${"0".repeat(-point)}${digits}`;
}
