// Preloaded by `bun test` (bunfig.toml): integration and browser tests drive real
// servers, the sandbox ledger and Chromium, so a test may take longer than Bun's 5 s default.
import { setDefaultTimeout } from "bun:test";

setDefaultTimeout(60_000);
