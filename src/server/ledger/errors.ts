import { ConnectionError, RippledError, XrplError } from "xrpl";
import { ConflictError, UpstreamError } from "../platform/errors";

/** 503: the ledger cannot be reached right now (not connected, dropped, timed out). */
export class LedgerUnavailableError extends UpstreamError {
  constructor(message = "The XRP Ledger is unreachable right now. Try again shortly.") {
    super(message, "LEDGER_UNAVAILABLE", 503);
  }
}

/** 502: the ledger answered with an error (rippled's error name is kept in `ledgerError`). */
export class LedgerRequestError extends UpstreamError {
  constructor(
    readonly ledgerError: string,
    message: string,
    readonly command?: string,
    /** The whole error response as rippled sent it (e.g. txnNotFound carries searched_all). */
    readonly response?: Record<string, unknown>,
  ) {
    super(message, "LEDGER_ERROR", 502);
  }
}

/** 409: an outbox key was reused for a different transaction; one key is one transaction, ever. */
export class OutboxConflictError extends ConflictError {
  constructor(key: string) {
    super("OUTBOX_KEY_CONFLICT", `Outbox key "${key}" is already used for a different transaction`);
  }
}

/** Maps whatever xrpl.js threw to the server's typed ledger errors. */
export function toLedgerError(err: unknown, command?: string): Error {
  if (err instanceof LedgerUnavailableError || err instanceof LedgerRequestError) return err;
  if (err instanceof RippledError) {
    const data = (err.data ?? {}) as { error?: string; error_message?: string; error_exception?: string };
    const name = data.error ?? "unknown";
    return new LedgerRequestError(name, `Ledger error ${name}: ${data.error_message ?? data.error_exception ?? err.message}`, command, data as Record<string, unknown>);
  }
  if (err instanceof ConnectionError) return new LedgerUnavailableError(`The XRP Ledger is unreachable: ${err.message}`);
  if (err instanceof XrplError) return new LedgerRequestError(err.name, err.message, command);
  return err instanceof Error ? err : new Error(String(err));
}
