import { SQL } from "bun";
import { eq } from "drizzle-orm";
import { bigint, integer, pgTable, text } from "drizzle-orm/pg-core";
import type { Db } from "../db";
import type { Logger } from "../log";
import { NotLeaderError, type Leadership, type Role } from "./leader";

/**
 * The fencing token: one row whose epoch each new leader raises, in a SERIALIZABLE transaction, once it
 * holds the lock. Leader-only writes read it in their own SERIALIZABLE transaction (fence): a deposed leader
 * finds a newer epoch, and a write racing the raise is refused by PostgreSQL as a serialization failure.
 * Made by the election itself (like `_migrations`), not by the product's migrations.
 */
const leaderEpochs = pgTable("_leader_epoch", {
  id: integer("id").primaryKey(),
  epoch: bigint("epoch", { mode: "number" }).notNull(),
  instanceId: text("instance_id").notNull(),
});

/**
 * The lock every instance of a database contends for: PostgreSQL's two-key advisory lock ("VVX", 1). It
 * belongs to one database session, so it goes with the session: when the leader's process dies (even by
 * SIGKILL) its server session ends and the lock is free for the next check of another instance.
 */
const LEADER_LOCK: readonly [number, number] = [0x565658, 1];

/** How often the leader makes sure it still holds the lock. */
const LEADER_CHECK_MS = 1_000;
/**
 * How long a follower waits in the lock's queue before it reads who holds it and waits again (the session's
 * lock_timeout): how soon its leaderId follows a change of leader. The takeover does not wait for it.
 */
const LEADER_TRY_MS = 250;
/** PostgreSQL's lock_not_available: a wait for a lock ended by lock_timeout. */
const LOCK_TIMEOUT = "55P03";

export interface ElectionOptions {
  /** This instance's id (Config.instanceId); PostgreSQL shows it as the session's application_name. */
  instanceId: string;
  /** How often the leader checks its lock, and how long a follower waits for it (default: LEADER_CHECK_MS and LEADER_TRY_MS). */
  checkMs?: number;
  log?: Logger;
}

/**
 * Leader election over a PostgreSQL advisory lock, on one connection of its own. A follower waits for the
 * lock (pg_advisory_lock, ended by the session's lock_timeout, tryMs) and, when the wait ends without it,
 * reads who holds it from pg_locks and waits again: PostgreSQL grants the lock to a waiter the moment the
 * holder's session ends, so a takeover waits for no poll. The leader checks every checkMs that its session
 * still holds the lock, and steps down at once when the check fails or the connection closes: it cannot
 * tell whether its session (and so the lock) outlived the connection.
 */
export class PgLeaderElection implements Leadership {
  readonly instanceId: string;
  private readonly checkMs: number;
  private readonly tryMs: number;
  private readonly listeners: ((role: Role) => void)[] = [];
  private sql: SQL | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private current: Role = "follower";
  private leader: string | null = null;
  private stopped = false;
  private checking: Promise<void> | undefined;
  /** This instance's epoch while it leads (the fencing token its writes compare). */
  private epoch: number | undefined;

  constructor(
    private readonly url: string,
    private readonly options: ElectionOptions,
  ) {
    this.instanceId = options.instanceId;
    this.checkMs = options.checkMs ?? LEADER_CHECK_MS;
    this.tryMs = options.checkMs ?? LEADER_TRY_MS;
  }

  get role(): Role {
    return this.current;
  }

  get leaderId(): string | null {
    return this.current === "leader" ? this.instanceId : this.leader;
  }

  onChange(listener: (role: Role) => void): void {
    this.listeners.push(listener);
  }

  /** Contends now (resolves after the first try, which does not wait: leader or follower), then waits for the lock (checks it every checkMs while leading). */
  async start(): Promise<void> {
    await this.check(false);
  }

