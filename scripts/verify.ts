// `bun run verify <game> ...`: the binary's `vvx verify` (src/server/ops/verify.ts), from the source tree.
import { verifyCommand } from "../src/server/ops/verify";

process.exit(verifyCommand(process.argv.slice(2), "bun run verify"));
