import { Elysia, ValidationError as ElysiaValidationError } from "elysia";
import { isBusyError, reportIfCorrupt } from "../db";
import { AppError, DatabaseBusyError, ValidationError, errorBody } from "../errors";
import type { Logger } from "../log";
import { isApiPath } from "../../../shared/routes";
import { spaNotFound } from "./spa";
import { logRequest } from "./requestLog";
import type { SecurityHeaders } from "./securityHeaders";

/** What the error handler answers unknown pages with, and the headers it adds to every error. */
export interface ErrorPages {
  /** The SPA's 404 page for an unknown client path. */
  notFound(requestUrl: string): Promise<Response>;
  headers?: SecurityHeaders;
  /** Told when a request found the database locked by another process (so later writes are refused at once). */
  onBusy?: () => void;
}

/** Longest field name and reason an error message quotes (the input never comes back in bulk). */
const MAX_FIELD_CHARS = 100;
const MAX_REASON_CHARS = 200;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** Turns an Elysia schema failure into a message that names the field (only the first problem, clipped). */
export function describeValidation(error: ElysiaValidationError): ValidationError {
  const where = error.type === "query" ? "query" : error.type === "params" ? "path" : error.type === "body" ? "body" : error.type;
  const first = (error.all ?? [])[0] as { path?: string; summary?: string; message?: string } | undefined;
  const field = clip(first?.path ? first.path.replace(/^\//, "").replace(/\//g, ".") : "", MAX_FIELD_CHARS);
  if (!field) {
    return new ValidationError(where, `Invalid request ${where}: ${clip(first?.summary ?? first?.message ?? "does not match the expected shape", MAX_REASON_CHARS)}`);
  }
  const reason = clip((first?.summary ?? first?.message ?? "is invalid").replace(/^Property '[^']*' /, "").replace(/^Expected /, "expected "), MAX_REASON_CHARS);
  return new ValidationError(field, `Invalid ${where} field '${field}': ${reason}`);
}

/**
 * The error handler's answer for a refusal made outside Elysia (routes Bun serves itself, such
 * as the /ws upgrade): the same status, JSON body and headers.
 */
export function errorResponse(appError: AppError, path: string, headers?: SecurityHeaders): Response {
  return new Response(JSON.stringify(errorBody(appError)), {
    status: appError.status,
    headers: { ...headers?.resource(path), "content-type": "application/json; charset=utf-8" },
  });
}

/**
 * A failure that is ours (no AppError, no locked database): a corrupt database file is reported, the error logged with
 * `path`, and the answer is the API's INTERNAL_ERROR (HTTP and every socket answer with it).
 */
export function unexpectedError(error: unknown, log: Logger, what: string, path: string): AppError {
  reportIfCorrupt(error);
  log.error(what, { path, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return new AppError(500, "INTERNAL_ERROR", "Something went wrong on our side. Please try again.");
}

/**
 * The one global error handler: typed AppErrors keep their status and code,
 * schema and parse failures become 400s naming the field, anything else is
 * logged and answered as a 500 without internal details.
 */
export function errorHandler(log: Logger, pages: ErrorPages = { notFound: spaNotFound }) {
  return new Elysia({ name: "error-handler" }).onError({ as: "global" }, ({ code, error, set, request }) => {
    let appError: AppError;
    const path = new URL(request.url).pathname;
    // A response that breaks its own schema is the server's bug, not the client's: logged, answered 500.
    const badResponse = code === "VALIDATION" && (error as ElysiaValidationError).type === "response";
    if (error instanceof AppError) appError = error;
    else if (code === "VALIDATION" && !badResponse) appError = describeValidation(error as ElysiaValidationError);
    // The request guard's refusals (size, depth, media type, origin) arrive wrapped in Elysia's ParseError.
    else if (code === "PARSE") appError = (error as Error).cause instanceof AppError ? ((error as Error).cause as AppError) : new ValidationError("body", "Request body is not valid JSON");
    else if (code === "NOT_FOUND") {
      logRequest(log, request.method, path, 404);
      if (request.method === "GET" && !isApiPath(path)) return pages.notFound(request.url);
      appError = new AppError(404, "NOT_FOUND", `No API route for ${request.method} ${path}`);
    } else if (code === "INVALID_COOKIE_SIGNATURE") appError = new AppError(401, "INVALID_SESSION", "Session cookie is invalid");
    else if (isBusyError(error)) {
      log.warn("database busy", { path, error: error instanceof Error ? error.message : String(error) });
      pages.onBusy?.();
      appError = new DatabaseBusyError();
    } else if (typeof code === "number") appError = new AppError(code, `HTTP_${code}` as const, String((error as { response?: unknown }).response ?? error));
    else appError = unexpectedError(error, log, "unhandled error", path);
    set.status = appError.status;
    if ("retryAfterSeconds" in appError) set.headers["retry-after"] = String(appError.retryAfterSeconds);
    Object.assign(set.headers, pages.headers?.resource(path));
    set.headers["content-type"] = "application/json; charset=utf-8";
    return errorBody(appError);
  });
}