  /** Gives the lock back and stops contending. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    // A follower's wait in the lock's queue ends with its session: stopping waits for no lock_timeout.
    if (this.checking && this.current !== "leader") await this.disconnect();
    await this.checking;
    // Give back what the session holds before it goes: PostgreSQL frees a closed session's locks only once its
    // backend has ended, a moment later, and a rolling restart's next leader should not wait for that.
    await this.release();
    this.become("follower");
    await this.disconnect();
  }

  private async release(): Promise<void> {
    const sql = this.sql;
    if (sql) await sql`SELECT pg_advisory_unlock_all()`.catch(() => undefined);
  }

  private check(wait = true): Promise<void> {
    this.checking = this.attempt(wait).then((nextMs) => {
      this.checking = undefined;
      if (!this.stopped) this.timer = setTimeout(() => void this.check(), nextMs);
    });
    return this.checking;
  }

  /** One turn: the leader checks its lock, a follower tries it (waiting for it if `wait`); resolves with the ms until the next turn. */
  private async attempt(wait: boolean): Promise<number> {
    try {
      const sql = this.connection();
      const [k1, k2] = LEADER_LOCK;
      if (this.current === "leader") {
        const [row] = await sql`SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND classid = ${k1} AND objid = ${k2} AND objsubid = 2 AND pid = pg_backend_pid() AND granted`;
        if (row.held !== 1) this.lose("the lock is no longer this session's");
        return this.current === "leader" ? this.checkMs : this.tryMs;
      }
      const won = await this.take(sql, wait);
      if (this.stopped) {
        if (won) await sql`SELECT pg_advisory_unlock(${k1}, ${k2})`;
        return 0;
      }
      if (won) {
        this.epoch = await this.raiseEpoch(sql);
        this.become("leader");
        return this.checkMs;
      }
      const [holder] = await sql`
        SELECT a.application_name AS id FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.classid = ${k1} AND l.objid = ${k2} AND l.objsubid = 2 AND l.granted
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
      this.leader = holder?.id || null;
      return 0; // the wait itself spaces the turns
    } catch (err) {
      // The database is out of reach: whatever this instance was, it cannot know the lock is its own.
      this.lose(`the database does not answer (${err instanceof Error ? err.message : String(err)})`);
      this.leader = null;
      await this.disconnect();
      return this.tryMs;
    }
  }

  /**
   * Takes the lock: at once or not at all, or (`wait`) waiting in its queue until the session's lock_timeout.
   * Whether this session holds it now.
   */
  private async take(sql: SQL, wait: boolean): Promise<boolean> {
    const [k1, k2] = LEADER_LOCK;
    if (!wait) return Boolean((await sql`SELECT pg_try_advisory_lock(${k1}, ${k2}) AS won`)[0].won);
    try {
      await sql`SELECT pg_advisory_lock(${k1}, ${k2})`;
      return true;
    } catch (err) {
      if ((err as { errno?: string }).errno === LOCK_TIMEOUT) return false;
      throw err;
    }
  }

  /** The next epoch, this instance's, committed before it does any leader-only work. */
  private async raiseEpoch(sql: SQL): Promise<number> {
    await sql`CREATE TABLE IF NOT EXISTS _leader_epoch (id integer PRIMARY KEY, epoch bigint NOT NULL, instance_id text NOT NULL)`;
    const [row] = await sql.begin("ISOLATION LEVEL SERIALIZABLE", (tx) => tx`
      INSERT INTO _leader_epoch (id, epoch, instance_id) VALUES (1, 1, ${this.instanceId})
      ON CONFLICT (id) DO UPDATE SET epoch = _leader_epoch.epoch + 1, instance_id = EXCLUDED.instance_id
      RETURNING epoch`);
    return Number(row.epoch);
  }

  async fence(tx: Db): Promise<void> {
    const mine = this.epoch;
    if (this.current !== "leader" || mine === undefined) throw new NotLeaderError(this.leader ? `${this.leader} leads` : "no instance leads now");
    // The store's builders are typed with sqlite-core; on PostgreSQL they take this pg-core table.
    const [row] = (await tx.select().from(leaderEpochs as never).where(eq(leaderEpochs.id, 1) as never)) as { epoch: number; instanceId: string }[];
    if (row?.epoch === mine) return;
    this.lose(`${row?.instanceId ?? "another instance"} leads now (epoch ${row?.epoch}, this instance's ${mine})`);
    throw new NotLeaderError(`${row?.instanceId ?? "another instance"} leads now`);
  }

  private connection(): SQL {
    // One connection, never closed while idle: the lock lives as long as its session.
    this.sql ??= new SQL(this.url, {
      max: 1,
      idleTimeout: 0,
      connectionTimeout: Math.max(1, Math.ceil(this.checkMs / 1000)),
      // lock_timeout ends a follower's wait for the lock (then it reads the holder); nothing else here waits on a lock.
      connection: { application_name: this.instanceId, lock_timeout: String(this.tryMs) },
      onclose: () => this.lose("its database connection closed"),
    });
    return this.sql;
  }

  private async disconnect(): Promise<void> {
    const sql = this.sql;
    this.sql = undefined;
    await sql?.close({ timeout: 0 }).catch(() => undefined);
  }

  private lose(why: string): void {
    if (this.current !== "leader") return;
    this.epoch = undefined;
    this.leader = null; // unknown until the next check reads the lock's holder
    this.options.log?.warn("leadership lost", { instance: this.instanceId, reason: why });
    this.become("follower");
  }

  private become(role: Role): void {
    if (role === this.current) return;
    this.current = role;
    if (role === "leader") {
      this.leader = this.instanceId;
      this.options.log?.info("leader now", { instance: this.instanceId });
    }
    for (const listener of this.listeners) listener(role);
  }
}
