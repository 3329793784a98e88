/**
 * One rule, for the server and the browser, for when a transaction signed in Xaman "failed on the
 * ledger": its engine result is final and not a success. tec (fee claimed, nothing else done),
 * tef, tem and tel never become tesSUCCESS; ter (terQUEUED, terPRE_SEQ ...) may still apply.
 */
export function isFailedResult(engineResult: string | null | undefined): boolean {
  return typeof engineResult === "string" && /^te[cfml]/.test(engineResult);
}

/** A sign request's outcome as far as the rule needs it. */
export interface SignedOutcome {
  signed: boolean;
  dispatchedResult?: string | null;
}

/** The failing engine result of a signed request's transaction, or null when it did not fail (yet). */
export function failedOnLedger(status: SignedOutcome): string | null {
  return status.signed && isFailedResult(status.dispatchedResult) ? status.dispatchedResult! : null;
}
