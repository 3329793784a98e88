import { createHash } from "node:crypto";
import { encode, encodeNodePublic, isValidClassicAddress, parseNFTokenID } from "xrpl";
import { FEES, LSF, lineBalance, lineLimit } from "./apply/common";
import { RPC_ERRORS, RpcError, engineResult } from "./codes";
import { accountKey, ammKey, trustLineKey } from "./keys";
import { RIPPLE_EPOCH_OFFSET, formatTxJson, rippleTimeIso, validatedTxFields, type LedgerSelector, type SandboxLedger, type Subscriber } from "./ledger";
import type { LedgerHeader, StoredTx } from "./state";
import type { Entry } from "./view";

type Params = Record<string, any>;

/** A client connection's state that RPC methods may read or change. */
export interface Connection {
  subscriber: Subscriber;
}

/** What a resolved ledger_index/ledger_hash points at. */
type Resolved = { kind: "state"; which: LedgerSelector } | { kind: "history"; header: LedgerHeader };

const BUILD_VERSION = "2.4.0";
const STREAMS = new Set(["ledger", "transactions", "transactions_proposed", "server"]);
const KNOWN_UNSUPPORTED_STREAMS = new Set(["validations", "manifests", "peer_status", "consensus", "book_changes"]);
/** account_objects `type` filter names and the ledger entry types they select. */
const OBJECT_TYPES: Record<string, string> = { state: "RippleState", nft_offer: "NFTokenOffer", nft_page: "NFTokenPage", amm: "AMM" };

