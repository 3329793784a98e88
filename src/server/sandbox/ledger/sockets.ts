import type { ServerWebSocket } from "bun";
import type { Logger } from "../../platform/log";
import { RPC_ERRORS } from "./codes";
import type { SandboxLedger } from "./ledger";
import { AddressBook, CONNECTION_LIMITS, Consumer, FEES, requestFee, type Verdict } from "./resources";
import { LedgerRpc, type Connection } from "./rpc";
import { newSubscriber } from "./streams";

/** While more than this is buffered for a client (it reads slower than it asks), its requests wait. */
const HIGH_WATER_BYTES = 1024 * 1024;
/** Stream messages are not held back: past this much buffered, the client is closed (rippled's "client is too slow"). */
const STREAM_LIMIT_BYTES = 16 * 1024 * 1024;
/** Requests one connection may have waiting for their turn; one more closes it. */
export const MAX_PENDING = 500;
/**
 * Ledger requests may take this share of the process's time under sustained
 * load, in bursts of at most CPU_BURST_MS: the rest is the HTTP side's (the
 * sandbox runs in the product's process), so a flood slows the flooder, not
 * /api/health.
 */
const CPU_SHARE = 0.8;
const CPU_BURST_MS = 20;

type Raw = ServerWebSocket<unknown>;

/** Who opened a connection: its client address, and whether it is the product's own ledger client. */
export interface Peer {
  address: string;
  product: boolean;
}

/** The limits of the product's own client: none. */
const UNLIMITED = { requests: { warn: Infinity, drop: Infinity }, bytes: { warn: Infinity, drop: Infinity } };

interface Socket {
  ws: Raw;
  conn: Connection;
  consumer: Consumer;
  address: string;
  product: boolean;
  addressConsumer: Consumer;
  /** Requests waiting for CPU time or for the client to read what it was sent. */
  pending: unknown[];
  closed: boolean;
}

/** Why the sandbox closed a ledger socket, with rippled's close reasons. */
const CLOSE = {
  threshold: [1008, "threshold exceeded"],
  slow: [1008, "client is too slow"],
  shutdown: [1001, "server shutting down"],
} as const;

/**
 * The sandbox ledger's WebSocket connections: parses and answers rippled
 * requests with per-connection resource limits (resources.ts), holds requests
 * back while the client does not read its answers, closes clients that fall
 * behind on their streams, and shares the process's time fairly (round robin,
 * a bounded share) so one connection's flood cannot stall the others or the app.
 */
