// `bun run verify <game> ...` and `bun run verify <url>`: the binary's `vvx verify` (src/server/ops/verify.ts), from the source tree.
import { verifyCommand } from "../src/server/ops/verify";

process.exit(await verifyCommand(process.argv.slice(2), "bun run verify"));
