import { createHash, createPublicKey, verify as nodeVerify, type KeyObject } from "node:crypto";
import { Wallet, decode, dropsToXrp, encode, encodeForSigning, hashes, verifyKeypairSignature, type SubmittableTransaction } from "xrpl";
import type { Logger } from "../../platform/log";
import { sandboxWallets, type SandboxWallets } from "../wallets";
import { applyTransaction } from "./apply";
import { FEES, lineBalance } from "./apply/common";
import { engineResult, isApplied, RpcError, type TerCode } from "./codes";
import { Iou } from "./iou";
import { GENESIS_SEED, accountKey, addressFromIdHex, trustLineKey } from "./keys";
import { transactionId, transactionTreeHash } from "./shamap";
import { SandboxStore, type FaucetAccount, type LedgerHeader, type StoredTx } from "./state";
import type { Entry, StateReader } from "./view";

/** Seconds between the Unix epoch and the Ripple epoch (2000-01-01). */
export const RIPPLE_EPOCH_OFFSET = 946_684_800;
/** rippled's genesis: 100 billion XRP in the master account. */
const GENESIS_DROPS = 100_000_000_000_000_000n;
const ZERO_HASH = "0".repeat(64);
/** Trust line limit the sandbox sets for VVX holders; below 10^11 so rippled prints it without an exponent. */
export const FAUCET_VVX_LIMIT = "10000000000";
/** Genesis figures: treasury and AMM pool (1 XRP = 1,185 VVX). */
export const GENESIS = {
  issuerXrp: 1_000n * 1_000_000n,
  treasuryXrp: 1_000_000n * 1_000_000n,
  treasuryVvx: "1000000000",
  ammProviderXrp: 200_000n * 1_000_000n,
  poolXrp: 100_000n * 1_000_000n,
  poolVvx: "118500000",
  poolTradingFee: 500,
} as const;
/** Future-sequence transactions kept per account, so a client cannot fill memory with gaps. */
const MAX_HELD_PER_ACCOUNT = 32;
/** Faucet default when POST /sandbox/api/accounts names no amount. */
export const DEFAULT_FAUCET_XRP = 1_000;

export type LedgerSelector = "current" | "validated";

/** A transaction applied to the open ledger, waiting for the close. */
interface OpenTx {
  hash: string;
  tx_json: Record<string, any>;
  tx_blob: string;
  meta: Record<string, any>;
  /** The metadata in binary, encoded when applied so the close only hashes. */
  metaBlob: string;
  accounts: string[];
}

/** A transaction with a future sequence, kept until the gap is filled or its LastLedgerSequence passes (rippled's held transactions). */
interface HeldTx {
  tx_blob: string;
  tx: Record<string, any>;
  hash: string;
}

/** One WebSocket client's subscriptions. */
export interface Subscriber {
  streams: Set<string>;
  accounts: Set<string>;
  apiVersion: number;
  send(message: string): void;
  close(): void;
}

export interface SubmitOutcome {
  result: TerCode;
  hash: string;
  tx: Record<string, any>;
  applied: boolean;
  kept: boolean;
}

export interface SandboxLedgerOptions {
  dataDir: string;
  seed: string;
  ledgerMs: number;
  currency: string;
  log: Logger;
  /** The product's clock (ms since the Unix epoch): close times follow it, so advancing it moves the ledger's time too. */
  now?: () => number;
}

export function rippleTimeNow(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000) - RIPPLE_EPOCH_OFFSET;
}

export function rippleTimeIso(rippleTime: number): string {
  return new Date((rippleTime + RIPPLE_EPOCH_OFFSET) * 1000).toISOString().replace(".000Z", "Z");
}

const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const ed25519Keys = new Map<string, KeyObject>();

/**
 * Checks a single signature over the signing data. Ed25519 keys (prefix ED)
 * use the runtime's native verifier, about twenty times faster than the
 * pure-JS one; secp256k1 keeps ripple-keypairs (which also insists on
 * canonical signatures, as rippled does).
 */
