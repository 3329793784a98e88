import type { Db } from "../db";

// PostgreSQL's election (PgLeaderElection) is in ./election.ts, loaded with DATABASE_URL only (app/cluster.ts).

/** Who runs the single-runner work (the payments watcher, the outbox, the game loops, the sweeps). */
export type Role = "leader" | "follower";

/** This instance's role and the cluster's leader, as /api/health reports them. */
export interface Leadership {
  readonly instanceId: string;
  readonly role: Role;
  /** The leader's instance id as last seen (this instance's own while it leads); null while no one leads. */
  readonly leaderId: string | null;
  /** Calls `listener` each time this instance becomes leader or stops being it. */
  onChange(listener: (role: Role) => void): void;
  /** Begins contending (resolves once this instance knows whether it leads). */
  start(): Promise<void>;
  /**
   * Inside a write transaction of leader-only work (an outbox claim, a round's result): throws
   * NotLeaderError unless this instance still leads, as the database sees it, so a leader that lost the
   * lock without knowing yet writes nothing (and steps down).
   */
  fence(tx: Db): Promise<void>;
  stop(): Promise<void>;
}

/** Leader-only work refused: another instance leads now (or no one does). */
export class NotLeaderError extends Error {
  constructor(reason: string) {
    super(`this instance does not lead the cluster: ${reason}`);
    this.name = "NotLeaderError";
  }
}

/** One instance on SQLite: it is the whole cluster, so always the leader. */
export class SoloLeadership implements Leadership {
  readonly role = "leader";
  private readonly listeners: ((role: Role) => void)[] = [];
  constructor(readonly instanceId: string) {}
  get leaderId(): string {
    return this.instanceId;
  }
  onChange(listener: (role: Role) => void): void {
    this.listeners.push(listener);
  }
  /** Leads at once: the listeners hear "leader" now. */
  async start(): Promise<void> {
    for (const listener of this.listeners) listener("leader");
  }
  async fence(): Promise<void> {}
  async stop(): Promise<void> {}
}
