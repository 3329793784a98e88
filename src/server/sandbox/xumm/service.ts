import { randomUUID } from "node:crypto";
import { Client, Wallet, type SubmittableTransaction } from "xrpl";
import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from "../../platform/errors";
import type { Logger } from "../../platform/log";
import { KeyedQueue } from "../../platform/keyedQueue";
import { RetryGate } from "../../platform/retry";
import type { XummCredentials } from "../../signing/credentials";
import { SandboxXummRepository, type PayloadRow } from "./repository";
import { parse, payloadJsonOf, returnUrlOf, sha256Hex, userIdFor, walletPayloadOf, type WalletPayload } from "./views";

export type { WalletPayload } from "./views";

/** A funded sandbox account the sandbox wallet can sign with. */
export interface SandboxAccount {
  address: string;
  seed: string;
  xrp?: unknown;
  vvx?: unknown;
}

/** Where the sandbox wallet finds its faucet accounts (the sandbox ledger). */
export type SandboxAccountSource = () => Promise<SandboxAccount[]> | SandboxAccount[];

/** Tuning for the sandbox Xaman. */
/** How long a transaction the sandbox wallet signed stays valid (xrpl.js's 20 ledgers on a real network). */
const SIGNED_TX_VALID_MS = 70_000;

export interface SandboxXummOptions {
  db: BunSQLiteDatabase & { $client: Database }; // sandbox.db, synchronous: not the product's store
  log: Logger;
  credentials: XummCredentials;
  /** Base URLs: the sandbox's (QR codes, sign pages), the product's (OAuth2 returns, the icon); one when embedded. */
  publicUrl: string;
  productUrl: string;
  /** The sandbox ledger's WebSocket URL; non-SignIn payloads are submitted there through xrpl.js. */
  xrplUrl: string;
  accounts: SandboxAccountSource;
  /** Seed of the sandbox (signs the OAuth2 access tokens). */
  sandboxSeed: string;
  /** How often the sandbox ledger closes: a signed transaction stays valid for the same time as on a real network. */
  ledgerMs?: number;
  /** Lifetime of a payload without `options.expire`: Xaman's QR codes expire in 5 minutes. */
  defaultExpirySeconds?: number;
  /** How often pending payloads are checked for expiry. */
  sweepMs?: number;
  /** The product's clock (the sandbox's advancing clock): payloads expire on it, as the product counts their 5 minutes. Default: real time. */
  now?: () => number;
}

/** Pending payloads live 5 minutes unless the creator asks otherwise. */
export const DEFAULT_EXPIRY_SECONDS = 300;
/** User tokens stay valid this long after their last use (as on Xaman). */
export const USER_TOKEN_DAYS = 30;
/** Transaction types the sandbox accepts (Xaman's list, minus PaymentChannelAuthorize). */
export const SUPPORTED_TX_TYPES = new Set([
  "SignIn", "AccountDelete", "AccountSet", "CheckCancel", "CheckCash", "CheckCreate", "DepositPreauth", "EscrowCancel",
  "EscrowCreate", "EscrowFinish", "NFTokenAcceptOffer", "NFTokenBurn", "NFTokenCancelOffer", "NFTokenCreateOffer",
  "NFTokenMint", "OfferCancel", "OfferCreate", "Payment", "PaymentChannelClaim", "PaymentChannelCreate",
  "PaymentChannelFund", "SetRegularKey", "SignerListSet", "TicketCreate", "TrustSet", "AMMDeposit", "AMMWithdraw",
  "AMMCreate", "AMMVote", "AMMBid",
]);

/** A status event on `/sandbox/xumm/sign/<uuid>`, in the shapes xumm-sdk listens for. */
export type SignEvent = Record<string, unknown>;

