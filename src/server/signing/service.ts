import { createHash } from "node:crypto";
import { isValidClassicAddress } from "xrpl";
import { formatMicroVvx } from "../../engine/money";
import type { Clock } from "../platform/clock";
import type { Config } from "../platform/config";
import type { Db } from "../platform/db";
import { NotFoundError, ValidationError } from "../platform/errors";
import type { Logger } from "../platform/log";
import { SigningRepository, type SignRequestRow } from "./repository";
import type { XummClient, XummPayload } from "./xumm";

/** Sign requests expire after 5 minutes (the QR modal says so). */
export const SIGN_REQUEST_EXPIRY_SECONDS = 300;
/** How long `watch` waits for a signed request's ledger result before reporting it without one. */
const SETTLE_WAIT_MS = 10_000;

/** What a feature asks Xaman to have signed. */
export interface CreateSignRequest {
  /** wallet_connect and push_auth are the auth feature's; features name theirs (vvx_payment, crash_bet, trustline ...). */
  kind: string;
  txjson: { TransactionType: string } & Record<string, unknown>;
  /** The creating browser's binding token (from the `vvx_client` cookie). */
  clientToken?: string;
  /** The wallet the request is for: it becomes `txjson.Account`, so only that account can sign it. */
  wallet?: string;
  /** The feature's own id (bet id, purchase request id), stored with the request. */
  reference?: string;
  /** A Xaman user token: the request is pushed to that user's phone. */
  userToken?: string;
  /** Shown to the signer in the wallet. */
  instruction?: string;
  expireSeconds?: number;
  /** Where the wallet returns after signing (`{id}` becomes the uuid). */
  returnUrl?: string;
  /** false: sign only, the product submits (default true; SignIn is never submitted). */
  submit?: boolean;
}

/** The spec's sign request response fields (plus expiry). */
export interface SignRequestCreated {
  uuid: string;
  qrUrl: string;
  xummUrl: string;
  refs: { qr_png: string; qr_matrix: string; websocket_status: string };
  next: { always: string };
  pushed: boolean;
  expiresAt: string;
}

/** An amount to request: XRP in drops, or an issued token (VVX) in micro-units. */
export type RequestedAmount = { drops: bigint } | { currency: string; issuer: string; micro: bigint };

/** A Payment sign request (bets, purchases, slot sessions, swaps). */
export interface CreatePaymentRequest {
  kind: string;
  /** The paying wallet (the session's); only it can sign. */
  wallet: string;
  destination: string;
  destinationTag?: number;
  amount: RequestedAmount;
  memo?: string;
  reference?: string;
  clientToken?: string;
  instruction?: string;
  expireSeconds?: number;
  userToken?: string;
}

/** A sign request's state, read from Xaman server-side. */
export interface SignStatus {
  uuid: string;
  kind: string;
  reference: string | null;
  wallet: string | null;
  signed: boolean;
  /** The signing account, from Xaman's response (never from the browser). */
  account: string | null;
  /** Cancelled by the app or rejected by the user. */
  cancelled: boolean;
  rejected: boolean;
  expired: boolean;
  resolved: boolean;
  opened: boolean;
  txid: string | null;
  dispatchedResult: string | null;
  issuedUserToken: string | null;
  expiresInSeconds: number;
}

/** The Xaman user token to push a wallet's sign requests to, when the wallet turned push-to-sign on. */
export type PushTokenResolver = (wallet: string) => Promise<string | undefined>;

/** A feature's answer to "is bet `betId` confirmed?" for the status call's betConfirmed. */
export type BetConfirmer = (betId: string, status: SignStatus) => boolean | Promise<boolean>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Checks a payload uuid from a path; 400 naming `field` otherwise. */
export function parseUuid(value: string, field = "uuid"): string {
  const uuid = value.trim().toLowerCase();
  if (!UUID.test(uuid)) throw new ValidationError(field, `Field '${field}' must be a sign request uuid`);
  return uuid;
}

/**
 * What a sign request keeps of the creating browser's binding token: its SHA-256 (the token is
 * never stored). Only a browser presenting the same token may turn the signed request into a session.
 */
export function bindingHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Micro-units as the decimal value string of an issued-currency amount ("500000", "0.000001"). */
export function microToValue(micro: bigint): string {
  if (micro <= 0n) throw new ValidationError("amount", "Field 'amount' must be above 0");
  return formatMicroVvx(micro);
}

/**
 * Sign requests through Xaman for every feature: creates payloads with the
 * real xumm-sdk, records who asked for them, and reads their outcome
 * server-side. Routes stay thin; features call `createSignRequest` and `status`,
 * and money in goes through `signPayment` (signing/payment.ts), the one caller
 * of `createPaymentRequest` besides tests.
 */
export class SigningService {
  readonly repo: SigningRepository;
  private readonly betConfirmers: BetConfirmer[] = [];
  private pushToken: PushTokenResolver = async () => undefined;

