import type { ErrorCode } from "../../shared/errorCodes";

export type { ErrorCode } from "../../shared/errorCodes";

/**
 * One error type for the whole server: a machine `code`, an HTTP `status` and a
 * message for people. Routes throw these; the global handler turns them into
 * DESIGN.md's JSON shape. The same codes travel on WebSocket `error` messages.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: input that fails validation; the message names the field. */
export class ValidationError extends AppError {
  constructor(readonly field: string, message: string) {
    super(400, "VALIDATION_ERROR", message, { field });
  }
}

/** 401: the caller needs a wallet session. */
export class UnauthorizedError extends AppError {
  constructor(message = "Connect your wallet first") {
    super(401, "UNAUTHORIZED", message);
  }
}

/** 403: a session exists but may not act for this wallet or resource. */
export class ForbiddenError extends AppError {
  constructor(message = "You may only act for your own connected wallet", code: ErrorCode = "FORBIDDEN") {
    super(403, code, message);
  }
}

/** 404: the named thing does not exist. */
export class NotFoundError extends AppError {
  constructor(message = "Not found", code: ErrorCode = "NOT_FOUND") {
    super(404, code, message);
  }
}

/** 409: the request conflicts with current state (sold out, already claimed, ...). */
export class ConflictError extends AppError {
  constructor(code: ErrorCode, message: string) {
    super(409, code, message);
  }
}

/** 429: too many requests from one client. */
export class RateLimitError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "RATE_LIMITED", `Too many requests. Try again in ${retryAfterSeconds} s.`);
  }
}

/** 503 `degraded`: another process holds the database's write lock, so nothing that writes can be done now. */
export class DatabaseBusyError extends AppError {
  /** Retry-After of the answer: the lock is checked again every quarter second. */
  readonly retryAfterSeconds = 1;

  constructor() {
    super(503, "DATABASE_BUSY", "The database is busy. Please try again in a moment.", { status: "degraded" });
  }
}

/** 503: in a cluster, the leader (which runs the games) did not answer in time, or no instance leads (a failover). */
export class NoLeaderError extends AppError {
  readonly retryAfterSeconds = 2;

  constructor(message = "The game server is changing hands. Please try again in a moment.") {
    super(503, "NO_LEADER", message);
  }
}

/** 502/503: a dependency (ledger, Xaman) failed or is unreachable. */
export class UpstreamError extends AppError {
  constructor(message: string, code: ErrorCode = "UPSTREAM_UNAVAILABLE", status = 503) {
    super(status, code, message);
  }
}

/** 503 while the server drains before a restart: nothing new is taken, what is open finishes. */
export class DrainingError extends AppError {
  constructor() {
    super(503, "DRAINING", "The server is restarting for an upgrade: new bets and purchases open again in a moment.");
  }
}

/** The JSON body every error response carries. */
export function errorBody(err: AppError) {
  return {
    success: false as const,
    error: err.message,
    message: err.message,
    code: err.code,
    ...(err.details ?? {}),
  };
}
