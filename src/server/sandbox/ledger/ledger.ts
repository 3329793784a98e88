import { createHash } from "node:crypto";
import { join } from "node:path";
import { Wallet } from "xrpl";
import { encodeFastBytes } from "./binary";
import { checkedDecode, checkedDecodeAsync } from "./decode";
import type { Logger } from "../../platform/log";
import { sandboxWallets, type SandboxWallets } from "../wallets";
import { applyTransaction } from "./apply";
import { balances, createAccount, genesis, listAccounts, type FaucetOptions } from "./faucet";
import { FEES } from "./apply/common";
import { isApplied, RpcError, type TerCode } from "./codes";
import { StateIndex, affectedAccounts, ownersOf } from "./entries";
import { RIPPLE_EPOCH_OFFSET, NETWORK_ID, binaryMeta } from "./format";
import { STATE_HISTORY, StateHistory } from "./history";
import { HeldTransactions } from "./held";
import { OpenJournal } from "./journal";
import { GENESIS_KEYS, GENESIS_SEED, accountKey, ledgerHeaderHash } from "./keys";
import { transactionId, transactionTreeHash } from "./shamap";
import { SandboxStore, type ClosingTx, type LedgerHeader } from "./state";
import { Streams, type LedgerStreamFields, type Subscriber } from "./streams";
import { entryJson, type Entry, type StateReader } from "./view";

export { RIPPLE_EPOCH_OFFSET } from "./format";
export { DEFAULT_FAUCET_XRP, FAUCET_VVX_LIMIT, GENESIS } from "./faucet";
export { verifyTxSignature } from "./signature";
export type { Subscriber } from "./streams";

/** rippled's genesis: 100 billion XRP in the master account. */
export const GENESIS_DROPS = 100_000_000_000_000_000n;
export const ZERO_HASH = "0".repeat(64);

/** Which ledger to read: the open one, the last validated one, or a closed one by index. */
export type LedgerSelector = "current" | "validated" | number;

/** A transaction applied to the open ledger, waiting for the close. */
interface OpenTx {
  hash: string;
  tx_json: Record<string, any>;
  tx_blob: string;
  meta: Record<string, any>;
  /** The metadata in binary, encoded when applied so the close only hashes. */
  metaBytes: Buffer;
  accounts: string[];
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
  /**
   * How far that clock is ahead of real time: each ledgerClosed message carries it (`vvx_clock_offset_ms`, a field
   * rippled does not have), so instances using this sandbox from other processes follow every advance at its close.
   */
  clockOffsetMs?: () => number;
}

/** The ledgerClosed message's field with the sandbox clock's offset (SandboxLedgerOptions.clockOffsetMs). */
export const CLOCK_OFFSET_FIELD = "vvx_clock_offset_ms";

export function rippleTimeNow(nowMs = Date.now()): number {
  return Math.floor(nowMs / 1000) - RIPPLE_EPOCH_OFFSET;
}

/**
 * The sandbox XRP Ledger: state in memory (persisted at every close), an
 * open ledger that takes signed transactions, a close every `ledgerMs`, the
 * state of the last 256 closed ledgers, and the rippled-style streams. RPC,
 * the faucet and the explorer sit on top.
 */
export class SandboxLedger {
  /** Where the Elysia plugin serves the rippled WebSocket API. */
  readonly wsPath = "/sandbox/ledger";
  readonly wallets: SandboxWallets;
  readonly currency: string;
  readonly store: SandboxStore;
  private readonly journal: OpenJournal;
  readonly startedAt = Date.now();
  readonly streams = new Streams();
  readonly genesisWallet = new Wallet(GENESIS_KEYS.publicKey, GENESIS_KEYS.privateKey, { seed: GENESIS_SEED });
  readonly log: Logger;
  private readonly ledgerMs: number;
  private readonly now: () => number;
  private readonly clockOffsetMs?: () => number;
  private readonly entries = new Map<string, Entry>();
  /** For every object changed in the open ledger, its value at the last close (undefined: it did not exist). */
  private readonly openOriginals = new Map<string, Entry | undefined>();
  private readonly index = new StateIndex();
  private readonly history = new StateHistory();
  private readonly closeListeners = new Set<(index: number) => void>();
  private readonly held = new HeldTransactions();
  private openTxs: OpenTx[] = [];
  private openByHash = new Map<string, OpenTx>();
  /** Submits waiting for their signature check or their turn (submitInTurn), and the chain that keeps them in order. */
  private waitingTurns = 0;
  private turns: Promise<void> = Promise.resolve();
  private last!: LedgerHeader;
  private timer?: ReturnType<typeof setInterval>;
  private closed = false;
  private first?: number;
  private historyRecorded = false;

