// `bun scripts/promises.ts --typecheck` under Node, as scripts/test.sh runs it beside the tests (bundled for Node
// first; the project's root is the argument). Node's V8 runs the compiler in less CPU than Bun's JavaScriptCore:
// 24-26 s against 32 s for this project's program (3,083 files), alternated on 2 cores, same diagnostics.
import { checkProject } from "../promises";

process.exit(checkProject(process.argv[2]!, true));
