import type { Amount } from "xrpl";
import type { OutboxEntry, OutboxInput, DbOrTx } from "../ledger/outbox";

/** Currencies a payment request can ask for: XRP (amounts in drops) or VVX (amounts in micro-VVX). */
export const PAYMENT_CURRENCIES = ["XRP", "VVX"] as const;
export type PaymentCurrency = (typeof PAYMENT_CURRENCIES)[number];

/** open: waiting; credited: paid in full; expired: no on-time payment came; refunded: refused by its feature; cancelled: withdrawn. */
export const REQUEST_STATUS = { open: "open", credited: "credited", expired: "expired", refunded: "refunded", cancelled: "cancelled" } as const;
export type PaymentRequestStatus = (typeof REQUEST_STATUS)[keyof typeof REQUEST_STATUS];

/** Why an incoming payment was (partly) refunded or not refunded. */
export const REFUND_REASON = {
  unknownTag: "unknown_tag",
  expired: "expired",
  short: "short",
  alreadyCredited: "already_credited",
  requestClosed: "request_closed",
  wrongCurrency: "wrong_currency",
  wrongIssuer: "wrong_issuer",
  wrongSender: "wrong_sender",
  overpaid: "overpaid",
  handlerError: "handler_error",
  /** No DestinationTag and not from one of the operator's funding accounts. */
  untagged: "untagged",
} as const;

/** Why an untagged payment was kept: from a funding account, or a refund coming back (never refunded again). */
export const KEEP_REASON = { funder: "funder", refundReturned: "refund_returned" } as const;

/** What became of an incoming payment: credited (maybe with the excess refunded), refunded in full, kept as an untagged deposit (see KEEP_REASON), or held (amount unknowable). */
export type IncomingOutcome = "credited" | "refunded" | "deposit" | "held";

export interface PaymentRequest {
  id: number;
  purpose: string;
  refId: string | null;
  wallet: string | null;
  currency: PaymentCurrency;
  /** Drops (XRP) or micro-VVX. */
  amount: bigint;
  destinationTag: number;
  status: PaymentRequestStatus;
  expiresAt: Date;
  createdAt: Date;
  creditedAt: Date | null;
  creditTxHash: string | null;
  payer: string | null;
}

/** What a wallet needs to pay a request: the request plus the platform address and the ledger amount. */
export interface PaymentInstructions extends PaymentRequest {
  destination: string;
  ledgerAmount: Amount;
}

export interface CreatePaymentRequestInput {
  /** Feature name (nft-purchase, slots-package, ...); handlers are registered per purpose. */
  purpose: string;
  /** The wallet that must pay; omit (or null) to accept any payer. */
  wallet?: string | null;
  /** Drops (XRP) or micro-VVX; a positive bigint. */
  amount: bigint;
  currency: PaymentCurrency;
  expiresAt: Date;
  /** The feature's own id for this request. */
  refId?: string | null;
}

/** An incoming payment as the watcher saw it on a validated ledger. */
export interface IncomingPayment {
  txHash: string;
  ledgerIndex: number;
  sender: string;
  destinationTag: number | null;
  /** meta.delivered_amount exactly as on the ledger (never Amount/DeliverMax). */
  delivered: Amount;
  /** "XRP", "VVX" (the configured token) or "other". */
  kind: "XRP" | "VVX" | "other";
  /** Delivered drops or micro-VVX (micro-VVX truncated); null for other currencies. */
  deliveredUnits: bigint | null;
  closedAt: Date | null;
  /** The transaction's memos, hex-decoded (a refund names the payment it returns there). */
  memos: { type: string; data: string }[];
}

/** A feature's verdict on a payment that otherwise fully pays its request. */
export type PaymentDecision = { accept: true } | { accept: false; reason: string };

export interface PaymentHandlerContext {
  /** The open transaction the credit commits in: write the feature's own rows here (e.g. reserve supply). */
  db: DbOrTx;
  request: PaymentRequest;
  payment: IncomingPayment;
  /** Records an outbox entry in the same transaction (e.g. the NFT mint), sent after commit. */
  enqueue(input: OutboxInput): Promise<OutboxEntry>;
  /** Runs `fn` after the credit commits (pushes: nothing that must be durable); dropped if the handler throws. */
  after(fn: () => void): void;
}

/**
 * Decides, inside the credit's transaction (database work only, no network), whether a payment is honoured.
 * Return {accept:false, reason:"sold_out"} to refund it; a throw refunds it as handler_error.
 */
export type PaymentHandler = (ctx: PaymentHandlerContext) => Promise<PaymentDecision> | PaymentDecision;

/**
 * The watcher's refund of a payment to one of the feature's requests settled (validated, or failed): runs
 * inside the settling transaction, once; `after` runs after the commit (pushes).
 */
export type RefundSettledHandler = (ctx: { db: DbOrTx; requestId: number; entry: OutboxEntry; after(fn: () => void): void }) => Promise<void> | void;

export interface PaymentCredited {
  requestId: number;
  purpose: string;
  refId: string | null;
  wallet: string | null;
  payer: string;
  currency: PaymentCurrency;
  /** The request's price, in drops or micro-VVX. */
  amount: bigint;
  /** What arrived (>= amount; any excess is being refunded). */
  delivered: bigint;
  txHash: string;
  ledgerIndex: number;
}

export interface PaymentRefunding {
  txHash: string;
  requestId: number | null;
  purpose: string | null;
  refId: string | null;
  sender: string;
  reason: string;
  /** The amount sent back, as a ledger amount. */
  refund: Amount;
  /** Outbox key of the refund transaction (outbox.waitFor(refundKey) resolves when it is on the ledger). */
  refundKey: string;
}

export interface PaymentEvents {
  /** A request was paid in full and accepted (emitted after commit; durable reactions belong in a handler). */
  "payment.credited": PaymentCredited;
  /** A payment (or its excess) is being refunded through the outbox. */
  "payment.refunding": PaymentRefunding;
  /** An untagged payment kept as a treasury deposit. */
  "payment.deposit": { txHash: string; sender: string; delivered: Amount; ledgerIndex: number };
  /** A request saw no on-time payment before it expired. */
  "request.expired": { requestId: number; purpose: string; refId: string | null };
  /** Every ledger up to ledgerIndex has been processed. */
  "watcher.caughtUp": { ledgerIndex: number };
}
