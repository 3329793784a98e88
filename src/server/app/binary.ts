import type { Config } from "../platform/config";
import { createLogger } from "../platform/log";
import { KEPT_SIGNATURES, signGenesis } from "../sandbox";

/**
 * What `bun run build` hands the binary besides the SPA: the signed transactions of a sandbox genesis
 * made once at build with `config`'s seed and currency, as the global the sandbox's faucet reads
 * (KEPT_SIGNATURES), so a fresh data directory's genesis is not signed again at start-up.
 */
export function keptGenesis(config: Pick<Config, "sandboxSeed" | "sandboxLedgerMs" | "vvxCurrency">): { symbol: string; blobs: Record<string, string> } {
  return { symbol: KEPT_SIGNATURES.description!, blobs: signGenesis(config, createLogger(true)) };
}
