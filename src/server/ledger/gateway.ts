import { Client, Wallet, type LedgerStream, type Request, type RequestResponseMap, type SubmittableTransaction, type TransactionStream } from "xrpl";
import type { Config, Network } from "../platform/config";
import type { Logger } from "../platform/log";
import type { Token } from "./amounts";
import { TypedEmitter } from "../platform/emitter";
import { LedgerUnavailableError, toLedgerError } from "./errors";

/** Where the gateway stands: idle before start, connecting the first time, reconnecting after a loss. */
export type LedgerState = "idle" | "connecting" | "connected" | "reconnecting" | "stopped";

export interface LedgerEvents {
  state: LedgerState;
  /** A connection is up and every subscription is in place; `reconnect` is true after a loss (callers catch up). */
  connected: { reconnect: boolean; session: number };
  /** The connection was lost (not by stop()); reconnection is under way. */
  disconnected: { code: number; session: number };
  ledgerClosed: LedgerStream;
  transaction: TransactionStream;
}

/** Backoff between connection attempts: min doubling up to max, with up to 20% jitter. */
export interface Backoff {
  minMs: number;
  maxMs: number;
}

/** Default reconnect backoff (100 ms doubling to 30 s). */
export const DEFAULT_BACKOFF: Backoff = { minMs: 100, maxMs: 30_000 };
/** How long `request` waits for a connection in progress before answering LedgerUnavailableError. */
export const DEFAULT_CONNECT_WAIT_MS = 2_000;

export interface GatewayOptions {
  url: string;
  network: Network;
  /** The platform (treasury/minter) wallet that signs the platform's own transactions. */
  platform: Wallet;
  vvx: Token;
  log: Logger;
  backoff?: Backoff;
  /** Per-request timeout (xrpl.js default 20 s). */
  requestTimeoutMs?: number;
  /** Headers of the WebSocket upgrade (the sandbox ledger knows the product's own client by them). */
  headers?: Record<string, string>;
  connectionTimeoutMs?: number;
}

type AnyResponse<R extends Request> = RequestResponseMap<R, 2>;

/**
 * The server's one way to talk to an XRP Ledger (the sandbox or a real network):
 * one xrpl.js Client per connection, reconnected with exponential backoff,
 * subscriptions restored on every new connection before `connected` fires.
 */
export class LedgerGateway {
  readonly url: string;
  readonly network: Network;
  readonly platform: Wallet;
  readonly vvx: Token;
  private readonly log: Logger;
  private readonly backoff: Backoff;
  private readonly events: TypedEmitter<LedgerEvents>;
  private readonly accounts = new Set<string>();
  private client: Client | undefined;
  private session = 0;
  private sessions = 0;
  private current: LedgerState = "idle";
  private looping = false;
  private wake: (() => void) | undefined;
  private everConnected = false;

  constructor(private readonly options: GatewayOptions) {
    this.url = options.url;
    this.network = options.network;
    this.platform = options.platform;
    this.vvx = options.vvx;
    this.log = options.log;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.events = new TypedEmitter((event, err) => this.log.error("ledger listener failed", { event, error: String(err) }));
  }

  /** The platform account's classic address. */
  get platformAddress(): string {
    return this.platform.classicAddress;
  }

  get state(): LedgerState {
    return this.current;
  }

  isConnected(): boolean {
    return this.current === "connected" && !!this.client?.isConnected();
  }

  on<K extends keyof LedgerEvents & string>(event: K, listener: (payload: LedgerEvents[K]) => void): () => void {
    return this.events.on(event, listener);
  }

  /** Starts connecting in the background; never throws (failures are retried with backoff). */
  start(): void {
    if (this.current !== "idle") return;
    void this.connectLoop(false);
  }

  /** Disconnects for good; pending requests fail with LedgerUnavailableError. */
  async stop(): Promise<void> {
    if (this.current === "stopped") return;
    this.setState("stopped");
    this.wake?.();
    const client = this.client;
    this.client = undefined;
    this.session = 0;
    if (client) await retire(client);
  }

