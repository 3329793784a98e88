// The JIT policy of the serving process follows its load. JavaScriptCore tiers code up (baseline JIT, DFG, FTL)
// once it has run often enough; an idle server's background work (ledger closes, the crash chain's walk at
// start, the loops' small reads) reached the DFG tier within seconds, and the first DFG compile keeps the DFG
// compiler's own code resident: 2.4 MiB of the binary's pages, plus the JIT code. At IDLE_JIT_SCALE the tier-up
// thresholds are that many times higher, so an idle server compiles nothing past the interpreter and its idle
// CPU does not rise (the compiles cost more than they saved). Once the process is busy the normal policy (1)
// returns within a second, so requests and game rounds under load get the JIT as before. Only the long-running
// server follows it (main): an operator command is batch work and keeps Bun's normal policy.
import { Scheduler } from "../platform/scheduler";

/** The tier-up scale while the process is idle (Bun.unsafe.setJITPolicy). */
const IDLE_JIT_SCALE = 10_000;
/** CPU time per second of wall time above which the process counts as busy: an idle server uses 5 to 9 ms/s. */
const BUSY_CPU_MS_PER_S = 100;
/** Quiet samples in a row (one a second) before a busy process goes back to the idle scale. */
const QUIET_SAMPLES = 30;
/** How often the process's CPU time is sampled. */
const SAMPLE_EVERY_MS = 1_000;

/** What the follower reads and sets: the process's own in production, one a test moves in jitPolicy.test. */
export interface LoadFollowerOptions {
  /** The process's CPU time so far, in ms (user + system). */
  cpuMs: () => number;
  /** The sampling timer and its wall clock (monotonic ms). */
  timers: Pick<Scheduler, "now" | "every">;
  /** Applies a tier-up scale. */
  setScale: (scale: number) => void;
}

/** This process's CPU time, real timers and Bun's JIT policy. */
export function processLoad(): LoadFollowerOptions {
  return {
    cpuMs: () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
    timers: new Scheduler(),
    setScale: (scale) => Bun.unsafe.setJITPolicy(scale),
  };
}

/**
 * Sets the idle scale at the server's start (its start-up code runs once: it stays in the interpreter instead
 * of keeping the JIT's threads busy); once following, samples the process's CPU once a second: IDLE_JIT_SCALE
 * while it uses at most BUSY_CPU_MS_PER_S, 1 from the first busy second until QUIET_SAMPLES quiet ones in a row.
 */
export class LoadFollower {
  private last: { cpu: number; at: number } | undefined;
  private quiet = 0;
  private busy = false;
  private following = false;

  constructor(private readonly load: LoadFollowerOptions) {}

  /** The idle scale from now on (the server's start). */
  idle(): void {
    this.load.setScale(IDLE_JIT_SCALE);
  }

  /** Samples every second from now on. Called once the start-up's own work is over (the chain walk would count as load). */
  follow(): void {
    if (this.following) return;
    this.following = true;
    this.sample();
    this.load.timers.every(SAMPLE_EVERY_MS, () => this.sample());
  }

  /** One sample: the CPU per second since the last one decides the state (the first only takes a reference). */
  private sample(): void {
    const now = { cpu: this.load.cpuMs(), at: this.load.timers.now() };
    const last = this.last;
    this.last = now;
    if (!last || now.at <= last.at) return;
    const busy = ((now.cpu - last.cpu) * 1000) / (now.at - last.at) > BUSY_CPU_MS_PER_S;
    this.quiet = busy ? 0 : this.quiet + 1;
    if (busy && !this.busy) this.enter(true);
    else if (this.busy && this.quiet >= QUIET_SAMPLES) this.enter(false);
  }

  private enter(busy: boolean): void {
    this.busy = busy;
    this.load.setScale(busy ? 1 : IDLE_JIT_SCALE);
  }
}
