/** A minimal structured logger: one line per event, key=value fields (or one JSON object), never secrets. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** True when info lines go nowhere (LOG_LEVEL above info): work done only to write one can be skipped. */
  readonly quietInfo?: boolean;
  /** False when the one line per HTTP request is not written (QUIET, or info lines off). */
  readonly requests?: boolean;
}

export interface LoggerOptions {
  /** text: `time LEVEL message k=v ...`; json: `{"time","level","message",...fields}` a line, for log shippers. */
  format?: "text" | "json";
  /** The least severe level written. */
  level?: "info" | "warn" | "error";
  /** Whether request lines are written (QUIET turns them off, and only them). */
  requests?: boolean;
}

const LEVELS = { info: 0, warn: 1, error: 2 } as const;

function text(level: string, message: string, fields?: Record<string, unknown>): string {
  const parts = [new Date().toISOString(), level.toUpperCase(), message];
  for (const [k, v] of Object.entries(fields ?? {})) {
    if (v === undefined) continue;
    parts.push(`${k}=${typeof v === "string" && !/\s/.test(v) ? v : JSON.stringify(v, plain)}`);
  }
  return parts.join(" ");
}

/** One JSON object: time, level and message first (a field of the same name does not replace them), then the fields. */
function json(level: string, message: string, fields?: Record<string, unknown>): string {
  return JSON.stringify({ time: new Date().toISOString(), level, message, ...withoutBase(fields) }, plain);
}

function withoutBase(fields?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!fields || !("time" in fields || "level" in fields || "message" in fields)) return fields;
  const { time, level, message, ...rest } = fields;
  return { ...rest, fieldTime: time, fieldLevel: level, fieldMessage: message };
}

/** Bigints (money) as their digits, errors as their message: what JSON.stringify cannot write. */
function plain(_key: string, v: unknown): unknown {
  if (typeof v === "bigint") return v.toString();
  if (v instanceof Error) return v.message;
  return v;
}

/** The server's logger; `true` (the old "quiet") keeps only warnings and errors. */
export function createLogger(options: LoggerOptions | boolean = {}): Logger {
  const o: LoggerOptions = typeof options === "boolean" ? { level: options ? "warn" : "info" } : options;
  const line = o.format === "json" ? json : text;
  const min = LEVELS[o.level ?? "info"];
  const quietInfo = min > LEVELS.info;
  return {
    quietInfo,
    requests: !quietInfo && o.requests !== false,
    info: (m, f) => quietInfo || console.log(line("info", m, f)),
    warn: (m, f) => min <= LEVELS.warn && console.warn(line("warn", m, f)),
    error: (m, f) => console.error(line("error", m, f)),
  };
}

/** A logger that keeps lines in memory (tests read them). */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m, f) => void lines.push(text("info", m, f)),
    warn: (m, f) => void lines.push(text("warn", m, f)),
    error: (m, f) => void lines.push(text("error", m, f)),
  };
}