export function verifyTxSignature(signingHex: string, signatureHex: string, publicKeyHex: string): boolean {
  if (/^ED[0-9A-F]{64}$/i.test(publicKeyHex)) {
    let key = ed25519Keys.get(publicKeyHex);
    if (!key) {
      key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex.slice(2), "hex")]), format: "der", type: "spki" });
      if (ed25519Keys.size > 10_000) ed25519Keys.clear();
      ed25519Keys.set(publicKeyHex, key);
    }
    return nodeVerify(null, Buffer.from(signingHex, "hex"), key, Buffer.from(signatureHex, "hex"));
  }
  return verifyKeypairSignature(signingHex, signatureHex, publicKeyHex);
}

/** Accounts a transaction touches (rippled's affected accounts): its own fields and every object in its metadata. */
function affectedAccounts(tx: Record<string, any>, meta: Record<string, any>): string[] {
  const found = new Set<string>();
  for (const field of ["Account", "Destination", "Owner", "Issuer"]) if (typeof tx[field] === "string") found.add(tx[field]);
  for (const node of meta.AffectedNodes as Record<string, any>[]) {
    const inner = Object.values(node)[0] as Record<string, any>;
    for (const fields of [inner.FinalFields, inner.NewFields, inner.PreviousFields]) {
      if (!fields) continue;
      for (const field of ["Account", "Owner", "Destination"]) if (typeof fields[field] === "string") found.add(fields[field]);
      for (const field of ["LowLimit", "HighLimit"]) if (fields[field]?.issuer) found.add(fields[field].issuer);
    }
    if (inner.LedgerEntryType === "NFTokenPage") found.add(addressFromIdHex(inner.LedgerIndex.slice(0, 40)));
  }
  return [...found];
}

/** Which accounts list an object in account_objects / account_lines. */
function ownersOf(entry: Entry): string[] {
  switch (entry.LedgerEntryType) {
    case "RippleState":
      return [entry.LowLimit.issuer, entry.HighLimit.issuer];
    case "NFTokenOffer":
      return [entry.Owner];
    case "NFTokenPage":
      return [addressFromIdHex(entry.index.slice(0, 40))];
    case "AMM":
      return [entry.Account];
    default:
      return [];
  }
}

/** Metadata as it is hashed into the ledger: without the fields the API adds for readers. */
function binaryMeta(meta: Record<string, any>): Record<string, any> {
  const { delivered_amount: _d, nftoken_id: _n, nftoken_ids: _ns, offer_id: _o, ...rest } = meta;
  return rest;
}

/**
 * The sandbox XRP Ledger: state in memory (persisted at every close), an
 * open ledger that takes signed transactions, a close every `ledgerMs`, and
 * the rippled-style streams. RPC, the faucet and the explorer sit on top.
 */
export class SandboxLedger {
  /** Where the Elysia plugin serves the rippled WebSocket API. */
  readonly wsPath = "/sandbox/ledger";
  readonly wallets: SandboxWallets;
  readonly currency: string;
  readonly store: SandboxStore;
  readonly startedAt = Date.now();
  private readonly genesisWallet = Wallet.fromSeed(GENESIS_SEED);
  private readonly log: Logger;
  private readonly ledgerMs: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, Entry>();
  /** For every object changed in the open ledger, its value at the last close (undefined: it did not exist). */
  private readonly openOriginals = new Map<string, Entry | undefined>();
  private readonly owned = new Map<string, Set<string>>();
  private readonly offersByToken = new Map<string, Set<string>>();
  private readonly subscribers = new Set<Subscriber>();
  private held = new Map<string, HeldTx[]>();
  private openTxs: OpenTx[] = [];
  private last!: LedgerHeader;
  private timer?: ReturnType<typeof setInterval>;
  private closed = false;
  private first?: number;

  readonly current: StateReader = { get: (key) => this.entries.get(key) };
  readonly validatedState: StateReader = {
    get: (key) => (this.openOriginals.has(key) ? this.openOriginals.get(key) : this.entries.get(key)),
  };

  constructor(options: SandboxLedgerOptions) {
    this.log = options.log;
    this.ledgerMs = options.ledgerMs;
    this.now = options.now ?? Date.now;
    this.currency = options.currency;
    this.wallets = sandboxWallets(options.seed);
    this.store = new SandboxStore(options.dataDir);
    const seedMark = createHash("sha256").update(options.seed).digest("hex");
    const stored = this.store.lastLedger();
    if (stored) {
      if (this.store.setting("seed_sha256") !== seedMark) {
        this.store.close();
        throw new Error(`${this.store.path} was created with a different SANDBOX_SEED; use the same seed or another DATA_DIR`);
      }
      this.last = stored;
      for (const entry of this.store.loadEntries()) this.put(entry.index, entry);
    } else {
      this.store.setSetting("seed_sha256", seedMark);
      this.genesis();
    }
  }

