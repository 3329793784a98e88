// Facts of the crash chains' commitments that the server acts on and /fair publishes: one place for both.

/** A chain's salt is the hash of the validated ledger this many ledgers after its commitment's. */
export const SALT_LEDGER_OFFSET = 10;
/** MemoType (as text) of the AccountSet memo that commits a chain's terminating hash. */
export const COMMIT_MEMO_TYPE = "vvx/crash-chain";
/** Where the server serves the standalone verifier (its source: src/verifier/vvx-verifier.html). */
export const VERIFIER_PATH = "/fair/vvx-verifier.html";
