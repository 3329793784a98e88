/** Bad input to an engine function; `field` names the argument so callers can report it (HTTP 400, CLI usage). */
export class EngineInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
    this.name = "EngineInputError";
  }
}

/** Throws EngineInputError unless `value` is a whole number in [min, max]. */
export function assertInteger(field: string, value: number, min: number, max: number = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new EngineInputError(field, `must be a whole number from ${min} to ${max}, got ${String(value)}`);
  }
}