/** The payload body xumm-sdk posts. */
export interface CreateBody {
  txjson?: Record<string, unknown>;
  txblob?: string;
  user_token?: string;
  options?: {
    submit?: boolean;
    expire?: number;
    return_url?: { app?: string; web?: string };
    force_network?: string;
    multisign?: boolean;
  };
  custom_meta?: { identifier?: string | null; blob?: Record<string, unknown> | null; instruction?: string | null };
}

/**
 * The sandbox Xaman: keeps payloads in SQLite in Xaman's terms, plays the
 * phone app's signing (xrpl.js Wallet; SignIn signed only, everything else
 * autofilled, signed and submitted to the sandbox ledger), issues user tokens
 * for push, expires what nobody resolved, and tells `/sign/<uuid>` sockets.
 */
export class SandboxXumm {
  readonly repo: SandboxXummRepository;
  readonly defaultExpirySeconds: number;
  private readonly listeners = new Map<string, Set<(event: SignEvent) => void>>();
  private readonly signing = new Set<string>();
  private readonly accountQueue = new KeyedQueue();
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  private readonly sweepGate: RetryGate;
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;

  constructor(readonly options: SandboxXummOptions) {
    this.repo = new SandboxXummRepository(options.db);
    this.sweepGate = new RetryGate("sandbox xumm sweep", options.log, options.db.$client);
    this.defaultExpirySeconds = options.defaultExpirySeconds ?? DEFAULT_EXPIRY_SECONDS;
  }

  get credentials(): XummCredentials {
    return this.options.credentials;
  }

  /** Now on the product's clock (an advanced sandbox clock expires payloads, as the product sees them expire). */
  now(): number {
    return this.options.now ? this.options.now() : Date.now();
  }

  /** Starts the expiry sweep (a failing pass, e.g. the database locked elsewhere, is logged and retried with backoff). */
  start(): void {
    this.sweepTimer ??= setInterval(() => void this.sweepGate.run(() => this.expireDue()), this.options.sweepMs ?? 1000);
  }

  /** Stops the sweep and the ledger connection. */
  async stop(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    this.listeners.clear();
    const client = this.client;
    this.client = undefined;
    this.connecting = undefined;
    if (client?.isConnected()) await client.disconnect().catch(() => undefined);
  }

  /** True when the key pair is the one this sandbox accepts. */
  authorized(apiKey: string | null, apiSecret: string | null): boolean {
    return apiKey === this.credentials.apiKey && apiSecret === this.credentials.apiSecret;
  }

  // --- Platform API -------------------------------------------------------

  /** POST /payload: validates the body and stores a pending payload; returns Xaman's create response. */
  create(body: CreateBody) {
    if (!body || typeof body !== "object") throw new ValidationError("body", "The payload body must be a JSON object");
    if (body.txblob !== undefined) throw new ValidationError("txblob", "The sandbox Xaman accepts txjson payloads only");
    const tx = body.txjson;
    if (!tx || typeof tx !== "object" || Array.isArray(tx)) throw new ValidationError("txjson", "Field 'txjson' must be a transaction object");
    const txType = tx.TransactionType;
    if (typeof txType !== "string" || !SUPPORTED_TX_TYPES.has(txType)) {
      throw new ValidationError("txjson.TransactionType", `Field 'txjson.TransactionType' is not a supported transaction type: ${String(txType)}`);
    }
    const options = body.options ?? {};
    let expirySeconds = this.defaultExpirySeconds;
    if (options.expire !== undefined) {
      // Xaman takes minutes; the sandbox also honours fractions so tests can expire in seconds.
      if (typeof options.expire !== "number" || !(options.expire > 0) || options.expire > 60 * 24 * 30) {
        throw new ValidationError("options.expire", "Field 'options.expire' must be a number of minutes above 0");
      }
      expirySeconds = options.expire * 60;
    }
    const custom = body.custom_meta ?? {};
    if (custom.instruction != null && (typeof custom.instruction !== "string" || custom.instruction.length > 280)) {
      throw new ValidationError("custom_meta.instruction", "Field 'custom_meta.instruction' must be text of at most 280 characters");
    }

    const now = this.now();
    let pushedTo: string | null = null;
    if (typeof body.user_token === "string" && body.user_token) {
      const token = this.repo.userToken(body.user_token);
      if (token && token.expiresAt.getTime() > now) {
        pushedTo = token.account;
        this.repo.extendUserToken(token.token, new Date(now + USER_TOKEN_DAYS * 86_400_000));
      }
    }

    const uuid = randomUUID();
    this.repo.insertPayload({
      uuid,
      txType,
      requestJson: JSON.stringify(tx),
      options: JSON.stringify({ ...options, submit: txType === "SignIn" ? false : options.submit !== false }),
      customMeta: JSON.stringify({ identifier: custom.identifier ?? null, blob: custom.blob ?? null, instruction: custom.instruction ?? null }),
      state: "pending",
      pushedTo,
      createdAt: new Date(now),
      expiresAt: new Date(now + Math.round(expirySeconds * 1000)),
    });
    return this.createdResponse(uuid, pushedTo !== null);
  }

