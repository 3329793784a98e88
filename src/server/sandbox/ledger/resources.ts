/**
 * Resource limits of the sandbox ledger's WebSocket, modelled on rippled's
 * Resource::Manager: every request charges a fee by how much work it is
 * (rippled's feeReferenceRPC, feeMediumBurdenRPC, feeHighBurdenRPC,
 * feeMalformedRPC) into a balance that decays over 32 s; past the warning
 * threshold responses carry `"warning": "load"`, past the drop threshold the
 * connection is closed (1008 "threshold exceeded"). A second balance counts the
 * bytes of the responses, so a request that is cheap to send but costly to
 * answer (account_tx with 400 transactions) is limited by what it makes the
 * server write, not only by its count.
 *
 * rippled's thresholds (warn 5,000, drop 25,000) are for public clients; its
 * admin clients are unlimited. Every sandbox client is a local tool (the
 * product, its benches, xrpl.js's tests), so the request thresholds are
 * rippled's x50: one connection may keep up about 390 reference requests a
 * second (submits included) before a warning, ~2,000 before being dropped, or
 * about 100 medium ones (account_tx, ledger_data, book_offers) a second.
 */

/** rippled's decay window (Resource/detail/Tuning.h). */
export const DECAY_WINDOW_MS = 32_000;

export const FEES = {
  reference: 20,
  malformed: 100,
  medium: 400,
  high: 3_000,
} as const;

/** Methods rippled's handlers charge more than a reference request (loadType in their handlers). */
const METHOD_FEES: Record<string, number> = {
  account_tx: FEES.medium,
  ledger_data: FEES.medium,
  book_offers: FEES.medium,
  gateway_balances: FEES.medium,
  noripple_check: FEES.medium,
  simulate: FEES.medium,
  ripple_path_find: FEES.high,
  path_find: FEES.high,
};

/** The fee of one request: the method's, a ledger with its transactions expanded (heavy), or malformed without a command name. */
export function requestFee(request: Record<string, unknown>): number {
  const command = request.command ?? request.method;
  if (typeof command !== "string") return FEES.malformed;
  if (command === "ledger" && (request.expand === true || request.full === true)) return FEES.high;
  return Object.hasOwn(METHOD_FEES, command) ? METHOD_FEES[command]! : FEES.reference;
}

export interface Limits {
  warn: number;
  drop: number;
}

/** Per connection: requests (fee units) and response bytes. */
export const CONNECTION_LIMITS = {
  requests: { warn: 5_000 * 50, drop: 25_000 * 50 },
  bytes: { warn: 6.4 * 1024 * 1024, drop: 32 * 1024 * 1024 },
} satisfies Record<string, Limits>;

/** Per client address (every connection from it together): new connections are refused while it is past these. */
export const ADDRESS_LIMITS = {
  requests: { warn: CONNECTION_LIMITS.requests.warn * 4, drop: CONNECTION_LIMITS.requests.drop * 4 },
  bytes: { warn: CONNECTION_LIMITS.bytes.warn * 4, drop: CONNECTION_LIMITS.bytes.drop * 4 },
} satisfies Record<string, Limits>;

/** A balance that decays exponentially over the window (rippled's DecayingSample). */
export class DecayingBalance {
  private value = 0;
  private at: number;

  constructor(private readonly now: () => number) {
    this.at = now();
  }

  /** The balance now. */
  get(): number {
    const t = this.now();
    if (t > this.at) {
      this.value *= Math.exp(-(t - this.at) / DECAY_WINDOW_MS);
      this.at = t;
    }
    return this.value;
  }

  /** Adds a charge; returns the new balance. */
  charge(amount: number): number {
    return (this.value = this.get() + amount);
  }
}

export type Verdict = "ok" | "warn" | "drop";

/** A request balance and a byte balance with their limits. */
export class Consumer {
  readonly requests: DecayingBalance;
  readonly bytes: DecayingBalance;

  constructor(
    private readonly limits: { requests: Limits; bytes: Limits },
    now: () => number,
  ) {
    this.requests = new DecayingBalance(now);
    this.bytes = new DecayingBalance(now);
  }

  charge(fee: number, bytes: number): Verdict {
    const r = this.requests.charge(fee);
    const b = this.bytes.charge(bytes);
    return this.verdict(r, b);
  }

  status(): Verdict {
    return this.verdict(this.requests.get(), this.bytes.get());
  }

  private verdict(r: number, b: number): Verdict {
    if (r >= this.limits.requests.drop || b >= this.limits.bytes.drop) return "drop";
    if (r >= this.limits.requests.warn || b >= this.limits.bytes.warn) return "warn";
    return "ok";
  }
}

/** The balances of every client address, kept while it has connections or a balance worth remembering. */
export class AddressBook {
  private readonly entries = new Map<string, { consumer: Consumer; connections: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Seconds until `address` may connect again (its balances decayed below the drop thresholds); undefined when it may now. */
  refusedFor(address: string): number | undefined {
    const consumer = this.entries.get(address)?.consumer;
    if (!consumer || consumer.status() !== "drop") return undefined;
    const over = Math.max(consumer.requests.get() / ADDRESS_LIMITS.requests.drop, consumer.bytes.get() / ADDRESS_LIMITS.bytes.drop);
    return Math.max(1, Math.ceil((DECAY_WINDOW_MS * Math.log(over)) / 1000));
  }

  /** A new connection from `address`: undefined when the address is past its drop threshold. */
  open(address: string): Consumer | undefined {
    if (this.entries.size > 1_000) this.sweep();
    let entry = this.entries.get(address);
    if (!entry) this.entries.set(address, (entry = { consumer: new Consumer(ADDRESS_LIMITS, this.now), connections: 0 }));
    if (entry.consumer.status() === "drop") return undefined;
    entry.connections++;
    return entry.consumer;
  }

  close(address: string): void {
    const entry = this.entries.get(address);
    if (entry) entry.connections--;
  }

  /** Forgets addresses with no connection whose balances have decayed to almost nothing. */
  sweep(): void {
    for (const [address, entry] of this.entries) {
      if (entry.connections <= 0 && entry.consumer.requests.get() < FEES.reference && entry.consumer.bytes.get() < 1024) this.entries.delete(address);
    }
  }
}
