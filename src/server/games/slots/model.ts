import { t } from "elysia";
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

/** Parses `limit` from a query (1..max, default); 400 naming it. */
export function parseLimit(value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === "") return fallback;
  const n = typeof value === "string" && /^\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) throw new ValidationError("limit", `Field 'limit' must be a whole number from 1 to ${max}`);
  return n;
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

const Vvx = (description: string) => t.Number({ description: `${description}, in whole VVX` });

export const SessionView = t.Object({
  session_id: t.String(),
  sessionId: t.String(),
  remaining_spins: t.Number(),
  remainingSpins: t.Number(),
  total_spins: t.Number(),
  totalSpins: t.Number(),
  spin_cost: Vvx("Cost of one spin"),
  spinCost: Vvx("Cost of one spin"),
  sessionType: t.String({ description: "Standard, High Limit, or Bonus (daily-wheel spins)" }),
  kind: t.String({ description: "package or bonus" }),
  packageName: t.Union([t.String(), t.Null()]),
  bonusSpins: t.Number({ description: "Spins the daily wheel added to this session" }),
  totalWinnings: Vvx("Sum of totalPayout of the session's spins"),
  totalWinningsPaid: Vvx("Of which already validated on the ledger"),
  status: t.String({ description: "active, completed or expired" }),
  createdAt: t.String(),
  expiresAt: t.String(),
  queuedSessions: t.Number({ description: "Other active sessions of the wallet, played after this one" }),
  refund: t.Union([t.Null(), t.Object({ amount: Vvx("Refund of unplayed paid spins"), txid: t.Union([t.String(), t.Null()]) })]),
});

export const PaymentView = t.Object({
  uuid: t.String(),
  qrUrl: t.String(),
  xummUrl: t.String(),
  refs: t.Object({ qr_png: t.String(), qr_matrix: t.String(), websocket_status: t.String() }),
  next: t.Object({ always: t.String() }),
  purchaseId: t.String(),
  packageName: t.String(),
  amount: Vvx("Package price"),
  destination: t.String(),
  destinationTag: t.Number(),
  expiresAt: t.String(),
});

export const SpinView = t.Object({
  spinId: t.Number(),
  reels: t.Array(t.String(), { description: "Symbol names, left to right" }),
  isWin: t.Boolean({ description: "Three of a kind that pays (incl. three Dice)" }),
  winAmount: Vvx("Three-of-a-kind payout"),
  partialPayout: Vvx("Sum of the partial payouts (when not three of a kind)"),
  totalPayout: Vvx("What the spin pays"),
  winType: t.String({ description: "three_of_a_kind, mystery, partial or none" }),
  multiplier: t.Number({ description: "totalPayout / spin cost" }),
  mysteryMultiple: t.Number(),
  payoutTxid: t.Union([t.String(), t.Null()]),
  serverSeedHash: t.String(),
  committedAt: t.String({ description: "When the server seed's hash was first shown" }),
  clientSeed: t.String(),
  nonce: t.Number(),
});

export const SpinBody = t.Object({ sessionId: t.String(), walletAddress: t.Optional(t.String()) });
export const CreateSessionBody = t.Object({ walletAddress: t.Optional(t.String()), tierIndex: t.Union([t.Number(), t.String()]) });

export const SpinResult = t.Object({
  success: t.Literal(true),
  spin: SpinView,
  remainingSpins: t.Number(),
  sessionStatus: t.String({ description: "active or completed" }),
  session: SessionView,
});

export const SpinListItem = t.Object({
  spinId: t.Number(),
  sessionId: t.String(),
  walletAddress: t.String(),
  serverSeedHash: t.String(),
  committedAt: t.Union([t.String(), t.Null()], { description: "When the server seed's hash was first shown" }),
  serverSeed: t.Union([t.String(), t.Null()], { description: "Revealed once the wallet rotated its seed" }),
  clientSeed: t.String(),
  nonce: t.Number(),
  reels: t.Array(t.String()),
  winType: t.String(),
  mysteryMultiple: t.Number({ description: "The Dice mystery multiple drawn (paid only on three Dice)" }),
  multiplier: t.Number({ description: "totalPayout / spin cost" }),
  spinCost: t.Number(),
  totalPayout: t.Number(),
  payoutTxid: t.Union([t.String(), t.Null()]),
  payoutStatus: t.String({ description: "none (nothing won), queued, pending, validated or failed" }),
  createdAt: t.String(),
});

/** One spin and the payout payment that carried its winnings (with the other spins it carried). */
export const SpinDetail = t.Object({
  success: t.Literal(true),
  spin: SpinListItem,
  payout: t.Union([
    t.Null(),
    t.Object({
      payoutId: t.Number(),
      amount: Vvx("The payment's amount: the sum of its spins' totalPayout"),
      spinIds: t.Array(t.Number()),
      status: t.String({ description: "pending, validated or failed" }),
      txid: t.Union([t.String(), t.Null()]),
    }),
  ]),
});
