// The JIT policy of a serving process follows its load. JavaScriptCore tiers code up (baseline JIT, DFG, FTL)
// once it has run often enough; an idle server's background work (ledger closes, the crash chain's walk at
// start, the loops' small reads) reached the DFG tier within seconds, and the first DFG compile keeps the DFG
// compiler's own code resident: 2.4 MiB of the binary's pages, plus the JIT code. At IDLE_JIT_SCALE the tier-up
// thresholds are that many times higher, so an idle server compiles nothing past the interpreter and its idle
// CPU does not rise (the compiles cost more than they saved). Once the process is busy the normal policy (1)
// returns within a second, so requests and game rounds under load get the JIT as before.

/** The tier-up scale while the process is idle (Bun.unsafe.setJITPolicy); the binary also starts with it (scripts/build.ts). */
export const IDLE_JIT_SCALE = 10_000;
/** CPU time per second of wall time above which the process counts as busy: an idle server uses 5 to 9 ms/s. */
export const BUSY_CPU_MS_PER_S = 100;
/** Quiet samples in a row (one a second) before a busy process goes back to the idle scale. */
export const QUIET_SAMPLES = 30;
/** How often the process's CPU time is sampled. */
const SAMPLE_EVERY_MS = 1_000;

export type JitState = "idle" | "busy";

export interface LoadFollowerOptions {
  /** The process's CPU time so far, in ms (user + system). */
  cpuMs?: () => number;
  /** Wall time in ms (monotonic). */
  nowMs?: () => number;
  /** Applies a tier-up scale. */
  setScale?: (scale: number) => void;
}

const processCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Samples the process's CPU once a second and sets the JIT's scale: IDLE_JIT_SCALE while it uses less than
 * BUSY_CPU_MS_PER_S, 1 from the first busy second until QUIET_SAMPLES quiet ones in a row. Start it once the
 * start-up's own work is over (the chain walk would count as load).
 */
export class LoadFollower {
  private readonly cpuMs: () => number;
  private readonly nowMs: () => number;
  private readonly setScale: (scale: number) => void;
  private last: { cpu: number; at: number } | undefined;
  private quiet = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private current: JitState = "idle";

  constructor(options: LoadFollowerOptions = {}) {
    this.cpuMs = options.cpuMs ?? processCpuMs;
    this.nowMs = options.nowMs ?? (() => performance.now());
    this.setScale = options.setScale ?? ((scale) => Bun.unsafe.setJITPolicy(scale));
  }

  get state(): JitState {
    return this.current;
  }

  /** Sets the idle scale and samples every second (the timer keeps no process alive). */
  start(): void {
    this.setScale(IDLE_JIT_SCALE);
    this.sample();
    this.timer ??= setInterval(() => this.sample(), SAMPLE_EVERY_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One sample: the CPU per second since the last one decides the state (the first only takes a reference). */
  sample(): void {
    const now = { cpu: this.cpuMs(), at: this.nowMs() };
    const last = this.last;
    this.last = now;
    if (!last || now.at <= last.at) return;
    const busy = ((now.cpu - last.cpu) * 1000) / (now.at - last.at) > BUSY_CPU_MS_PER_S;
    this.quiet = busy ? 0 : this.quiet + 1;
    if (busy && this.current === "idle") this.enter("busy", 1);
    else if (this.current === "busy" && this.quiet >= QUIET_SAMPLES) this.enter("idle", IDLE_JIT_SCALE);
  }

  private enter(state: JitState, scale: number): void {
    this.current = state;
    this.setScale(scale);
  }
}