  constructor(
    db: Db,
    readonly xumm: XummClient,
    private readonly config: Config,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {
    this.repo = new SigningRepository(db);
  }

  /** Creates a Xaman payload and records it; the response carries the spec's fields. */
  async createSignRequest(req: CreateSignRequest): Promise<SignRequestCreated> {
    if (!req.kind || !/^[a-z0-9_]{1,40}$/.test(req.kind)) throw new ValidationError("kind", "Field 'kind' must be 1-40 characters of a-z, 0-9 or _");
    if (req.wallet !== undefined && !isValidClassicAddress(req.wallet)) throw new ValidationError("walletAddress", "Field 'walletAddress' is not an XRPL address");
    const expireSeconds = req.expireSeconds ?? SIGN_REQUEST_EXPIRY_SECONDS;
    if (!(expireSeconds > 0) || expireSeconds > 86_400) throw new ValidationError("expireSeconds", "Field 'expireSeconds' must be between 1 and 86400");
    const txjson = { ...req.txjson, ...(req.wallet ? { Account: req.wallet } : {}) };
    // Push-to-sign: a request for a known wallet also goes to that wallet's phone (the QR stays).
    const userToken = req.userToken ?? (req.wallet ? await this.pushToken(req.wallet) : undefined);
    // Xaman takes whole minutes; the sandbox honours fractions (tests expire in seconds).
    const expire = this.config.network === "sandbox" ? expireSeconds / 60 : Math.ceil(expireSeconds / 60);
    const created = await this.xumm.createPayload({
      txjson: txjson as never,
      options: {
        submit: req.submit ?? true,
        expire,
        ...(req.returnUrl ? { return_url: { web: req.returnUrl, app: req.returnUrl } } : {}),
      },
      custom_meta: {
        ...(req.instruction ? { instruction: req.instruction } : {}),
        ...(req.reference ? { blob: { kind: req.kind, reference: req.reference } } : { blob: { kind: req.kind } }),
      },
      ...(userToken ? { user_token: userToken } : {}),
    });
    const now = this.clock.now();
    const expiresAt = new Date(now + expireSeconds * 1000);
    await this.repo.insert({
      uuid: created.uuid,
      kind: req.kind,
      clientHash: req.clientToken ? bindingHash(req.clientToken) : null,
      wallet: req.wallet ?? null,
      reference: req.reference ?? null,
      createdAt: new Date(now),
      expiresAt,
    });
    this.log.info("sign request created", { uuid: created.uuid, kind: req.kind, pushed: created.pushed });
    return {
      uuid: created.uuid,
      qrUrl: created.refs.qr_png,
      xummUrl: created.next.always,
      refs: { qr_png: created.refs.qr_png, qr_matrix: created.refs.qr_matrix, websocket_status: created.refs.websocket_status },
      next: { always: created.next.always },
      pushed: created.pushed,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** A Payment request from `wallet` to `destination` (with a destination tag for matching). */
  async createPaymentRequest(req: CreatePaymentRequest): Promise<SignRequestCreated> {
    if (!isValidClassicAddress(req.wallet)) throw new ValidationError("walletAddress", "Field 'walletAddress' is not an XRPL address");
    if (!isValidClassicAddress(req.destination)) throw new ValidationError("destination", "Field 'destination' is not an XRPL address");
    if (req.destinationTag !== undefined && (!Number.isInteger(req.destinationTag) || req.destinationTag < 0 || req.destinationTag > 0xffffffff)) {
      throw new ValidationError("destinationTag", "Field 'destinationTag' must be a whole number from 0 to 4294967295");
    }
    let amount: string | { currency: string; issuer: string; value: string };
    if ("drops" in req.amount) {
      if (req.amount.drops <= 0n) throw new ValidationError("amount", "Field 'amount' must be above 0");
      amount = req.amount.drops.toString();
    } else {
      amount = { currency: req.amount.currency, issuer: req.amount.issuer, value: microToValue(req.amount.micro) };
    }
    const txjson: CreateSignRequest["txjson"] = {
      TransactionType: "Payment",
      Destination: req.destination,
      Amount: amount,
      ...(req.destinationTag !== undefined ? { DestinationTag: req.destinationTag } : {}),
      ...(req.memo ? { Memos: [{ Memo: { MemoData: Buffer.from(req.memo, "utf8").toString("hex").toUpperCase() } }] } : {}),
    };
    return this.createSignRequest({
      kind: req.kind,
      txjson,
      wallet: req.wallet,
      reference: req.reference,
      clientToken: req.clientToken,
      instruction: req.instruction,
      expireSeconds: req.expireSeconds,
      userToken: req.userToken,
    });
  }

  /** The recorded request; 404 when this product did not create `uuid`. */
  async request(uuid: string): Promise<SignRequestRow> {
    const row = await this.repo.get(uuid);
    if (!row) throw new NotFoundError(`No sign request ${uuid}`, "SIGN_REQUEST_NOT_FOUND");
    return row;
  }

  /** Reads a request's outcome from Xaman (the only source of `account`). */
  async status(uuid: string): Promise<SignStatus> {
    const row = await this.request(uuid);
    const payload = await this.xumm.getPayload(uuid);
    if (!payload) throw new NotFoundError(`Xaman does not know sign request ${uuid}`, "SIGN_REQUEST_NOT_FOUND");
    const status = toStatus(row, payload);
    if (status.signed && status.account) await this.repo.recordSigner(uuid, status.account);
    return status;
  }

  /** Cancels a request nobody opened yet (Xaman refuses once the wallet opened it); returns Xaman's verdict. */
  async cancel(uuid: string): Promise<{ cancelled: boolean; reason: string }> {
    await this.request(uuid);
    const res = await this.xumm.cancelPayload(uuid);
    if (!res) throw new NotFoundError(`Xaman does not know sign request ${uuid}`, "SIGN_REQUEST_NOT_FOUND");
    return res;
  }

  /**
   * Claims the one session a signed wallet_connect may yield, for the browser whose binding
   * token created it; false when claimed before, another browser asks, or it is no wallet_connect.
   */
  claimSession(uuid: string, clientToken: string, account: string): Promise<boolean> {
    return this.repo.claimSession(uuid, bindingHash(clientToken), account, this.clock.date());
  }

  /**
   * Follows a sign request until it ends (signed, rejected, cancelled or expired) and calls `onEnd`
   * once with its status as Xaman reports it; a signed request is reported once the ledger's
   * preliminary result is known (or after SETTLE_WAIT_MS). Returns a function that stops following.
   */
  watch(uuid: string, onEnd: (status: SignStatus) => void): () => void {
    let done = false;
    let checking = false;
    let again = false;
    // Elapsed time of this wait, not a product rule: performance.now() does not jump with the sandbox clock.
    const started = performance.now();
    const stop = () => {
      done = true;
      unsubscribe();
      clearTimeout(retry);
    };
    let retry: ReturnType<typeof setTimeout> | undefined;
    const check = async (): Promise<void> => {
      if (done) return;
      if (checking) return void (again = true);
      checking = true;
      try {
        const s = await this.status(uuid);
        const ended = s.expired || s.cancelled || (s.resolved && !s.signed) || (s.signed && s.dispatchedResult !== null);
        const waitedOut = s.signed && performance.now() - started > SETTLE_WAIT_MS;
        if (ended || waitedOut) {
          stop();
          onEnd(s);
        } else if (s.signed) retry = setTimeout(() => void check(), 250);
      } catch (err) {
        this.log.warn("sign request status unavailable", { uuid, error: err instanceof Error ? err.message : String(err) });
      } finally {
        checking = false;
        if (again && !done) {
          again = false;
          void check();
        }
      }
    };
    const unsubscribe = this.xumm.subscribe(uuid, (m) => {
      if (m.signed !== undefined || m.expired !== undefined || m.cancelled !== undefined) void check();
    });
    // It may have ended before the socket opened (or while this process was down).
    void check();
    return stop;
  }

  /** Where push-to-sign settings live (the auth feature; signing never imports it). */
  usePushTokens(resolver: PushTokenResolver): void {
    this.pushToken = resolver;
  }

  /** Lets a game module answer betConfirmed for its bets. */
  onBetConfirmation(confirmer: BetConfirmer): void {
    this.betConfirmers.push(confirmer);
  }

  /** True when a bet module confirms bet `betId` for this signed request. */
  async betConfirmed(betId: string | undefined, status: SignStatus): Promise<boolean> {
    if (!betId || !status.signed) return false;
    for (const confirm of this.betConfirmers) {
      try {
        if (await confirm(betId, status)) return true;
      } catch (err) {
        this.log.warn("bet confirmation failed", { betId, error: err instanceof Error ? err.message : String(err) });
      }
    }
    return false;
  }
}

/** Xaman's payload read as the product's status. */
export function toStatus(row: SignRequestRow, payload: XummPayload): SignStatus {
  const { meta, response } = payload;
  const signed = meta.signed === true;
  const expired = meta.expired === true;
  const rejected = meta.resolved === true && !signed && !meta.cancelled && !expired;
  return {
    uuid: row.uuid,
    kind: row.kind,
    reference: row.reference,
    wallet: row.wallet,
    signed,
    account: signed ? response.account : null,
    cancelled: meta.cancelled === true || rejected,
    rejected,
    expired,
    resolved: meta.resolved === true,
    opened: meta.app_opened === true,
    txid: response.txid ?? null,
    dispatchedResult: response.dispatched_result ?? null,
    issuedUserToken: payload.application?.issued_user_token ?? null,
    expiresInSeconds: payload.payload?.expires_in_seconds ?? 0,
  };
}