  /** The create response's links for a payload. */
  createdResponse(uuid: string, pushed: boolean) {
    const base = this.options.publicUrl;
    return {
      uuid,
      next: { always: `${base}/sandbox/wallet/sign/${uuid}`, ...(pushed ? { no_push_msg_received: `${base}/sandbox/wallet/sign/${uuid}` } : {}) },
      refs: {
        qr_png: `${base}/sandbox/xumm/qr/${uuid}_q.png`,
        qr_matrix: `${base}/sandbox/xumm/qr/${uuid}_q.json`,
        qr_uri_quality_opts: ["m", "q", "h"],
        websocket_status: `${base.replace(/^http/, "ws")}/sandbox/xumm/sign/${uuid}`,
      },
      pushed,
    };
  }

  /** GET /payload/:uuid in Xaman's shape; null when unknown. */
  get(uuid: string) {
    this.expireDue();
    const row = this.repo.payload(uuid);
    return row ? this.payloadJson(row) : null;
  }

  /** DELETE /payload/:uuid: cancels a payload nobody opened or resolved. */
  cancel(uuid: string) {
    this.expireDue();
    const row = this.repo.payload(uuid);
    if (!row) return null;
    let reason: "OK" | "ALREADY_CANCELLED" | "ALREADY_RESOLVED" | "ALREADY_OPENED" | "ALREADY_EXPIRED" = "OK";
    if (row.state === "cancelled") reason = "ALREADY_CANCELLED";
    else if (row.state === "expired") reason = "ALREADY_EXPIRED";
    else if (row.state !== "pending") reason = "ALREADY_RESOLVED";
    else if (row.openedAt) reason = "ALREADY_OPENED";
    let cancelled = false;
    if (reason === "OK") {
      cancelled = this.repo.transition(uuid, "pending", { state: "cancelled", resolvedAt: new Date(this.now()) });
      if (cancelled) this.emit(uuid, { payload_uuidv4: uuid, cancelled: true, signed: false });
      else reason = "ALREADY_RESOLVED";
    }
    const after = this.repo.payload(uuid)!;
    const json = this.payloadJson(after);
    return { result: { cancelled, reason }, meta: json.meta, custom_meta: json.custom_meta };
  }

  /** POST /user-tokens: validity of each token. */
  verifyUserTokens(tokens: unknown) {
    if (!Array.isArray(tokens)) throw new ValidationError("tokens", "Field 'tokens' must be a list of user tokens");
    const now = this.now();
    return {
      tokens: tokens.map((t) => {
        const row = typeof t === "string" ? this.repo.userToken(t) : undefined;
        const active = !!row && row.expiresAt.getTime() > now;
        return {
          user_token: String(t),
          active,
          ...(row ? { issued: Math.floor(row.issuedAt.getTime() / 1000), expires: Math.floor(row.expiresAt.getTime() / 1000) } : {}),
        };
      }),
    };
  }