  readonly current: StateReader = { get: (key) => this.entries.get(key) };
  readonly validatedState: StateReader = {
    get: (key) => (this.openOriginals.has(key) ? this.openOriginals.get(key) : this.entries.get(key)),
  };

  constructor(options: SandboxLedgerOptions) {
    this.log = options.log;
    this.ledgerMs = options.ledgerMs;
    this.now = options.now ?? Date.now;
    this.clockOffsetMs = options.clockOffsetMs;
    this.currency = options.currency;
    this.wallets = sandboxWallets(options.seed);
    this.store = new SandboxStore(options.dataDir);
    this.journal = new OpenJournal(join(options.dataDir, "sandbox-open.log"));
    const seedMark = createHash("sha256").update(options.seed).digest("hex");
    const stored = this.store.lastLedger();
    if (stored) {
      if (this.store.setting("seed_sha256") !== seedMark) {
        this.journal.close();
        this.store.close();
        throw new Error(`${this.store.path} was created with a different SANDBOX_SEED; use the same seed or another DATA_DIR`);
      }
      this.last = stored;
      for (const entry of this.store.loadEntries()) this.put(entry.index, entry);
      const since = this.store.setting("state_history_since");
      this.historyRecorded = since !== undefined;
      this.history.load(since === undefined ? undefined : Number(since), this.store.stateHistory());
      this.replayOpenQueue();
    } else {
      this.store.setSetting("seed_sha256", seedMark);
      genesis(this);
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
  /** The oldest ledger kept (headers and transactions are never pruned, so it is fixed once read). */
  get firstIndex(): number {
    return (this.first ??= this.store.firstLedgerIndex() ?? 1);
  }
  /** The oldest ledger whose state (objects) can still be read. */
  get oldestStateIndex(): number {
    return Math.max(this.firstIndex, this.history.oldest(this.validatedIndex));
  }
  get openTransactions(): readonly OpenTx[] {
    return this.openTxs;
  }

  /** Whether the state of this closed ledger is still kept. */
  hasState(ledgerIndex: number): boolean {
    return ledgerIndex === this.openIndex || (ledgerIndex >= this.oldestStateIndex && ledgerIndex <= this.validatedIndex);
  }

  reader(which: LedgerSelector): StateReader {
    if (which === "current" || which === this.openIndex) return this.current;
    if (which === "validated" || which === this.validatedIndex) return this.validatedState;
    if (!this.hasState(which)) throw new RpcError("lgrNotFound", "ledgerNotFound");
    return this.history.reader(which, this.validatedState);
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

  /** Stops the timer: ledgers then close only on demand (POST /sandbox/api/ledger/close), as a standalone rippled's do on ledger_accept. */
  stopAutoClose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** First half of shutdown: no more closes, and every ledger socket is closed. */
  stopTimerAndSockets(): void {
    this.stopAutoClose();
    this.streams.closeAll();
  }

  /** Second half: validates what is still open (so nothing accepted is lost) and closes the database. */
  shutdown(): void {
    if (this.closed) return;
    this.stopTimerAndSockets();
    if (this.openTxs.length) this.close();
    this.closed = true;
    this.journal.close();
    this.store.close();
  }

  /** Calls `listener` after every close with the new validated index (path_find updates). */
  onClose(listener: (index: number) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  // ---- state ------------------------------------------------------------------

  /** Writes an object into the current state (or deletes it with null), keeping the indexes. */
  put(key: string, entry: Entry | null): void {
    const old = this.entries.get(key);
    if (old) this.index.remove(old);
    if (entry) {
      this.entries.set(key, entry);
      this.index.add(entry);
    } else this.entries.delete(key);
  }

  entry(key: string, which: LedgerSelector): Entry | undefined {
    return this.reader(which).get(key);
  }

  accountRoot(address: string, which: LedgerSelector): Entry | undefined {
    return this.entry(accountKey(address), which);
  }

  /** Keys that may hold objects in `which` but not in the current state (changed since): candidates for older reads. */
  private olderCandidates(which: LedgerSelector): Iterable<Entry> {
    const out: Entry[] = [];
    if (which === "current" || which === this.openIndex) return out;
    for (const original of this.openOriginals.values()) if (original) out.push(original);
    if (typeof which === "number" && which < this.validatedIndex) out.push(...this.history.entriesChangedAfter(which));
    return out;
  }

  /** Objects selected through one of the indexes, read in ledger `which` and checked with `keep`. */
  private indexed(keys: Iterable<string> | undefined, which: LedgerSelector, keep: (e: Entry) => boolean): Entry[] {
    const all = new Set(keys ?? []);
    for (const old of this.olderCandidates(which)) if (keep(old)) all.add(old.index);
    const reader = this.reader(which);
    const result: Entry[] = [];
    for (const key of [...all].sort()) {
      const entry = reader.get(key);
      if (entry && keep(entry)) result.push(entry);
    }
    return result;
  }

  /** Objects an account owns or shares (trust lines, offers, NFT pages and offers, signer list, AMM), in one ledger. */
  ownedEntries(address: string, which: LedgerSelector): Entry[] {
    return this.indexed(this.index.owned.get(address), which, (e) => ownersOf(e).includes(address));
  }

  nftOffers(nftokenId: string, which: LedgerSelector): Entry[] {
    const id = nftokenId.toUpperCase();
    return this.indexed(this.index.offersByToken.get(id), which, (e) => e.LedgerEntryType === "NFTokenOffer" && e.NFTokenID === id);
  }

  /** The offers of one order book (by directory base), best quality first and in arrival order within a quality. */
  bookOffers(base: string, which: LedgerSelector): Entry[] {
    const prefix = base.slice(0, 48);
    const offers = this.indexed(this.index.offersByBook.get(base), which, (e) => e.LedgerEntryType === "Offer" && e.BookDirectory.startsWith(prefix));
    return offers.sort((a, b) => (a.BookDirectory < b.BookDirectory ? -1 : a.BookDirectory > b.BookDirectory ? 1 : (a.PreviousTxnLgrSeq ?? 0) - (b.PreviousTxnLgrSeq ?? 0) || (a.Sequence ?? 0) - (b.Sequence ?? 0)));
  }

  /** Every object key of one ledger in key order (ledger_data). */
  allKeys(which: LedgerSelector): string[] {
    const keys = new Set(this.entries.keys());
    for (const old of this.olderCandidates(which)) keys.add(old.index);
    const reader = this.reader(which);
    return [...keys].filter((k) => reader.get(k) !== undefined).sort();
  }

  // ---- submission ---------------------------------------------------------------

  /**
   * Checks and applies a signed transaction blob to the open ledger, as
   * rippled's submit does. Throws RpcError("invalidTransaction") for blobs
   * that fail local checks (undecodable, bad signature), like rippled.
   */
  submit(txBlob: string): SubmitOutcome {
    if (this.closed) throw new RpcError("internal", "The sandbox ledger is shutting down.");
    const hash = transactionId(txBlob);
    return this.submitChecked(checkedDecode(txBlob, hash), txBlob, hash);
  }

  /**
   * submit() for clients over the WebSocket: an Ed25519 signature is checked
   * off the main thread, and transactions are applied in the order they came
   * (so one account's sequences stay in order).
   */
  submitInTurn(txBlob: string): SubmitOutcome | Promise<SubmitOutcome> {
    if (this.closed) throw new RpcError("internal", "The sandbox ledger is shutting down.");
    const hash = transactionId(txBlob);
    const checked = checkedDecodeAsync(txBlob, hash);
    if (!(checked instanceof Promise) && this.waitingTurns === 0) return this.submitChecked(checked, txBlob, hash);
    // A bad signature may be known before the earlier turns end: the turn below reports it; this
    // keeps it from counting as an unhandled rejection meanwhile.
    if (checked instanceof Promise) checked.catch(() => {});
    this.waitingTurns++;
    const turn = this.turns.then(() => checked).then((tx) => {
      if (this.closed) throw new RpcError("internal", "The sandbox ledger is shutting down.");
      return this.submitChecked(tx, txBlob, hash);
    });
    this.turns = turn.then(
      () => void this.waitingTurns--,
      () => void this.waitingTurns--,
    );
    return turn;
  }

  private submitChecked(tx: Record<string, any>, txBlob: string, hash: string): SubmitOutcome {
    const txWithHash = { ...tx, hash };
    if (this.openByHash.has(hash)) return { result: "tefALREADY", hash, tx: txWithHash, applied: false, kept: false };
    const result = this.applyBlob(tx, txBlob, hash);
    if (result === "terPRE_SEQ") {
      const held = this.held.hold({ tx_blob: txBlob, tx, hash });
      if (held === "new") this.journal.append(hash, txBlob);
      return { result, hash, tx: txWithHash, applied: false, kept: held !== "full" };
    }
    if (isApplied(result)) this.releaseHeld(tx.Account);
    return { result, hash, tx: txWithHash, applied: isApplied(result), kept: isApplied(result) };
  }

  private applyBlob(tx: Record<string, any>, txBlob: string, hash: string): TerCode {
    const outcome = applyTransaction(this.current, tx, hash, {
      ledgerIndex: this.openIndex,
      parentHash: this.last.ledger_hash,
      parentCloseTime: this.last.close_time,
      offersFor: (id) => [...(this.index.offersByToken.get(id) ?? [])],
      bookOffers: (base) => this.bookOffers(base, "current").map((o) => o.index),
    });
    if (!outcome.applied) return outcome.result;
    for (const [key, entry] of outcome.applied.writes) {
      if (!this.openOriginals.has(key)) this.openOriginals.set(key, this.entries.get(key));
      this.put(key, entry);
    }
    const meta = { AffectedNodes: outcome.applied.affectedNodes, TransactionIndex: this.openTxs.length, TransactionResult: outcome.result, ...outcome.applied.extraMeta };
    const accounts = affectedAccounts(tx, meta);
    const open: OpenTx = { hash, tx_json: tx, tx_blob: txBlob, meta, metaBytes: encodeFastBytes(binaryMeta(meta)), accounts };
    this.openTxs.push(open);
    this.openByHash.set(hash, open);
    this.journal.append(hash, txBlob);
    if (this.streams.size && this.streams.wantsProposed()) this.streams.publishProposed(hash, tx, outcome.result, accounts, this.openIndex);
    return outcome.result;
  }

  /** Applies held transactions whose turn has come. */
  private releaseHeld(account: string): void {
    for (let held; (held = this.held.take(account, this.accountRoot(account, "current")?.Sequence)); ) {
      if (!isApplied(this.applyBlob(held.tx, held.tx_blob, held.hash))) return;
    }
  }

  // ---- closing ------------------------------------------------------------------

  /** A stand-in for the state tree hash: chains the previous hash with every object written in this ledger (`writes` in key order). */
  stateHash(previous: string, writes: [string, Entry | null][]): string {
    const h = new Bun.CryptoHasher("sha512").update(previous);
    for (const [key, entry] of writes) h.update(key).update(entry ? entryJson(entry) : "deleted");
    return h.digest("hex").slice(0, 64).toUpperCase();
  }

  /** Writes ledger 1 (the genesis account alone), as rippled's genesis ledger. */
  writeGenesisLedger(master: Entry): void {
    const header: Omit<LedgerHeader, "ledger_hash"> = {
      ledger_index: 1,
      parent_hash: ZERO_HASH,
      account_hash: this.stateHash(ZERO_HASH, [[master.index, master]]),
      transaction_hash: ZERO_HASH,
      close_time: 0,
      parent_close_time: 0,
      close_time_resolution: 10,
      close_flags: 0,
      total_coins: GENESIS_DROPS.toString(),
      tx_count: 0,
    };
    this.last = { ...header, ledger_hash: ledgerHeaderHash(header) };
    this.store.saveClose({ header: this.last, writes: [[master.index, master]], txs: [] });
    this.put(master.index, master);
  }

  /** Closes (and, in the sandbox, at once validates) the open ledger; returns its index. */
  close(): number {
    if (this.closed) throw new Error("sandbox ledger is shut down");
    const index = this.openIndex;
    const txs = this.openTxs;
    const writes: [string, Entry | null][] = [...this.openOriginals.keys()].sort().map((k) => [k, this.entries.get(k) ?? null]);
    // Summed as numbers while exact (a BigInt per transaction showed in the close's profile).
    let fees = 0;
    for (const t of txs) fees += Number(t.tx_json.Fee);
    const feesBurnt = Number.isSafeInteger(fees) ? BigInt(fees) : txs.reduce((sum, t) => sum + BigInt(t.tx_json.Fee), 0n);
    // Close times never go backwards; several ledgers may share a second when SANDBOX_LEDGER_MS < 1000.
    const closeTime = Math.max(rippleTimeNow(this.now()), this.last.close_time);
    const header: Omit<LedgerHeader, "ledger_hash"> = {
      ledger_index: index,
      parent_hash: this.last.ledger_hash,
      account_hash: this.stateHash(this.last.account_hash, writes),
      transaction_hash: transactionTreeHash(txs.map((t) => ({ hash: t.hash, txBlob: t.tx_blob, metaBytes: t.metaBytes }))),
      close_time: closeTime,
      parent_close_time: this.last.close_time,
      close_time_resolution: 10,
      close_flags: 0,
      total_coins: (BigInt(this.last.total_coins) - feesBurnt).toString(),
      tx_count: txs.length,
    };
    const closedHeader: LedgerHeader = { ...header, ledger_hash: ledgerHeaderHash(header) };
    const stored: ClosingTx[] = txs.map((t) => ({
      hash: t.hash,
      ledger_index: index,
      tx_index: t.meta.TransactionIndex as number,
      tx_json: t.tx_json,
      meta: t.meta,
      tx_blob: t.tx_blob,
      accounts: t.accounts,
      txText: JSON.stringify(t.tx_json),
      metaText: JSON.stringify(t.meta),
    }));
    const before = new Map(this.openOriginals);
    if (!this.historyRecorded) {
      this.store.setSetting("state_history_since", String(index));
      this.historyRecorded = true;
    }
    this.store.saveClose({ header: closedHeader, writes, txs: stored, before, keepFrom: index - STATE_HISTORY + 1 });

    this.history.record(index, before);
    this.last = closedHeader;
    this.openOriginals.clear();
    this.openTxs = [];
    this.openByHash = new Map();
    this.held.expire(this.openIndex);
    this.keepHeldOnly();
    const clock = this.clockOffsetMs ? { [CLOCK_OFFSET_FIELD]: this.clockOffsetMs() } : {};
    this.streams.publishClose({ ...this.ledgerStreamFields(closedHeader), ...clock }, closedHeader.tx_count, closedHeader, stored);
    for (const listener of this.closeListeners) listener(index);
    return index;
  }

  /** At start: the transactions the open ledger had taken before the process ended (applied or held) are taken again, in order. */
  private replayOpenQueue(): void {
    for (const { txBlob } of this.journal.entries()) {
      try {
        this.submit(txBlob);
      } catch (err) {
        this.log.warn("sandbox ledger: a queued transaction could not be taken again", { error: err instanceof Error ? err.message : String(err) });
      }
    }
    this.keepHeldOnly();
  }

  /** The journal keeps only what no close has taken: the held transactions. */
  private keepHeldOnly(): void {
    this.journal.reset(this.held.all().map((h) => ({ hash: h.hash, txBlob: h.tx_blob })));
  }

  // ---- streams ------------------------------------------------------------------

  /** Adds a client connection; it receives what its streams, accounts and books select. */
  addSubscriber(sub: Subscriber): void {
    this.streams.add(sub);
  }
  removeSubscriber(sub: Subscriber): void {
    this.streams.remove(sub);
  }

  /** The fields rippled's ledger stream (and a subscribe to it) reports. */
  ledgerStreamFields(header = this.last): LedgerStreamFields {
    return {
      fee_base: Number(FEES.baseFee),
      ledger_hash: header.ledger_hash,
      ledger_index: header.ledger_index,
      ledger_time: header.close_time,
      network_id: NETWORK_ID,
      reserve_base: Number(FEES.reserveBase),
      reserve_inc: Number(FEES.reserveIncrement),
      validated_ledgers: `${this.firstIndex}-${this.last.ledger_index}`,
    };
  }

  // ---- in-process API (sandbox wallet, faucet, tests) -------------------------------

  /** The faucet (POST /sandbox/api/accounts): a new funded account, validated at once. */
  async createAccount(options: FaucetOptions = {}): Promise<{ address: string; seed: string }> {
    return createAccount(this, options);
  }

  listAccounts(): ReturnType<typeof listAccounts> {
    return listAccounts(this);
  }

  balances(address: string, which: LedgerSelector): { xrp: string; vvx: string } {
    return balances(this, address, which);
  }

  /** Closes the open ledger now (POST /sandbox/api/ledger/close); resolves to the validated ledger index. */
  async closeLedger(): Promise<number> {
    return this.close();
  }

  /** The open ledger's transaction, if the hash is there. */
  openTx(hash: string): OpenTx | undefined {
    return this.openByHash.get(hash.toUpperCase());
  }
}