export class LedgerSockets {
  private readonly rpc: LedgerRpc;
  private readonly sockets = new Map<Raw, Socket>();
  /** Sockets with pending requests, served one request each in turn. */
  private readonly waiting = new Set<Socket>();
  readonly addresses = new AddressBook();
  private tokens = CPU_BURST_MS;
  private refilledAt = performance.now();
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly ledger: SandboxLedger,
    private readonly log: Logger,
  ) {
    this.rpc = new LedgerRpc(ledger);
  }

  open(ws: Raw, peer: Peer): void {
    const { address } = peer;
    // The product's own client is never limited (rippled's admin clients are not): a flood from its address costs it nothing.
    const addressConsumer = peer.product ? new Consumer(UNLIMITED, () => performance.now()) : this.addresses.open(address);
    if (!addressConsumer) {
      ws.close(...CLOSE.threshold);
      return;
    }
    const consumer = new Consumer(peer.product ? UNLIMITED : CONNECTION_LIMITS, () => performance.now());
    const sock: Socket = { ws, address, product: peer.product, addressConsumer, consumer, pending: [], closed: false, conn: undefined! };
    sock.conn = { subscriber: newSubscriber((message) => this.stream(sock, message), () => this.drop(sock, CLOSE.shutdown)) };
    this.sockets.set(ws, sock);
    // Registered at once (with no streams) so a shutdown closes every ledger socket, subscribed or not.
    this.ledger.addSubscriber(sock.conn.subscriber);
  }

  /** One frame from the client (Elysia has already parsed JSON text). */
  message(ws: Raw, message: unknown): void {
    const sock = this.sockets.get(ws);
    if (!sock || sock.closed) return;
    if (sock.pending.length || !this.mayRun() || ws.getBufferedAmount() > HIGH_WATER_BYTES) {
      if (sock.pending.length >= MAX_PENDING) return this.drop(sock, CLOSE.slow);
      sock.pending.push(message);
      this.waiting.add(sock);
      this.schedule();
      return;
    }
    this.handle(sock, message);
  }

  /** The client read enough of what was buffered: its waiting requests may go on. */
  drain(ws: Raw): void {
    const sock = this.sockets.get(ws);
    if (sock?.pending.length) this.schedule();
  }

  close(ws: Raw): void {
    const sock = this.sockets.get(ws);
    if (!sock) return;
    sock.closed = true;
    sock.pending = [];
    this.waiting.delete(sock);
    this.sockets.delete(ws);
    if (!sock.product) this.addresses.close(sock.address);
    this.ledger.removeSubscriber(sock.conn.subscriber);
    sock.conn.pathFind?.stop();
  }

  // ---- time sharing ---------------------------------------------------------------

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(CPU_BURST_MS, this.tokens + (now - this.refilledAt) * CPU_SHARE);
    this.refilledAt = now;
  }

  private mayRun(): boolean {
    this.refill();
    return this.tokens > 0;
  }

  private schedule(): void {
    if (this.timer) return;
    this.refill();
    const wait = this.tokens > 0 ? 0 : Math.ceil(-this.tokens / CPU_SHARE);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, wait);
  }

  /** Serves waiting requests one per socket in turn while time is left; sockets whose client is not reading are skipped until it drains. */
  private pump(): void {
    let progressed = true;
    while (this.waiting.size && progressed && this.mayRun()) {
      progressed = false;
      for (const sock of [...this.waiting]) {
        if (!this.mayRun()) break;
        if (sock.closed || !sock.pending.length) {
          this.waiting.delete(sock);
          continue;
        }
        if (sock.ws.getBufferedAmount() > HIGH_WATER_BYTES) continue;
        this.handle(sock, sock.pending.shift());
        if (!sock.pending.length) this.waiting.delete(sock);
        progressed = true;
      }
    }
    // Time ran out: go on when it is back. Every waiting socket blocked on its reader: drain() goes on.
    if (this.waiting.size && (progressed || !this.mayRun())) this.schedule();
  }

  // ---- one request ---------------------------------------------------------------

  private handle(sock: Socket, message: unknown): void {
    const started = performance.now();
    try {
      this.answer(sock, message);
    } finally {
      this.tokens -= performance.now() - started;
    }
  }

  private answer(sock: Socket, message: unknown): void {
    let request: unknown = message;
    if (typeof request === "string" || request instanceof Uint8Array) {
      const text = typeof request === "string" ? request : new TextDecoder().decode(request);
      try {
        request = JSON.parse(text);
      } catch {
        // rippled answers unparsable frames with a jsonInvalid error of type "error".
        return this.respond(sock, { error: "jsonInvalid", status: "error", type: "error", value: text }, true);
      }
    }
    if (!request || typeof request !== "object" || Array.isArray(request)) {
      return this.respond(sock, { error: "jsonInvalid", status: "error", type: "error", value: JSON.stringify(request) }, true);
    }
    const params = request as Record<string, unknown>;
    const before = this.chargeRequest(sock, requestFee(params));
    if (before === "drop") {
      this.send(sock, this.slowDown(params));
      return this.drop(sock, CLOSE.threshold);
    }
    let response: Record<string, unknown> | Promise<Record<string, unknown>>;
    try {
      response = this.rpc.dispatch(params, sock.conn);
    } catch (err) {
      response = this.internal(params, err);
    }
    if (response instanceof Promise) {
      response.then(
        (r) => this.finish(sock, r, before),
        (err) => this.finish(sock, this.internal(params, err), before),
      );
    } else this.finish(sock, response, before);
  }

  private internal(params: Record<string, unknown>, err: unknown): Record<string, unknown> {
    this.log.error("sandbox ledger request failed", { error: err instanceof Error ? err.stack ?? err.message : String(err) });
    const { id, ...echo } = params;
    return { ...(id !== undefined ? { id } : {}), error: "internal", error_code: 73, error_message: "Internal error.", request: echo, status: "error", type: "response" };
  }

  private finish(sock: Socket, response: Record<string, unknown>, before: Verdict): void {
    if (sock.closed) return;
    // A failed request costs what rippled charges a malformed one (on top of its method's fee).
    if (response.status === "error") this.chargeRequest(sock, FEES.malformed);
    if (before === "warn") response.warning = "load";
    this.respond(sock, response, false);
  }

  /** Charges the connection and its address; the worse verdict counts (the address's budget is shared by all its connections). */
  private chargeRequest(sock: Socket, fee: number): Verdict {
    return worse(sock.addressConsumer.charge(fee, 0), sock.consumer.charge(fee, 0));
  }

  /** Sends a response and charges its bytes; past the byte budget the connection is closed after it. */
  private respond(sock: Socket, body: Record<string, unknown>, malformed: boolean): void {
    if (malformed) this.chargeRequest(sock, FEES.malformed);
    // Answers computed while other connections of the address spent its budget are not sent: the budget is a bound, not a hint.
    if (worse(sock.addressConsumer.status(), sock.consumer.status()) === "drop") return this.drop(sock, CLOSE.threshold);
    const text = JSON.stringify(body);
    this.send(sock, text);
    if (worse(sock.addressConsumer.charge(0, text.length), sock.consumer.charge(0, text.length)) === "drop") this.drop(sock, CLOSE.threshold);
  }

  private slowDown(params: Record<string, unknown>): string {
    const { id } = params;
    return JSON.stringify({ ...(id !== undefined ? { id } : {}), error: "slowDown", error_code: RPC_ERRORS.slowDown[0], error_message: RPC_ERRORS.slowDown[1], status: "error", type: "response" });
  }

  private send(sock: Socket, text: string): void {
    if (sock.closed) return;
    // 0: Bun dropped the message (its own backpressure limit); the client cannot be kept in a consistent state.
    if (sock.ws.send(text) === 0) this.drop(sock, CLOSE.slow);
  }

  /** A stream message: never held back (order matters), but a client this far behind is closed. */
  private stream(sock: Socket, message: string): void {
    if (sock.closed) return;
    if (sock.ws.getBufferedAmount() > STREAM_LIMIT_BYTES) return this.drop(sock, CLOSE.slow);
    this.send(sock, message);
  }

  private drop(sock: Socket, [code, reason]: readonly [number, string]): void {
    if (sock.closed) return;
    // Being dropped costs the address a whole connection's budget (rippled charges feeDrop): reconnecting is no way around the limits.
    if (code === 1008) sock.addressConsumer.charge(CONNECTION_LIMITS.requests.drop, 0);
    const ws = sock.ws;
    this.close(ws);
    ws.close(code, reason);
  }
}

const SEVERITY: Record<Verdict, number> = { ok: 0, warn: 1, drop: 2 };

function worse(a: Verdict, b: Verdict): Verdict {
  return SEVERITY[a] >= SEVERITY[b] ? a : b;
}