  // --- The phone app's side ----------------------------------------------

  /** Marks a payload opened in the wallet (as when Xaman shows it) and tells subscribers. */
  open(uuid: string): void {
    const row = this.repo.payload(uuid);
    if (!row || row.openedAt || row.state !== "pending") return;
    this.repo.markOpened(uuid, new Date(this.now()));
    this.emit(uuid, { opened: true });
  }

  /**
   * Signs a pending payload with a sandbox faucet account (`account`) or any
   * seed: SignIn is signed but never submitted; other payloads are autofilled,
   * signed and submitted to the sandbox ledger unless `options.submit` is false.
   */
  async sign(uuid: string, by: { account?: string; seed?: string }) {
    this.expireDue();
    const row = this.pendingRow(uuid);
    const wallet = await this.walletFor(by);
    const request = parse<Record<string, unknown>>(row.requestJson, {});
    if (typeof request.Account === "string" && request.Account && request.Account !== wallet.classicAddress) {
      throw new ValidationError("account", `This request must be signed by ${request.Account}`);
    }
    if (this.signing.has(uuid)) throw new ConflictError("PAYLOAD_BUSY", "This request is being signed already");
    this.signing.add(uuid);
    try {
      const options = parse<{ submit?: boolean }>(row.options, {});
      let hex: string;
      let txid: string;
      let dispatchedResult: string | null = null;
      let dispatchedTo: string | null = null;
      if (row.txType === "SignIn") {
        ({ hex, txid } = this.signInProof(wallet, uuid));
      } else {
        // One account's payloads are prepared and submitted one after another, as a phone signs
        // them: each autofill then sees the previous one's sequence taken (no tefPAST_SEQ).
        ({ hex, txid, dispatchedResult, dispatchedTo } = await this.accountQueue.run(wallet.classicAddress, () => this.signAndSubmit(wallet, request, options.submit !== false)));
      }
      const userToken = this.issueUserToken(wallet.classicAddress, row.pushedTo);
      const result = {
        state: "signed",
        resolvedAt: new Date(this.now()),
        account: wallet.classicAddress,
        signerPubkey: wallet.publicKey,
        hex,
        txid,
        dispatchedTo,
        dispatchedResult,
        issuedUserToken: userToken,
        openedAt: row.openedAt ?? new Date(this.now()),
      };
      // A transaction already on its way to the ledger is the truth even if the clock ran out meanwhile.
      const ok = this.repo.transition(uuid, "pending", result) || (dispatchedTo !== null && this.repo.transition(uuid, "expired", result));
      if (!ok) throw new ConflictError("PAYLOAD_RESOLVED", `This request is ${this.repo.payload(uuid)!.state} already`);
      const returnUrl = this.returnUrl(this.repo.payload(uuid)!);
      this.emit(uuid, {
        payload_uuidv4: uuid,
        reference_call_uuidv4: randomUUID(),
        signed: true,
        user_token: true,
        return_url: { app: returnUrl, web: returnUrl },
        opened_by_deeplink: true,
        custom_meta: parse(row.customMeta, {}),
        txid,
      });
      return { signed: true as const, uuid, account: wallet.classicAddress, txid, dispatchedResult, returnUrl };
    } finally {
      this.signing.delete(uuid);
    }
  }

  /** The user declines: resolved, not signed. */
  reject(uuid: string) {
    this.expireDue();
    const row = this.pendingRow(uuid);
    const ok = this.repo.transition(uuid, "pending", { state: "rejected", resolvedAt: new Date(this.now()), openedAt: row.openedAt ?? new Date(this.now()) });
    if (!ok) throw new ConflictError("PAYLOAD_RESOLVED", `This request is ${this.repo.payload(uuid)!.state} already`);
    const returnUrl = this.returnUrl(this.repo.payload(uuid)!);
    this.emit(uuid, {
      payload_uuidv4: uuid,
      reference_call_uuidv4: randomUUID(),
      signed: false,
      user_token: false,
      return_url: { app: returnUrl, web: returnUrl },
      opened_by_deeplink: true,
      custom_meta: parse(row.customMeta, {}),
      txid: null,
    });
    return { rejected: true as const, uuid };
  }