  // ---- ledger sequence ------------------------------------------------------

  get validatedIndex(): number {
    return this.last.ledger_index;
  }
  get openIndex(): number {
    return this.last.ledger_index + 1;
  }
  get lastClosed(): LedgerHeader {
    return this.last;
  }
  /** The oldest ledger kept (history is never pruned, so it is fixed once read). */
  get firstIndex(): number {
    return (this.first ??= this.store.firstLedgerIndex() ?? 1);
  }
  get openTransactions(): readonly OpenTx[] {
    return this.openTxs;
  }

  reader(which: LedgerSelector): StateReader {
    return which === "current" ? this.current : this.validatedState;
  }

  /** Starts closing a ledger every `ledgerMs`. */
  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => {
      try {
        this.close();
      } catch (err) {
        this.log.error("sandbox ledger close failed", { error: err instanceof Error ? err.stack ?? err.message : String(err) });
      }
    }, this.ledgerMs);
  }

  /** First half of shutdown: no more closes, and every ledger socket is closed. */
  stopTimerAndSockets(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const sub of this.subscribers) sub.close();
    this.subscribers.clear();
  }

  /** Second half: validates what is still open (so nothing accepted is lost) and closes the database. */
  shutdown(): void {
    if (this.closed) return;
    this.stopTimerAndSockets();
    if (this.openTxs.length) this.close();
    this.closed = true;
    this.store.close();
  }

  // ---- state ------------------------------------------------------------------

  private put(key: string, entry: Entry | null): void {
    const old = this.entries.get(key);
    if (old) this.unindex(old);
    if (entry) {
      this.entries.set(key, entry);
      this.index(entry);
    } else this.entries.delete(key);
  }

  private index(entry: Entry): void {
    for (const owner of ownersOf(entry)) {
      let set = this.owned.get(owner);
      if (!set) this.owned.set(owner, (set = new Set()));
      set.add(entry.index);
    }
    if (entry.LedgerEntryType === "NFTokenOffer") {
      let set = this.offersByToken.get(entry.NFTokenID);
      if (!set) this.offersByToken.set(entry.NFTokenID, (set = new Set()));
      set.add(entry.index);
    }
  }

  private unindex(entry: Entry): void {
    for (const owner of ownersOf(entry)) this.owned.get(owner)?.delete(entry.index);
    if (entry.LedgerEntryType === "NFTokenOffer") this.offersByToken.get(entry.NFTokenID)?.delete(entry.index);
  }

  entry(key: string, which: LedgerSelector): Entry | undefined {
    return this.reader(which).get(key);
  }

  accountRoot(address: string, which: LedgerSelector): Entry | undefined {
    return this.entry(accountKey(address), which);
  }

  /** Objects an account owns or shares (trust lines, NFT pages, offers, AMM), in one ledger. */
  ownedEntries(address: string, which: LedgerSelector): Entry[] {
    const keys = new Set(this.owned.get(address) ?? []);
    if (which === "validated") {
      for (const [key, original] of this.openOriginals) if (original && ownersOf(original).includes(address)) keys.add(key);
    }
    const reader = this.reader(which);
    const result: Entry[] = [];
    for (const key of [...keys].sort()) {
      const entry = reader.get(key);
      if (entry && ownersOf(entry).includes(address)) result.push(entry);
    }
    return result;
  }

  nftOffers(nftokenId: string, which: LedgerSelector): Entry[] {
    const id = nftokenId.toUpperCase();
    const keys = new Set(this.offersByToken.get(id) ?? []);
    if (which === "validated") {
      for (const [key, original] of this.openOriginals) if (original?.LedgerEntryType === "NFTokenOffer" && original.NFTokenID === id) keys.add(key);
    }
    const reader = this.reader(which);
    return [...keys].sort().map((k) => reader.get(k)).filter((e): e is Entry => !!e && e.NFTokenID === id);
  }

  // ---- submission ---------------------------------------------------------------

  /**
   * Checks and applies a signed transaction blob to the open ledger, as
   * rippled's submit does. Throws RpcError("invalidTransaction") for blobs
   * that fail local checks (undecodable, bad signature), like rippled.
   */
  submit(txBlob: string): SubmitOutcome {
    if (this.closed) throw new RpcError("internal", "The sandbox ledger is shutting down.");
    let tx: Record<string, any>;
    try {
      tx = decode(txBlob) as Record<string, any>;
    } catch (err) {
      throw new RpcError("invalidTransaction", undefined, `fails local checks: ${err instanceof Error ? err.message : "cannot decode"}`);
    }
    if (typeof tx.TransactionType !== "string" || typeof tx.Account !== "string" || typeof tx.Sequence !== "number") {
      throw new RpcError("invalidTransaction", undefined, "fails local checks: Missing required field.");
    }
    if (!tx.Signers) {
      if (!tx.SigningPubKey) throw new RpcError("invalidTransaction", undefined, "fails local checks: Empty SigningPubKey.");
      let valid = false;
      try {
        valid = typeof tx.TxnSignature === "string" && verifyTxSignature(encodeForSigning(tx as never), tx.TxnSignature, tx.SigningPubKey);
      } catch {
        valid = false;
      }
      if (!valid) throw new RpcError("invalidTransaction", undefined, "fails local checks: Invalid signature.");
    }
    const hash = transactionId(txBlob);
    const txWithHash = { ...tx, hash };
    if (this.openTxs.some((t) => t.hash === hash)) return { result: "tefALREADY", hash, tx: txWithHash, applied: false, kept: false };
    const result = this.applyBlob(tx, txBlob, hash);
    if (result === "terPRE_SEQ") {
      const queue = this.held.get(tx.Account) ?? [];
      if (queue.some((h) => h.hash === hash)) return { result, hash, tx: txWithHash, applied: false, kept: true };
      if (queue.length >= MAX_HELD_PER_ACCOUNT) return { result, hash, tx: txWithHash, applied: false, kept: false };
      queue.push({ tx_blob: txBlob, tx, hash });
      this.held.set(tx.Account, queue);
      return { result, hash, tx: txWithHash, applied: false, kept: true };
    }
    if (isApplied(result)) this.releaseHeld(tx.Account);
    return { result, hash, tx: txWithHash, applied: isApplied(result), kept: isApplied(result) };
  }

  private applyBlob(tx: Record<string, any>, txBlob: string, hash: string): TerCode {
    const outcome = applyTransaction(
      this.current,
      tx,
      hash,
      { ledgerIndex: this.openIndex, parentHash: this.last.ledger_hash, parentCloseTime: this.last.close_time },
      (id) => [...(this.offersByToken.get(id) ?? [])],
    );
    if (!outcome.applied) return outcome.result;
    for (const [key, entry] of outcome.applied.writes) {
      if (!this.openOriginals.has(key)) this.openOriginals.set(key, this.entries.get(key));
      this.put(key, entry);
    }
    const meta = {
      AffectedNodes: outcome.applied.affectedNodes,
      TransactionIndex: this.openTxs.length,
      TransactionResult: outcome.result,
      ...outcome.applied.extraMeta,
    };
    this.openTxs.push({ hash, tx_json: tx, tx_blob: txBlob, meta, metaBlob: encode(binaryMeta(meta) as never), accounts: affectedAccounts(tx, meta) });
    return outcome.result;
  }

  /** Applies held transactions whose turn has come. */
  private releaseHeld(account: string): void {
    for (;;) {
      const queue = this.held.get(account);
      if (!queue?.length) return;
      const next = this.accountRoot(account, "current")?.Sequence;
      const i = queue.findIndex((h) => h.tx.Sequence === next);
      if (i < 0) return;
      const [held] = queue.splice(i, 1);
      const result = this.applyBlob(held!.tx, held!.tx_blob, held!.hash);
      if (!isApplied(result)) return;
    }
  }

  /** Signs and applies a transaction for one of the sandbox's own wallets (genesis and faucet). */
  private submitAs(wallet: Wallet, fields: Record<string, unknown>): string {
    const root = this.accountRoot(wallet.address, "current");
    if (!root) throw new Error(`sandbox account ${wallet.address} does not exist`);
    const tx = {
      Fee: fields.TransactionType === "AMMCreate" ? FEES.reserveIncrement.toString() : FEES.baseFee.toString(),
      Sequence: root.Sequence,
      LastLedgerSequence: this.openIndex + 20,
      Flags: 0,
      ...fields,
      Account: wallet.address,
    };
    const { tx_blob } = wallet.sign(tx as unknown as SubmittableTransaction);
    const outcome = this.submit(tx_blob);
    if (outcome.result !== "tesSUCCESS") throw new Error(`sandbox ${fields.TransactionType} failed: ${outcome.result}`);
    return outcome.hash;
  }

  private vvx(value: string) {
    return { currency: this.currency, issuer: this.wallets.issuer.address, value };
  }

  /** Ledger 1 holds the genesis account; ledger 2 sets up the issuer, treasury and the XRP/VVX pool with real transactions. */
  private genesis(): void {
    // Ledger 1 is the same on every install (close time 0, like rippled's genesis), so its hash, and the
    // AMM pool account derived from it, follow from SANDBOX_SEED alone.
    const closeTime = 0;
    const master = { LedgerEntryType: "AccountRoot", index: accountKey(this.genesisWallet.address), Account: this.genesisWallet.address, Balance: GENESIS_DROPS.toString(), Flags: 0, OwnerCount: 0, Sequence: 1 };
    const header: Omit<LedgerHeader, "ledger_hash"> = {
      ledger_index: 1,
      parent_hash: ZERO_HASH,
      account_hash: this.stateHash(ZERO_HASH, [[master.index, master]]),
      transaction_hash: ZERO_HASH,
      close_time: closeTime,
      parent_close_time: 0,
      close_time_resolution: 10,
      close_flags: 0,
      total_coins: GENESIS_DROPS.toString(),
      tx_count: 0,
    };
    this.last = { ...header, ledger_hash: hashes.hashLedgerHeader(header as never) };
    this.store.saveClose({ header: this.last, writes: [[master.index, master]], txs: [] });
    this.put(master.index, master);

    const { issuer, treasury, ammProvider } = this.wallets;
    const g = this.genesisWallet;
    this.submitAs(g, { TransactionType: "Payment", Destination: issuer.address, Amount: GENESIS.issuerXrp.toString() });
    this.submitAs(g, { TransactionType: "Payment", Destination: treasury.address, Amount: GENESIS.treasuryXrp.toString() });
    this.submitAs(g, { TransactionType: "Payment", Destination: ammProvider.address, Amount: GENESIS.ammProviderXrp.toString() });
    this.submitAs(issuer, { TransactionType: "AccountSet", SetFlag: 8 }); // asfDefaultRipple
    this.submitAs(treasury, { TransactionType: "TrustSet", LimitAmount: this.vvx(FAUCET_VVX_LIMIT) });
    this.submitAs(ammProvider, { TransactionType: "TrustSet", LimitAmount: this.vvx(FAUCET_VVX_LIMIT) });
    this.submitAs(issuer, { TransactionType: "Payment", Destination: treasury.address, Amount: this.vvx(GENESIS.treasuryVvx) });
    this.submitAs(issuer, { TransactionType: "Payment", Destination: ammProvider.address, Amount: this.vvx(GENESIS.poolVvx) });
    this.submitAs(ammProvider, {
      TransactionType: "AMMCreate",
      Amount: GENESIS.poolXrp.toString(),
      Amount2: this.vvx(GENESIS.poolVvx),
      TradingFee: GENESIS.poolTradingFee,
    });
    this.close();
    this.log.info("sandbox ledger genesis", { issuer: issuer.address, treasury: treasury.address, ledger: this.last.ledger_index });
  }

  // ---- closing ------------------------------------------------------------------

  /** A stand-in for the state tree hash: chains the previous hash with every object written in this ledger. */
  private stateHash(previous: string, writes: [string, Entry | null][]): string {
    const h = createHash("sha512").update(previous);
    for (const [key, entry] of [...writes].sort(([a], [b]) => (a < b ? -1 : 1))) h.update(key).update(entry ? JSON.stringify(entry) : "deleted");
    return h.digest("hex").slice(0, 64).toUpperCase();
  }

  /** Closes (and, in the sandbox, at once validates) the open ledger; returns its index. */
  close(): number {
    if (this.closed) throw new Error("sandbox ledger is shut down");
    const index = this.openIndex;
    const txs = this.openTxs;
    const writes: [string, Entry | null][] = [...this.openOriginals.keys()].map((k) => [k, this.entries.get(k) ?? null]);
    const feesBurnt = txs.reduce((sum, t) => sum + BigInt(t.tx_json.Fee), 0n);
    // Close times never go backwards; several ledgers may share a second when SANDBOX_LEDGER_MS < 1000.
    const closeTime = Math.max(rippleTimeNow(this.now()), this.last.close_time);
    const header: Omit<LedgerHeader, "ledger_hash"> = {
      ledger_index: index,
      parent_hash: this.last.ledger_hash,
      account_hash: this.stateHash(this.last.account_hash, writes),
      transaction_hash: transactionTreeHash(txs.map((t) => ({ hash: t.hash, txBlob: t.tx_blob, metaBlob: t.metaBlob }))),
      close_time: closeTime,
      parent_close_time: this.last.close_time,
      close_time_resolution: 10,
      close_flags: 0,
      total_coins: (BigInt(this.last.total_coins) - feesBurnt).toString(),
      tx_count: txs.length,
    };
    const closedHeader: LedgerHeader = { ...header, ledger_hash: hashes.hashLedgerHeader(header as never) };
    const stored = txs.map((t) => ({ hash: t.hash, ledger_index: index, tx_index: t.meta.TransactionIndex as number, tx_json: t.tx_json, meta: t.meta, tx_blob: t.tx_blob, accounts: t.accounts }));
    this.store.saveClose({ header: closedHeader, writes, txs: stored });

    this.last = closedHeader;
    this.openOriginals.clear();
    this.openTxs = [];
    this.expireHeld();
    this.publish(closedHeader, stored);
    return index;
  }

  private expireHeld(): void {
    for (const [account, queue] of this.held) {
      const alive = queue.filter((h) => h.tx.LastLedgerSequence === undefined || h.tx.LastLedgerSequence >= this.openIndex);
      if (alive.length) this.held.set(account, alive);
      else this.held.delete(account);
    }
  }

  // ---- streams ------------------------------------------------------------------

  /** Adds a client connection; it receives what its streams and accounts select. */
  addSubscriber(sub: Subscriber): void {
    this.subscribers.add(sub);
  }
  removeSubscriber(sub: Subscriber): void {
    this.subscribers.delete(sub);
  }

  /** The fields rippled's ledger stream (and a subscribe to it) reports. */
  ledgerStreamFields(header = this.last) {
    return {
      fee_base: Number(FEES.baseFee),
      ledger_hash: header.ledger_hash,
      ledger_index: header.ledger_index,
      ledger_time: header.close_time,
      reserve_base: Number(FEES.reserveBase),
      reserve_inc: Number(FEES.reserveIncrement),
      validated_ledgers: `${this.firstIndex}-${this.last.ledger_index}`,
    };
  }

  private publish(header: LedgerHeader, txs: (StoredTx & { accounts: string[] })[]): void {
    if (!this.subscribers.size) return;
    const ledgerMessage = JSON.stringify({ type: "ledgerClosed", ...this.ledgerStreamFields(header), txn_count: header.tx_count });
    for (const sub of this.subscribers) {
      if (sub.streams.has("ledger")) sub.send(ledgerMessage);
    }
    for (const tx of txs) {
      const cache = new Map<number, string>();
      for (const sub of this.subscribers) {
        const wanted = sub.streams.has("transactions") || tx.accounts.some((a) => sub.accounts.has(a));
        if (!wanted) continue;
        let message = cache.get(sub.apiVersion);
        if (!message) {
          message = JSON.stringify(transactionStreamMessage(tx, header, sub.apiVersion));
          cache.set(sub.apiVersion, message);
        }
        sub.send(message);
      }
    }
  }

  // ---- in-process API (sandbox wallet, faucet, tests) -------------------------------

  /**
   * Creates a funded account: XRP from the genesis account, and when `vvx` is
   * given a VVX trust line (limit 10,000,000,000) and that balance from the
   * issuer. Validates the ledger at once and returns the new account's seed.
   */
  async createAccount(options: { xrp?: number; vvx?: number } = {}): Promise<{ address: string; seed: string }> {
    const xrp = options.xrp ?? DEFAULT_FAUCET_XRP;
    const drops = BigInt(Math.round(xrp * 1_000_000));
    if (!Number.isFinite(xrp) || drops < FEES.reserveBase) throw new RangeError("xrp must be at least 1 (the base reserve)");
    if (options.vvx !== undefined && !(Number.isFinite(options.vvx) && options.vvx >= 0 && options.vvx <= Number(FAUCET_VVX_LIMIT))) {
      throw new RangeError(`vvx must be between 0 and ${FAUCET_VVX_LIMIT}`);
    }
    const wallet = Wallet.generate();
    this.submitAs(this.genesisWallet, { TransactionType: "Payment", Destination: wallet.address, Amount: drops.toString() });
    if (options.vvx !== undefined) {
      this.submitAs(wallet, { TransactionType: "TrustSet", LimitAmount: this.vvx(FAUCET_VVX_LIMIT), Flags: 0x00020000 }); // tfSetNoRipple, as wallets do
      if (options.vvx > 0) {
        const value = Iou.parse(String(options.vvx)).toString();
        this.submitAs(this.wallets.issuer, { TransactionType: "Payment", Destination: wallet.address, Amount: this.vvx(value) });
      }
    }
    this.store.addFaucetAccount({ address: wallet.address, seed: wallet.seed!, created: new Date().toISOString() });
    this.close();
    return { address: wallet.address, seed: wallet.seed! };
  }

  /** Faucet accounts with their seeds and current balances (XRP and VVX as decimal strings). */
  listAccounts(): { address: string; seed: string; xrp: string; vvx: string; created: string }[] {
    return this.store.faucetAccounts().map((a: FaucetAccount) => ({ ...a, ...this.balances(a.address, "current") }));
  }

  /** XRP and VVX balances of an account as decimal strings. */
  balances(address: string, which: LedgerSelector): { xrp: string; vvx: string } {
    const root = this.accountRoot(address, which);
    const line = this.entry(trustLineKey(address, this.wallets.issuer.address, this.currency), which);
    return {
      xrp: root ? String(dropsToXrp(root.Balance)) : "0",
      vvx: line ? lineBalance(line, address).toString() : "0",
    };
  }

  /** Closes the open ledger now (POST /sandbox/api/ledger/close); resolves to the validated ledger index. */
  async closeLedger(): Promise<number> {
    return this.close();
  }

  /** The open ledger's transaction, if the hash is there. */
  openTx(hash: string): OpenTx | undefined {
    const h = hash.toUpperCase();
    return this.openTxs.find((t) => t.hash === h);
  }
}

