// The entry of the binary and of `bun run start`. Light on purpose: each run imports what it needs once it is known
// which, so the server alone sets the idle JIT scale, and sets it before its modules are evaluated (code that runs
// once stays in the interpreter: jitPolicy.ts); a command keeps the normal policy.
import { LoadFollower, processLoad } from "./jitPolicy";

/** The command line: `vvx` runs the server; `vvx <command>` runs an operator command (help, version, verify, backup, restore, healthcheck, doctor, sandbox) without starting it. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  if (argv.length > 0) {
    const { runCommand } = await import("./commands");
    process.exit(await runCommand(argv));
  }
  const jit = new LoadFollower(processLoad());
  jit.idle();
  const { serve } = await import("./server");
  await serve(jit);
}

if (import.meta.main) await main();