  /** Ends a pending payload's life now (what the clock does after `expire`); for tests and demos. */
  expireNow(uuid: string) {
    const row = this.pendingRow(uuid);
    if (this.repo.transition(uuid, "pending", { state: "expired", expiresAt: new Date(Math.min(this.now(), row.expiresAt.getTime())) })) {
      this.emit(uuid, { expired: true });
    }
    return { expired: true as const, uuid };
  }

  /** Expires every pending payload whose time is up and tells its subscribers. */
  expireDue(): void {
    const now = this.now();
    for (const row of this.repo.duePayloads(now)) {
      if (this.repo.transition(row.uuid, "pending", { state: "expired" })) this.emit(row.uuid, { expired: true });
    }
  }

  /** Payloads for the sandbox wallet: pending ones (pushed to `account` first), or all in a state. */
  list(state: string, account?: string): WalletPayload[] {
    this.expireDue();
    const rows = this.repo.payloadsInState(state).map((r) => this.walletPayload(r));
    const rank = (p: WalletPayload) => (account && p.pushedTo === account ? 0 : 1);
    return rows.sort((a, b) => rank(a) - rank(b) || b.createdAt.localeCompare(a.createdAt));
  }

  /** One payload for the sandbox wallet; NotFoundError when unknown. */
  walletView(uuid: string): WalletPayload {
    this.expireDue();
    const row = this.repo.payload(uuid);
    if (!row) throw new NotFoundError(`No sign request ${uuid}`, "PAYLOAD_NOT_FOUND");
    return this.walletPayload(row);
  }

  // --- Websocket subscribers --------------------------------------------

  /** Registers a listener for one payload's events; returns the unsubscribe function. */
  subscribe(uuid: string, fn: (event: SignEvent) => void): () => void {
    let set = this.listeners.get(uuid);
    if (!set) this.listeners.set(uuid, (set = new Set()));
    set.add(fn);
    return () => {
      set!.delete(fn);
      if (set!.size === 0) this.listeners.delete(uuid);
    };
  }

  private emit(uuid: string, event: SignEvent): void {
    for (const fn of this.listeners.get(uuid) ?? []) {
      try {
        fn(event);
      } catch (err) {
        this.options.log.warn("sandbox xumm listener failed", { uuid, error: err instanceof Error ? err.message : String(err) });
      }
    }
  }

  // --- Internals ----------------------------------------------------------

  private pendingRow(uuid: string): PayloadRow {
    const row = this.repo.payload(uuid);
    if (!row) throw new NotFoundError(`No sign request ${uuid}`, "PAYLOAD_NOT_FOUND");
    if (row.state === "expired") throw new ConflictError("PAYLOAD_EXPIRED", "This sign request expired: it can no longer be signed. Ask the app for a new QR code.");
    if (row.state !== "pending") throw new ConflictError("PAYLOAD_RESOLVED", `This request is ${row.state} already`);
    return row;
  }

  private async walletFor(by: { account?: string; seed?: string }): Promise<Wallet> {
    if (by.seed) {
      try {
        return Wallet.fromSeed(by.seed);
      } catch {
        throw new ValidationError("seed", "Field 'seed' is not a valid XRPL seed");
      }
    }
    if (!by.account) throw new ValidationError("account", "Field 'account' is required: the sandbox account to sign with");
    const found = (await this.options.accounts()).find((a) => a.address === by.account);
    if (!found) throw new ValidationError("account", `Field 'account': ${by.account} is not a sandbox account; create one in the sandbox wallet first`);
    return Wallet.fromSeed(found.seed);
  }