  /** Resolves once connected; throws LedgerUnavailableError after `timeoutMs`. */
  async waitConnected(timeoutMs = DEFAULT_CONNECT_WAIT_MS): Promise<void> {
    if (this.isConnected()) return;
    if (this.current === "stopped" || this.current === "idle") throw new LedgerUnavailableError(`The ledger gateway is ${this.current}`);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        off();
        reject(new LedgerUnavailableError());
      }, timeoutMs);
      const off = this.events.on("connected", () => {
        clearTimeout(timer);
        off();
        resolve();
      });
    });
  }

  /** Sends one rippled request; ledger errors become LedgerRequestError, connection trouble LedgerUnavailableError. */
  async request<R extends Request>(req: R, opts: { waitMs?: number } = {}): Promise<AnyResponse<R>> {
    await this.waitConnected(opts.waitMs ?? DEFAULT_CONNECT_WAIT_MS);
    const client = this.client;
    if (!client) throw new LedgerUnavailableError();
    try {
      return (await client.request(req)) as AnyResponse<R>;
    } catch (err) {
      throw toLedgerError(err, req.command);
    }
  }

  /** xrpl.js autofill (Sequence, Fee, LastLedgerSequence, NetworkID) on the live connection. */
  async autofill<T extends SubmittableTransaction>(tx: T, opts: { waitMs?: number } = {}): Promise<T> {
    await this.waitConnected(opts.waitMs ?? DEFAULT_CONNECT_WAIT_MS);
    const client = this.client;
    if (!client) throw new LedgerUnavailableError();
    try {
      return await client.autofill(tx);
    } catch (err) {
      throw toLedgerError(err, "autofill");
    }
  }

  /** The live xrpl.js Client, for helpers the gateway does not wrap (getBalances ...); undefined while disconnected. */
  get xrplClient(): Client | undefined {
    return this.isConnected() ? this.client : undefined;
  }

  /** Follows an account's validated transactions (kept across reconnects). */
  async watchAccount(address: string): Promise<void> {
    if (this.accounts.has(address)) return;
    this.accounts.add(address);
    const client = this.client;
    if (client && this.isConnected()) {
      await client.request({ command: "subscribe", accounts: [address] }).catch((err) => {
        // The next connection subscribes again; a lost connection is handled by the loop.
        this.log.warn("ledger subscribe failed", { account: address, error: String(err) });
      });
    }
  }

  private setState(state: LedgerState): void {
    if (this.current === state) return;
    this.current = state;
    this.events.emit("state", state);
  }

  private delay(attempt: number): number {
    const base = Math.min(this.backoff.maxMs, this.backoff.minMs * 2 ** Math.min(attempt, 30));
    return Math.round(base * (1 + Math.random() * 0.2));
  }

  private async sleep(ms: number): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
    this.wake = undefined;
  }

  private async connectLoop(reconnect: boolean): Promise<void> {
    if (this.looping) return;
    this.looping = true;
    let attempt = 0;
    try {
      while (this.current !== "stopped") {
        this.setState(reconnect ? "reconnecting" : "connecting");
        const client = new Client(this.url, {
          timeout: this.options.requestTimeoutMs ?? 20_000,
          connectionTimeout: this.options.connectionTimeoutMs ?? 5_000,
          ...(this.options.headers ? { headers: this.options.headers } : {}),
        });
        client.on("error", (code: string, message: string) => this.log.warn("ledger client error", { code, message }));
        const session = ++this.sessions;
        try {
          await client.connect();
          client.on("disconnected", (code: number) => this.onLost(session, code));
          client.on("ledgerClosed", (ledger: LedgerStream) => session === this.session && this.events.emit("ledgerClosed", ledger));
          client.on("transaction", (tx: TransactionStream) => session === this.session && this.events.emit("transaction", tx));
          await client.request({ command: "subscribe", streams: ["ledger"], ...(this.accounts.size ? { accounts: [...this.accounts] } : {}) });
          if ((this.current as LedgerState) === "stopped") {
            await retire(client);
            return;
          }
          this.client = client;
          this.session = session;
          this.everConnected = true;
          this.setState("connected");
          this.log.info("ledger connected", { url: this.url, session, reconnect, attempts: attempt + 1 });
          this.events.emit("connected", { reconnect, session });
          return;
        } catch (err) {
          await retire(client);
          const wait = this.delay(attempt++);
          if (attempt === 1 || attempt % 10 === 0) {
            this.log.warn("ledger unreachable, retrying", { url: this.url, attempt, retryMs: wait, error: err instanceof Error ? err.message : String(err) });
          }
          await this.sleep(wait);
        }
      }
    } finally {
      this.looping = false;
    }
  }

  private onLost(session: number, code: number): void {
    if (session !== this.session || this.current === "stopped") return;
    const client = this.client;
    this.client = undefined;
    this.session = 0;
    this.log.warn("ledger connection lost", { url: this.url, code, session });
    this.events.emit("disconnected", { code, session });
    // xrpl.js schedules its own reconnect right after this event; retire the client so only our loop reconnects.
    if (client) setTimeout(() => void retire(client), 0);
    void this.connectLoop(this.everConnected);
  }
}

/** Disconnects a client for good and silences it (also cancels xrpl.js's own reconnect timer). */
async function retire(client: Client): Promise<void> {
  client.removeAllListeners();
  client.on("error", () => {});
  await client.disconnect().catch(() => {});
}

/** The platform and issuer the sandbox provides when PLATFORM_SEED / VVX_ISSUER are not set. */
export interface DefaultAccounts {
  treasury: Wallet;
  issuer: { classicAddress: string };
}

/** The gateway for this configuration: PLATFORM_SEED and VVX_ISSUER, else the sandbox's own accounts. */
export function gatewayFromConfig(config: Config, log: Logger, defaults?: DefaultAccounts, url = config.xrplUrl, headers?: Record<string, string>): LedgerGateway {
  const platform = config.platformSeed ? Wallet.fromSeed(config.platformSeed) : defaults?.treasury;
  const issuer = config.vvxIssuer ?? defaults?.issuer.classicAddress;
  if (!platform || !issuer) throw new Error(`PLATFORM_SEED and VVX_ISSUER are required when NETWORK=${config.network}`);
  return new LedgerGateway({ url, network: config.network, platform, vvx: { currency: config.vvxCurrency, issuer }, log, headers });
}
