import { SLOT_PACKAGES } from "../../../engine";
import { AppError, ValidationError } from "../../platform/errors";

/** Payment purpose registered with the watcher for package payments. */
export const SLOTS_PACKAGE_PURPOSE = "slots_package";
/** Outbox purpose of winnings payments. */
export const SLOTS_PAYOUT_PURPOSE = "slots_payout";
/** A package's Xaman sign request lives 5 minutes (the QR dialog polls about that long). */
export const PACKAGE_SIGN_SECONDS = 300;
/** The payment request stays open a minute longer, for a payment signed in the last seconds. */
export const PACKAGE_PAYMENT_GRACE_SECONDS = 60;
/** A session expires this long after its purchase or its last spin; unplayed paid spins are then refunded. */
export const SESSION_IDLE_MS = 7 * 24 * 3_600_000;
/** Spin cost of wheel spins (the spec: spins at 1,000 VVX). */
export const BONUS_SPIN_COST_VVX = 1_000;

/** Outbox keys: a payout's first attempt (later ones are the outbox's `<key>#<n>`), one per session refund. */
export const slotKeys = {
  payout: (payoutId: number) => `slots:payout:${payoutId}:1`,
  expiryRefund: (sessionId: string) => `slots:session:${sessionId}:refund`,
};

export type SessionKind = "package" | "bonus";
export type SessionStatus = "active" | "completed" | "expired";
export type PurchaseStatus = "awaiting_payment" | "paid" | "refunded" | "expired";
export type PayoutStatus = "pending" | "validated" | "failed";

/** Error codes of the slots API (the spec's 403s carry the reason in `code`). */
export const SLOTS_ERRORS = {
  sessionNotFound: "SESSION_NOT_FOUND",
  sessionExpired: "SESSION_EXPIRED",
  sessionFinished: "NO_SPINS_LEFT",
  sessionForbidden: "SESSION_NOT_YOURS",
  sessionActive: "SESSION_ACTIVE",
  paymentNotFound: "PAYMENT_NOT_FOUND",
} as const;

/** 403: the spin cannot use this session (the spec: "a 403 means session expired or invalid"). */
export class SessionRefusedError extends AppError {
  constructor(code: (typeof SLOTS_ERRORS)[keyof typeof SLOTS_ERRORS], message: string) {
    super(403, code, message);
  }
}

/** The package indexes as a sentence ("0, 1, 2 or 3"), from the engine's table. */
const PACKAGE_INDEXES = SLOT_PACKAGES.map((p) => String(p.index)).join(", ").replace(/, (\d+)$/, " or $1");

/** Parses a package index (one of the engine's SLOT_PACKAGES) from a body; 400 naming the field. */
export function parseTierIndex(value: unknown, field = "tierIndex"): number {
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,2}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!SLOT_PACKAGES.some((p) => p.index === n)) throw new ValidationError(field, `Field '${field}' must be a package index: ${PACKAGE_INDEXES}`);
  return n;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Parses a session id (a UUID); 400 naming the field. */
export function parseSessionId(value: unknown, field = "sessionId"): string {
  if (typeof value !== "string" || !value.trim()) throw new ValidationError(field, `Field '${field}' is required`);
  const id = value.trim().toLowerCase();
  if (!UUID.test(id)) throw new ValidationError(field, `Field '${field}' must be a session id (a UUID)`);
  return id;
}

/** Parses a spin id cursor (`before`) from a query; 400 naming it. */
export function parseSpinCursor(value: unknown): number | undefined {
  if (value === undefined || value === "") return undefined;
  return parseSpinId(value, "before");
}

/** Parses a spin id (a path's or a query's); 400 naming the field. */
export function parseSpinId(value: unknown, field = "id"): number {
  const n = typeof value === "string" && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new ValidationError(field, `Field '${field}' must be a spin id`);
  return n;
}