/** rippled's API v2 puts a Payment's Amount in tx_json as DeliverMax; v1 shows both. */
export function formatTxJson(tx: Record<string, any>, apiVersion: number): Record<string, any> {
  const out = { ...tx };
  if (tx.TransactionType === "Payment" && tx.Amount !== undefined) {
    out.DeliverMax = tx.Amount;
    if (apiVersion >= 2) delete out.Amount;
  }
  return out;
}

/** A validated transaction as the `transaction` stream, `tx` and `account_tx` show it. */
export function validatedTxFields(tx: StoredTx, header: LedgerHeader, apiVersion: number) {
  const closeTimeIso = rippleTimeIso(header.close_time);
  if (apiVersion >= 2) {
    return { close_time_iso: closeTimeIso, hash: tx.hash, ledger_hash: header.ledger_hash, ledger_index: header.ledger_index, meta: tx.meta, tx_json: formatTxJson(tx.tx_json, apiVersion), validated: true };
  }
  return { ...formatTxJson(tx.tx_json, apiVersion), hash: tx.hash, ledger_index: header.ledger_index, date: header.close_time, meta: tx.meta, validated: true };
}

function transactionStreamMessage(tx: StoredTx, header: LedgerHeader, apiVersion: number) {
  const result = tx.meta.TransactionResult as TerCode;
  const base = {
    type: "transaction",
    close_time_iso: rippleTimeIso(header.close_time),
    ...engineResult(result),
    hash: tx.hash,
    ledger_hash: header.ledger_hash,
    ledger_index: header.ledger_index,
    meta: tx.meta,
    status: "closed",
    validated: true,
  };
  return apiVersion >= 2 ? { ...base, tx_json: formatTxJson(tx.tx_json, apiVersion) } : { ...base, transaction: { ...formatTxJson(tx.tx_json, apiVersion), hash: tx.hash } };
}
