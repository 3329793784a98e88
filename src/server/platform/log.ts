/** A minimal structured logger: one line per event, key=value fields, never secrets. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** True when info lines go nowhere (QUIET): work done only to write one can be skipped. */
  readonly quietInfo?: boolean;
}

function format(level: string, message: string, fields?: Record<string, unknown>): string {
  const parts = [new Date().toISOString(), level, message];
  for (const [k, v] of Object.entries(fields ?? {})) {
    if (v === undefined) continue;
    parts.push(`${k}=${typeof v === "string" && !/\s/.test(v) ? v : JSON.stringify(v)}`);
  }
  return parts.join(" ");
}

export function createLogger(quiet = false): Logger {
  return {
    quietInfo: quiet,
    info: (m, f) => quiet || console.log(format("INFO", m, f)),
    warn: (m, f) => console.warn(format("WARN", m, f)),
    error: (m, f) => console.error(format("ERROR", m, f)),
  };
}

/** A logger that keeps lines in memory (tests read them). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m, f) => void lines.push(format("INFO", m, f)),
    warn: (m, f) => void lines.push(format("WARN", m, f)),
    error: (m, f) => void lines.push(format("ERROR", m, f)),
  };
}