function humanTime(rippleTime: number): string {
  const d = new Date((rippleTime + RIPPLE_EPOCH_OFFSET) * 1000);
  const month = d.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}-${month}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.000000000 UTC`;
}

function requireAccount(params: Params, field = "account"): string {
  const value = params[field];
  if (value === undefined) throw new RpcError("invalidParams", `Missing field '${field}'.`);
  if (typeof value !== "string" || !isValidClassicAddress(value)) throw new RpcError("actMalformed");
  return value;
}

function limitOf(params: Params, fallback: number): number {
  if (params.limit === undefined) return fallback;
  if (!Number.isInteger(params.limit) || params.limit < 1) throw new RpcError("invalidParams", "Invalid field 'limit', not unsigned integer.");
  return Math.min(params.limit, 400);
}

/**
 * rippled's JSON methods over the sandbox ledger. Each returns the `result`
 * object or throws RpcError; `dispatch` wraps both in rippled's envelopes.
 */
export class LedgerRpc {
  private readonly nodeKey: string;

  constructor(readonly ledger: SandboxLedger) {
    const key = createHash("sha256").update(`node:${ledger.wallets.issuer.address}`).digest();
    this.nodeKey = encodeNodePublic(Uint8Array.from([0x02, ...key]));
  }

  /** Handles one request object and returns the whole response envelope. */
  dispatch(request: Params, conn: Connection): Record<string, unknown> {
    const apiVersion = typeof request.api_version === "number" ? request.api_version : 1;
    const envelope = (body: Record<string, unknown>) => ({ ...(request.id !== undefined ? { id: request.id } : {}), ...body, type: "response", ...(request.api_version !== undefined ? { api_version: apiVersion } : {}) });
    try {
      if (apiVersion < 1 || apiVersion > 2) throw new RpcError("invalidParams", "Invalid API version.");
      const command = request.command ?? request.method;
      if (command === undefined) throw new RpcError("missingCommand");
      const method = typeof command === "string" && Object.hasOwn(METHODS, command) ? METHODS[command] : undefined;
      if (!method) throw new RpcError("unknownCmd");
      const result = method.call(this, request, { conn, apiVersion });
      return envelope({ result, status: "success" });
    } catch (err) {
      if (err instanceof RpcError) {
        const { id: _id, ...echo } = request;
        if (err.error === "invalidTransaction") {
          return envelope({ error: "invalidTransaction", error_exception: err.exception, error_message: err.exception, request: echo, status: "error" });
        }
        return envelope({ error: err.error, error_code: RPC_ERRORS[err.error][0], error_message: err.message, request: echo, status: "error" });
      }
      throw err;
    }
  }

  // ---- ledger selection --------------------------------------------------------

  resolve(params: Params, fallback: "current" | "validated" = "current"): Resolved {
    const l = this.ledger;
    if (params.ledger_hash !== undefined) {
      if (typeof params.ledger_hash !== "string" || !/^[0-9A-Fa-f]{64}$/.test(params.ledger_hash)) throw new RpcError("invalidParams", "ledgerHashMalformed");
      const header = l.store.ledgerByHash(params.ledger_hash);
      if (!header) throw new RpcError("lgrNotFound");
      return header.ledger_index === l.validatedIndex ? { kind: "state", which: "validated" } : { kind: "history", header };
    }
    const raw = params.ledger_index ?? fallback;
    if (raw === "current") return { kind: "state", which: "current" };
    if (raw === "validated" || raw === "closed") return { kind: "state", which: "validated" };
    const index = typeof raw === "number" ? raw : typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(index)) throw new RpcError("lgrIdxMalformed");
    if (index === l.openIndex) return { kind: "state", which: "current" };
    if (index === l.validatedIndex) return { kind: "state", which: "validated" };
    const header = l.store.ledger(index);
    if (!header) throw new RpcError("lgrNotFound");
    return { kind: "history", header };
  }

  /** Account state exists only for the open and the last validated ledger (the sandbox keeps no older state). */
  stateLedger(params: Params): LedgerSelector {
    const resolved = this.resolve(params);
    if (resolved.kind === "history") throw new RpcError("lgrNotFound", "ledgerNotFound");
    return resolved.which;
  }

  ledgerFields(which: LedgerSelector) {
    const l = this.ledger;
    return which === "current"
      ? { ledger_current_index: l.openIndex, validated: false }
      : { ledger_hash: l.lastClosed.ledger_hash, ledger_index: l.validatedIndex, validated: true };
  }

  serverInfo() {
    const l = this.ledger;
    const last = l.lastClosed;
    const now = new Date();
    return {
      build_version: BUILD_VERSION,
      complete_ledgers: `${l.firstIndex}-${l.validatedIndex}`,
      hostid: "VVX-SANDBOX",
      initial_sync_duration_us: "0",
      io_latency_ms: 1,
      jq_trans_overflow: "0",
      last_close: { converge_time_s: 0, proposers: 0 },
      load_factor: 1,
      peer_disconnects: "0",
      peer_disconnects_resources: "0",
      peers: 0,
      pubkey_node: this.nodeKey,
      server_state: "full",
      server_state_duration_us: String((Date.now() - l.startedAt) * 1000),
      time: `${now.getUTCFullYear()}-${now.toLocaleString("en-US", { month: "short", timeZone: "UTC" })}-${String(now.getUTCDate()).padStart(2, "0")} ${now.toISOString().slice(11, 23)}000 UTC`,
      uptime: Math.floor((Date.now() - l.startedAt) / 1000),
      validated_ledger: {
        age: Math.max(0, Math.floor(Date.now() / 1000) - (last.close_time + RIPPLE_EPOCH_OFFSET)),
        base_fee_xrp: Number(FEES.baseFee) / 1e6,
        hash: last.ledger_hash,
        reserve_base_xrp: Number(FEES.reserveBase) / 1e6,
        reserve_inc_xrp: Number(FEES.reserveIncrement) / 1e6,
        seq: last.ledger_index,
      },
      validation_quorum: 0,
    };
  }

  ledgerObject(header: LedgerHeader, params: Params, apiVersion: number) {
    const out: Record<string, unknown> = {
      account_hash: header.account_hash,
      close_flags: header.close_flags,
      close_time: header.close_time,
      close_time_human: humanTime(header.close_time),
      close_time_iso: rippleTimeIso(header.close_time),
      close_time_resolution: header.close_time_resolution,
      closed: true,
      ledger_hash: header.ledger_hash,
      ledger_index: apiVersion >= 2 ? header.ledger_index : String(header.ledger_index),
      parent_close_time: header.parent_close_time,
      parent_hash: header.parent_hash,
      total_coins: header.total_coins,
      transaction_hash: header.transaction_hash,
    };
    if (params.transactions) {
      const txs = this.ledger.store.ledgerTxs(header.ledger_index);
      out.transactions = params.expand ? txs.map((t) => this.txFields(t, header, apiVersion, params.binary)) : txs.map((t) => t.hash);
    }
    return out;
  }

  txFields(tx: StoredTx, header: LedgerHeader, apiVersion: number, binary = false) {
    if (binary) {
      const { delivered_amount: _d, nftoken_id: _n, nftoken_ids: _ns, offer_id: _o, ...meta } = tx.meta;
      return { hash: tx.hash, ledger_index: header.ledger_index, [apiVersion >= 2 ? "meta_blob" : "meta"]: encode(meta as never), tx_blob: tx.tx_blob, validated: true };
    }
    return validatedTxFields(tx, header, apiVersion);
  }

  lineJson(line: Entry, account: string) {
    const peerIsLow = line.LowLimit.issuer !== account;
    const peer = peerIsLow ? line.LowLimit.issuer : line.HighLimit.issuer;
    const ownNoRipple = peerIsLow ? LSF.highNoRipple : LSF.lowNoRipple;
    const peerNoRipple = peerIsLow ? LSF.lowNoRipple : LSF.highNoRipple;
    return {
      account: peer,
      balance: lineBalance(line, account).toString(),
      currency: line.Balance.currency,
      limit: lineLimit(line, account).toString(),
      limit_peer: lineLimit(line, peer).toString(),
      no_ripple: ((line.Flags ?? 0) & ownNoRipple) !== 0,
      no_ripple_peer: ((line.Flags ?? 0) & peerNoRipple) !== 0,
      quality_in: 0,
      quality_out: 0,
    };
  }

  nftJson(id: string, uri?: string) {
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

  /** The account's NFTs in page order. */
  accountTokens(account: string, which: LedgerSelector): { NFTokenID: string; URI?: string }[] {
    return this.ledger
      .ownedEntries(account, which)
      .filter((e) => e.LedgerEntryType === "NFTokenPage")
      .flatMap((p) => (p.NFTokens as { NFToken: { NFTokenID: string; URI?: string } }[]).map((t) => t.NFToken));
  }
}

interface CallContext {
  conn: Connection;
  apiVersion: number;
}

type Method = (this: LedgerRpc, params: Params, call: CallContext) => Record<string, unknown>;

function parseIssue(value: unknown, field: string): { currency: string; issuer?: string } {
  if (!value || typeof value !== "object") throw new RpcError("invalidParams", `Missing field '${field}'.`);
  const { currency, issuer } = value as Params;
  if (currency === "XRP" && issuer === undefined) return { currency };
  if (typeof currency !== "string" || typeof issuer !== "string" || !isValidClassicAddress(issuer)) throw new RpcError("invalidParams", `Invalid field '${field}'.`);
  return { currency, issuer };
}

function offersResult(this: LedgerRpc, params: Params, sell: boolean) {
  const id = params.nft_id;
  if (typeof id !== "string" || !/^[0-9A-Fa-f]{64}$/.test(id)) throw new RpcError("invalidParams", "Missing field 'nft_id'.");
  const which = this.stateLedger(params);
  const offers = this.ledger.nftOffers(id, which).filter((o) => (((o.Flags ?? 0) & LSF.sellNFToken) !== 0) === sell);
  if (!offers.length) throw new RpcError("objectNotFound");
  const limit = limitOf(params, 250);
  const start = typeof params.marker === "string" ? offers.findIndex((o) => o.index === params.marker) : 0;
  const page = offers.slice(Math.max(0, start), Math.max(0, start) + limit);
  const next = offers[Math.max(0, start) + limit];
  return {
    nft_id: id.toUpperCase(),
    offers: page.map((o) => ({
      amount: o.Amount,
      flags: o.Flags ?? 0,
      nft_offer_index: o.index,
      owner: o.Owner,
      ...(o.Destination ? { destination: o.Destination } : {}),
      ...(o.Expiration !== undefined ? { expiration: o.Expiration } : {}),
    })),
    ...(next ? { limit, marker: next.index } : {}),
  };
}

const METHODS: Record<string, Method> = {
  ping() {
    return {};
  },

  server_info() {
    return { info: this.serverInfo() };
  },

  server_state() {
    const info = this.serverInfo();
    const last = this.ledger.lastClosed;
    const { validated_ledger: _v, load_factor: _l, ...rest } = info;
    return {
      state: {
        ...rest,
        load_base: 256,
        load_factor: 256,
        load_factor_fee_escalation: 256,
        load_factor_fee_queue: 256,
        load_factor_fee_reference: 256,
        load_factor_server: 256,
        validated_ledger: {
          base_fee: Number(FEES.baseFee),
          close_time: last.close_time,
          hash: last.ledger_hash,
          reserve_base: Number(FEES.reserveBase),
          reserve_inc: Number(FEES.reserveIncrement),
          seq: last.ledger_index,
        },
      },
    };
  },

  fee() {
    const l = this.ledger;
    const base = FEES.baseFee.toString();
    return {
      current_ledger_size: String(l.openTransactions.length),
      current_queue_size: "0",
      drops: { base_fee: base, median_fee: "5000", minimum_fee: base, open_ledger_fee: base },
      expected_ledger_size: "1000",
      ledger_current_index: l.openIndex,
      levels: { median_level: "128000", minimum_level: "256", open_ledger_level: "256", reference_level: "256" },
      max_queue_size: "20000",
    };
  },

  ledger_current() {
    return { ledger_current_index: this.ledger.openIndex };
  },

  ledger_closed() {
    const last = this.ledger.lastClosed;
    return { ledger_hash: last.ledger_hash, ledger_index: last.ledger_index };
  },

  ledger(params, { apiVersion }) {
    const l = this.ledger;
    const resolved = this.resolve(params);
    if (resolved.kind === "state" && resolved.which === "current") {
      const ledger: Record<string, unknown> = {
        closed: false,
        ledger_index: apiVersion >= 2 ? l.openIndex : String(l.openIndex),
        parent_close_time: l.lastClosed.close_time,
        parent_hash: l.lastClosed.ledger_hash,
        total_coins: l.lastClosed.total_coins,
      };
      if (params.transactions) {
        ledger.transactions = params.expand
          ? l.openTransactions.map((t) => (apiVersion >= 2 ? { hash: t.hash, meta: t.meta, tx_json: formatTxJson(t.tx_json, apiVersion) } : { ...formatTxJson(t.tx_json, apiVersion), hash: t.hash, metaData: t.meta }))
          : l.openTransactions.map((t) => t.hash);
      }
      return { ledger, ledger_current_index: l.openIndex, validated: false };
    }
    const header = resolved.kind === "history" ? resolved.header : l.lastClosed;
    return { ledger: this.ledgerObject(header, params, apiVersion), ledger_hash: header.ledger_hash, ledger_index: header.ledger_index, validated: true };
  },

  account_info(params) {
    const l = this.ledger;
    const account = requireAccount(params);
    const which = this.stateLedger(params);
    const root = l.accountRoot(account, which);
    if (!root) throw new RpcError("actNotFound");
    const flags = root.Flags ?? 0;
    return {
      account_data: { ...root },
      account_flags: {
        defaultRipple: (flags & LSF.defaultRipple) !== 0,
        depositAuth: (flags & LSF.depositAuth) !== 0,
        disableMasterKey: (flags & LSF.disableMaster) !== 0,
        disallowIncomingXRP: (flags & LSF.disallowXRP) !== 0,
        globalFreeze: false,
        noFreeze: false,
        passwordSpent: false,
        requireAuthorization: false,
        requireDestinationTag: (flags & LSF.requireDestTag) !== 0,
      },
      ...(params.signer_lists ? { signer_lists: [] } : {}),
      ...this.ledgerFields(which),
    };
  },

  account_lines(params) {
    const l = this.ledger;
    const account = requireAccount(params);
    const which = this.stateLedger(params);
    if (!l.accountRoot(account, which)) throw new RpcError("actNotFound");
    const peer = params.peer === undefined ? undefined : requireAccount(params, "peer");
    let lines = l.ownedEntries(account, which).filter((e) => e.LedgerEntryType === "RippleState");
    if (peer) lines = lines.filter((line) => line.LowLimit.issuer === peer || line.HighLimit.issuer === peer);
    const limit = limitOf(params, 200);
    const start = typeof params.marker === "string" ? Math.max(0, lines.findIndex((e) => e.index === params.marker)) : 0;
    const page = lines.slice(start, start + limit);
    const next = lines[start + limit];
    return { account, lines: page.map((line) => this.lineJson(line, account)), ...this.ledgerFields(which), ...(next ? { limit, marker: next.index } : {}) };
  },

  account_nfts(params) {
    const l = this.ledger;
    const account = requireAccount(params);
    const which = this.stateLedger(params);
    if (!l.accountRoot(account, which)) throw new RpcError("actNotFound");
    const tokens = this.accountTokens(account, which);
    const limit = limitOf(params, 100);
    const start = typeof params.marker === "string" ? tokens.findIndex((t) => t.NFTokenID === params.marker.toUpperCase()) + 1 : 0;
    const page = tokens.slice(start, start + limit);
    const more = tokens.length > start + limit;
    return {
      account,
      account_nfts: page.map((t) => this.nftJson(t.NFTokenID, t.URI)),
      ...this.ledgerFields(which),
      limit,
      ...(more ? { marker: page[page.length - 1]!.NFTokenID } : {}),
    };
  },

  account_objects(params) {
    const l = this.ledger;
    const account = requireAccount(params);
    const which = this.stateLedger(params);
    if (!l.accountRoot(account, which)) throw new RpcError("actNotFound");
    let objects = l.ownedEntries(account, which);
    if (params.type !== undefined) {
      const type = OBJECT_TYPES[params.type];
      if (!type) {
        if (typeof params.type === "string" && ["check", "deposit_preauth", "escrow", "offer", "payment_channel", "signer_list", "ticket", "did", "oracle"].includes(params.type)) objects = [];
        else throw new RpcError("invalidParams", "Invalid field 'type'.");
      } else objects = objects.filter((e) => e.LedgerEntryType === type);
    }
    if (params.deletion_blockers_only) objects = objects.filter((e) => e.LedgerEntryType !== "AMM");
    const limit = limitOf(params, 200);
    const start = typeof params.marker === "string" ? Math.max(0, objects.findIndex((e) => e.index === params.marker)) : 0;
    const page = objects.slice(start, start + limit);
    const next = objects[start + limit];
    return { account, account_objects: page, ...this.ledgerFields(which), limit, ...(next ? { marker: next.index } : {}) };
  },

  account_tx(params, { apiVersion }) {
    const l = this.ledger;
    const account = requireAccount(params);
    let min = l.firstIndex;
    let max = l.validatedIndex;
    if (params.ledger_index !== undefined || params.ledger_hash !== undefined) {
      const resolved = this.resolve(params, "validated");
      if (resolved.kind === "state" && resolved.which === "current") throw new RpcError("lgrNotValidated");
      min = max = resolved.kind === "history" ? resolved.header.ledger_index : l.validatedIndex;
    } else {
      if (params.ledger_index_min !== undefined && params.ledger_index_min !== -1) {
        if (!Number.isInteger(params.ledger_index_min)) throw new RpcError("lgrIdxMalformed");
        min = Math.max(min, params.ledger_index_min);
      }
      if (params.ledger_index_max !== undefined && params.ledger_index_max !== -1) {
        if (!Number.isInteger(params.ledger_index_max)) throw new RpcError("lgrIdxMalformed");
        max = Math.min(max, params.ledger_index_max);
      }
      // rippled (AccountTx.cpp): an empty range is lgrIdxsInvalid in API v1 and invalidLgrRange in v2.
      if (min > max) throw new RpcError(apiVersion >= 2 ? "invalidLgrRange" : "lgrIdxsInvalid");
    }
    if (params.binary === true && apiVersion < 1) throw new RpcError("notSupported");
    const forward = params.forward === true;
    const limit = limitOf(params, 200);
    let from: { ledger: number; seq: number } | undefined;
    if (params.marker !== undefined) {
      const m = params.marker;
      if (!m || typeof m !== "object" || !Number.isInteger(m.ledger) || !Number.isInteger(m.seq)) throw new RpcError("invalidParams", "Invalid field 'marker'.");
      from = { ledger: m.ledger, seq: m.seq };
    }
    const rows = l.store.accountTxs(account, min, max, forward, limit + 1, from);
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const headers = new Map<number, LedgerHeader>();
    const headerOf = (i: number) => headers.get(i) ?? headers.set(i, l.store.ledger(i)!).get(i)!;
    const nextRow = more ? rows[limit]! : undefined;
    return {
      account,
      ledger_index_max: max,
      ledger_index_min: min,
      limit,
      ...(nextRow ? { marker: { ledger: nextRow.ledger_index, seq: nextRow.tx_index } } : {}),
      transactions: page.map((t) => this.txFields(t, headerOf(t.ledger_index), apiVersion, params.binary === true)),
      validated: true,
    };
  },

  tx(params, { apiVersion }) {
    const l = this.ledger;
    const hash = params.transaction ?? params.tx_hash;
    if (typeof hash !== "string" || !/^[0-9A-Fa-f]{64}$/.test(hash)) throw new RpcError("invalidParams", "Invalid field 'transaction'.");
    const stored = l.store.tx(hash);
    if (stored) return this.txFields(stored, l.store.ledger(stored.ledger_index)!, apiVersion, params.binary === true);
    const open = l.openTx(hash);
    if (open) {
      return apiVersion >= 2
        ? { hash: open.hash, ledger_index: l.openIndex, tx_json: formatTxJson(open.tx_json, apiVersion), validated: false }
        : { ...formatTxJson(open.tx_json, apiVersion), hash: open.hash, ledger_index: l.openIndex, validated: false };
    }
    throw new RpcError("txnNotFound");
  },

  submit(params, { apiVersion }) {
    const l = this.ledger;
    if (typeof params.tx_blob !== "string") {
      if (params.tx_json !== undefined) throw new RpcError("notSupported", "Signing is not supported by this server. Sign locally and submit tx_blob.");
      throw new RpcError("invalidParams", "Missing field 'tx_blob'.");
    }
    if (!/^[0-9A-Fa-f]+$/.test(params.tx_blob)) throw new RpcError("invalidTransaction", undefined, "fails local checks: Invalid hex in tx_blob.");
    const outcome = l.submit(params.tx_blob);
    const root = l.accountRoot(outcome.tx.Account, "current");
    return {
      accepted: outcome.applied || outcome.kept,
      account_sequence_available: root?.Sequence ?? 0,
      account_sequence_next: root?.Sequence ?? 0,
      applied: outcome.applied,
      broadcast: outcome.applied,
      ...engineResult(outcome.result),
      kept: outcome.kept,
      open_ledger_cost: FEES.baseFee.toString(),
      queued: false,
      tx_blob: params.tx_blob.toUpperCase(),
      tx_json: { ...formatTxJson(outcome.tx, apiVersion), hash: outcome.hash },
      validated_ledger_index: l.validatedIndex,
    };
  },

  ledger_entry(params) {
    const l = this.ledger;
    const which = this.stateLedger(params);
    let key: string;
    if (typeof params.index === "string" || typeof params.nft_page === "string") {
      key = String(params.index ?? params.nft_page);
      if (!/^[0-9A-Fa-f]{64}$/.test(key)) throw new RpcError("invalidParams", "Malformed index.");
      key = key.toUpperCase();
    } else if (params.account_root !== undefined) {
      key = accountKey(requireAccount(params, "account_root"));
    } else if (params.ripple_state !== undefined) {
      const { accounts, currency } = params.ripple_state ?? {};
      if (!Array.isArray(accounts) || accounts.length !== 2 || !accounts.every((a) => typeof a === "string" && isValidClassicAddress(a)) || typeof currency !== "string") {
        throw new RpcError("invalidParams", "Malformed request.");
      }
      key = trustLineKey(accounts[0], accounts[1], currency);
    } else if (params.amm !== undefined) {
      key = ammKey(parseIssue(params.amm?.asset, "asset"), parseIssue(params.amm?.asset2, "asset2"));
    } else {
      throw new RpcError("invalidParams", "No ledger_entry params provided.");
    }
    const entry = l.entry(key, which);
    if (!entry) throw new RpcError("entryNotFound");
    const { index: _i, ...fields } = entry;
    const node = params.binary ? { node_binary: encode(fields as never) } : { node: entry };
    return { index: key, ...this.ledgerFields(which), ...node };
  },

  nft_sell_offers(params) {
    return offersResult.call(this, params, true);
  },

  nft_buy_offers(params) {
    return offersResult.call(this, params, false);
  },

  amm_info(params) {
    const l = this.ledger;
    const which = this.stateLedger(params);
    let amm: Entry | undefined;
    let order: "asset-first" | "asset2-first" = "asset-first";
    if (params.amm_account !== undefined) {
      const address = requireAccount(params, "amm_account");
      const root = l.accountRoot(address, which);
      amm = root?.AMMID ? l.entry(root.AMMID, which) : undefined;
    } else {
      const asset = parseIssue(params.asset, "asset");
      const asset2 = parseIssue(params.asset2, "asset2");
      amm = l.entry(ammKey(asset, asset2), which);
      if (amm && asset.currency !== "XRP") order = "asset2-first";
    }
    if (!amm) throw new RpcError("actNotFound");
    const ammAccount: string = amm.Account;
    const root = l.accountRoot(ammAccount, which)!;
    const iouLine = l.ownedEntries(ammAccount, which).find((e) => e.LedgerEntryType === "RippleState" && e.Balance.currency === amm!.Asset2.currency);
    const xrpAmount = root.Balance as string;
    const iouAmount = { currency: amm.Asset2.currency, issuer: amm.Asset2.issuer, value: iouLine ? lineBalance(iouLine, ammAccount).toString() : "0" };
    const [amount, amount2] = order === "asset-first" ? [xrpAmount, iouAmount] : [iouAmount, xrpAmount];
    const slot = amm.AuctionSlot;
    return {
      amm: {
        account: ammAccount,
        amount,
        amount2,
        asset2_frozen: false,
        auction_slot: slot
          ? { account: slot.Account, discounted_fee: slot.DiscountedFee ?? 0, expiration: rippleTimeIso(slot.Expiration), price: slot.Price, time_interval: 0 }
          : undefined,
        lp_token: amm.LPTokenBalance,
        trading_fee: amm.TradingFee ?? 0,
        vote_slots: (amm.VoteSlots ?? []).map((v: { VoteEntry: Params }) => ({ account: v.VoteEntry.Account, trading_fee: v.VoteEntry.TradingFee ?? 0, vote_weight: v.VoteEntry.VoteWeight })),
      },
      ...this.ledgerFields(which),
    };
  },

  subscribe(params, { conn, apiVersion }) {
    const l = this.ledger;
    const streams = params.streams ?? [];
    const accounts = params.accounts ?? [];
    if (!Array.isArray(streams) || !Array.isArray(accounts)) throw new RpcError("invalidParams");
    for (const s of streams) {
      if (KNOWN_UNSUPPORTED_STREAMS.has(s)) throw new RpcError("notSupported", `The sandbox ledger has no '${s}' stream.`);
      if (!STREAMS.has(s)) throw new RpcError("malformedStream");
    }
    for (const a of accounts) if (typeof a !== "string" || !isValidClassicAddress(a)) throw new RpcError("actMalformed");
    if (params.books !== undefined || params.accounts_proposed !== undefined) throw new RpcError("notSupported", "Order book and proposed-account streams are not available in the sandbox.");
    const sub = conn.subscriber;
    sub.apiVersion = apiVersion;
    for (const s of streams) sub.streams.add(s === "transactions_proposed" ? "transactions" : s);
    for (const a of accounts) sub.accounts.add(a);
    l.addSubscriber(sub);
    return streams.includes("ledger") ? l.ledgerStreamFields() : {};
  },

  unsubscribe(params, { conn }) {
    const streams = params.streams ?? [];
    const accounts = params.accounts ?? [];
    if (!Array.isArray(streams) || !Array.isArray(accounts)) throw new RpcError("invalidParams");
    for (const s of streams) {
      if (!STREAMS.has(s) && !KNOWN_UNSUPPORTED_STREAMS.has(s)) throw new RpcError("malformedStream");
      conn.subscriber.streams.delete(s === "transactions_proposed" ? "transactions" : s);
    }
    for (const a of accounts) conn.subscriber.accounts.delete(a);
    return {};
  },
};

