import type { Config } from "../platform/config";
import { createLogger, type Logger } from "../platform/log";

/** The logger the configuration asks for (LOG_FORMAT, LOG_LEVEL; QUIET drops the request lines only). */
export function loggerFor(config: Pick<Config, "logFormat" | "logLevel" | "logRequests">): Logger {
  return createLogger({ format: config.logFormat, level: config.logLevel, requests: config.logRequests });
}

/** The server cannot listen on HOST:PORT: the message names them and what to change. */
export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ListenError";
  }
}

/** Turns Bun's listen failure into a ListenError; undefined for other errors. */
export function listenError(config: Pick<Config, "host" | "port">, err: unknown): ListenError | undefined {
  const { code, syscall } = (err ?? {}) as { code?: unknown; syscall?: unknown };
  if (syscall !== "listen" || typeof code !== "string") return undefined;
  const where = `${config.host}:${config.port}`;
  if (code === "EADDRINUSE") return new ListenError(`${where} is in use by another program. Stop it, or set PORT to a free port.`);
  if (code === "EACCES") return new ListenError(`${where} needs privileges this user does not have (ports below 1024). Set PORT to 1024 or above.`);
  if (code === "EADDRNOTAVAIL") return new ListenError(`HOST ${config.host} is not an address of this machine. Set HOST to one of its addresses, 0.0.0.0 (all) or 127.0.0.1.`);
  return new ListenError(`cannot listen on ${where} (${code}). Check HOST and PORT.`);
}