  /** Autofills, signs and (unless `submit` is false) submits a transaction for the account. */
  private async signAndSubmit(wallet: Wallet, request: Record<string, unknown>, submit: boolean) {
    const client = await this.ledger();
    const tx = { ...request, Account: wallet.classicAddress } as unknown as SubmittableTransaction;
    let prepared: SubmittableTransaction;
    try {
      prepared = await client.autofill(tx);
      // xrpl.js gives 20 ledgers, about 70 s on a real network but 3 s at a test's 150 ms closes: a phone that is
      // slow to sign would see tefMAX_LEDGER only here. The same 70 s, in this ledger's closes.
      if (request.LastLedgerSequence === undefined && prepared.LastLedgerSequence !== undefined) {
        prepared.LastLedgerSequence += Math.max(0, Math.ceil(SIGNED_TX_VALID_MS / (this.options.ledgerMs ?? 1000)) - 20);
      }
    } catch (err) {
      throw new ConflictError("TX_PREPARE_FAILED", `The ledger could not prepare this transaction: ${err instanceof Error ? err.message : String(err)}`);
    }
    const signed = wallet.sign(prepared);
    if (!submit) return { hex: signed.tx_blob, txid: signed.hash, dispatchedResult: null, dispatchedTo: null };
    let res;
    try {
      res = await client.submit(signed.tx_blob);
    } catch (err) {
      throw new UpstreamError(`The sandbox ledger did not take the transaction: ${err instanceof Error ? err.message : String(err)}`, "LEDGER_SUBMIT_FAILED", 502);
    }
    return { hex: signed.tx_blob, txid: signed.hash, dispatchedResult: res.result.engine_result as string | null, dispatchedTo: this.options.xrplUrl as string | null };
  }

  /** A SignIn proof: an AccountSet naming the payload, signed by the account and never submitted. */
  private signInProof(wallet: Wallet, uuid: string): { hex: string; txid: string } {
    const proof = wallet.sign({
      TransactionType: "AccountSet",
      Account: wallet.classicAddress,
      Fee: "0",
      Sequence: 0,
      Memos: [{ Memo: { MemoType: Buffer.from("SignIn").toString("hex").toUpperCase(), MemoData: Buffer.from(uuid).toString("hex").toUpperCase() } }],
    });
    return { hex: proof.tx_blob, txid: proof.hash };
  }

  /** The account's user token (renewed), reusing the one a pushed payload came with. */
  private issueUserToken(account: string, pushedTo: string | null): string {
    const now = this.now();
    const expiresAt = new Date(now + USER_TOKEN_DAYS * 86_400_000);
    const existing = this.repo.userTokenForAccount(account);
    if (existing && (existing.expiresAt.getTime() > now || pushedTo === account)) {
      this.repo.extendUserToken(existing.token, expiresAt);
      return existing.token;
    }
    const token = randomUUID();
    this.repo.upsertUserToken({ token, account, issuedAt: new Date(now), expiresAt });
    return token;
  }

  private returnUrl(row: PayloadRow): string | null {
    return returnUrlOf(row);
  }

  private async ledger(): Promise<Client> {
    if (this.client?.isConnected()) return this.client;
    this.connecting ??= (async () => {
      const client = this.client ?? new Client(this.options.xrplUrl, { connectionTimeout: 5000, timeout: 20_000 });
      this.client = client;
      try {
        await client.connect();
      } catch (err) {
        throw new UpstreamError(`The sandbox ledger is unreachable: ${err instanceof Error ? err.message : String(err)}`, "LEDGER_UNAVAILABLE");
      }
      return client;
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private walletPayload(row: PayloadRow): WalletPayload {
    return walletPayloadOf(row, this.now());
  }

  /** A payload in the exact shape of Xaman's GET /payload/:uuid. */
  payloadJson(row: PayloadRow) {
    return payloadJsonOf(row, { apiKey: this.credentials.apiKey, productUrl: this.options.productUrl, xrplUrl: this.options.xrplUrl }, this.now());
  }
}
