import { AppError, NoLeaderError, type ErrorCode } from "../errors";
import type { Broker } from "./broker";
import type { Leadership } from "./leader";

/** How long a follower waits for the leader's answer before answering 503 NO_LEADER. */
export const LEADER_CALL_TIMEOUT_MS = 2_000;

/** Requests for the leader, to every instance (only the one leading answers). */
const CALL_SUBJECT = "leader.call";
/** Answers to one instance's requests. */
const replySubject = (instanceId: string) => `leader.reply.${instanceId}`;

interface Call {
  id: string;
  from: string;
  method: string;
  args: unknown;
}

type Reply = { id: string; ok: true; value: unknown } | { id: string; ok: false; status: number; code: ErrorCode; message: string; details?: Record<string, unknown> };

/**
 * What only the leader can answer, asked from any instance: the running round lives in the leader's memory
 * (a crash cash-out is decided at the multiplier of the moment it reaches the leader; the round's state
 * with its players). On the leader a call runs here; on a follower it goes through the broker as a request
 * with an id, and the leader publishes the answer on the asker's reply subject. An AppError thrown on the
 * leader reaches the caller with its status, code and message; no answer within the timeout (no instance
 * leads, a failover under way, the broker down) is 503 NO_LEADER.
 */
export class LeaderCalls {
  private readonly handlers = new Map<string, (args: never) => unknown>();
  private readonly waiting = new Map<string, { resolve(value: unknown): void; reject(err: Error): void; timer: ReturnType<typeof setTimeout> }>();
  private next = 0;

  constructor(
    private readonly leadership: Pick<Leadership, "role" | "instanceId">,
    private readonly broker?: Broker,
    private readonly timeoutMs = LEADER_CALL_TIMEOUT_MS,
  ) {
    if (!broker) return;
    broker.on(CALL_SUBJECT, (payload) => void this.answer(payload));
    broker.on(replySubject(leadership.instanceId), (payload) => this.replied(payload));
  }

  /** Registers what the leader runs for `method` (every instance registers it: any of them may lead). */
  handle<A, R>(method: string, run: (args: A) => R | Promise<R>): void {
    if (this.handlers.has(method)) throw new Error(`a handler for ${method} is set already`);
    this.handlers.set(method, run as (args: never) => unknown);
  }

  /** Whether calls run in this process (it leads): a caller on a hot path may then skip the promise. */
  get leading(): boolean {
    return this.leadership.role === "leader";
  }

  /** Runs `method` on the leader: here when this instance leads, else through the broker. */
  async call<R>(method: string, args: unknown): Promise<R> {
    if (this.leadership.role === "leader") return (await this.run(method, args)) as R;
    if (!this.broker) throw new NoLeaderError("This instance does not run the games and has no broker (BROKER_URL) to reach the one that does.");
    const id = `${this.leadership.instanceId}:${++this.next}`;
    const answered = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new NoLeaderError());
      }, this.timeoutMs);
      this.waiting.set(id, { resolve, reject, timer });
    });
    this.broker.publish(CALL_SUBJECT, JSON.stringify({ id, from: this.leadership.instanceId, method, args } satisfies Call));
    return (await answered) as R;
  }

  /** Stops waiting: every open call is answered NO_LEADER (the server is stopping). */
  close(): void {
    for (const [id, w] of this.waiting) {
      clearTimeout(w.timer);
      w.reject(new NoLeaderError());
      this.waiting.delete(id);
    }
  }

  private run(method: string, args: unknown): unknown {
    const handler = this.handlers.get(method);
    if (!handler) throw new Error(`no leader call named ${method}`);
    return handler(args as never);
  }

  private async answer(payload: string): Promise<void> {
    // Followers hear every call too: only the leader answers (a deposed one stays silent, the caller times out).
    if (this.leadership.role !== "leader") return;
    const call = JSON.parse(payload) as Call;
    let reply: Reply;
    try {
      reply = { id: call.id, ok: true, value: await this.run(call.method, call.args) };
    } catch (err) {
      reply =
        err instanceof AppError
          ? { id: call.id, ok: false, status: err.status, code: err.code, message: err.message, details: err.details }
          : { id: call.id, ok: false, status: 500, code: "INTERNAL_ERROR", message: "Something went wrong on the game server." };
    }
    this.broker!.publish(replySubject(call.from), JSON.stringify(reply));
  }

  private replied(payload: string): void {
    const reply = JSON.parse(payload) as Reply;
    const w = this.waiting.get(reply.id);
    if (!w) return; // answered after its timeout
    this.waiting.delete(reply.id);
    clearTimeout(w.timer);
    if (reply.ok) w.resolve(reply.value);
    else w.reject(new AppError(reply.status, reply.code, reply.message, reply.details));
  }
}
