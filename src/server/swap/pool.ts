import type { AMMInfoRequest, LedgerStream, ServerInfoRequest } from "xrpl";
import { dropsFromXrp, sameCurrency } from "../ledger/amounts";
import { LedgerRequestError } from "../ledger/errors";
import type { LedgerGateway } from "../ledger/gateway";
import type { Logger } from "../platform/log";
import type { XrpPool } from "./amm";
import { PoolUnavailableError } from "./model";

/** The XRP/VVX pool and the network's fees as of one validated ledger. */
export interface PoolSnapshot {
  pool: XrpPool;
  /** The AMM's own account. */
  account: string;
  ledgerIndex: number;
  /** The network's base transaction fee and reserves, in drops. */
  feeDrops: bigint;
  reserveBaseDrops: bigint;
  reserveIncDrops: bigint;
}

/** What the pool reader needs from the ledger gateway. */
export type PoolLedger = Pick<LedgerGateway, "request" | "on" | "vvx">;

interface NetworkFees {
  feeDrops: bigint;
  reserveBaseDrops: bigint;
  reserveIncDrops: bigint;
}

/** A cached snapshot is dropped after this long even without a ledger close (a stream that went quiet). */
export const SNAPSHOT_MAX_AGE_MS = 10_000;

/**
 * Reads the pool with `amm_info` at most once per validated ledger: the first quote after a
 * ledger close reads it, concurrent quotes share that read, and the next `ledgerClosed` event
 * drops it, so no quote is ever computed from a pool older than the latest close this server saw.
 */
export class PoolReader {
  /** amm_info requests sent, and ledger closes seen (the bench reports their ratio). */
  reads = 0;
  closes = 0;
  private cached: { snapshot: Promise<PoolSnapshot>; at: number } | undefined;
  private lastClosed = 0;
  private fees: NetworkFees | undefined;
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly ledger: PoolLedger,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (this.offs.length) return;
    this.offs.push(
      this.ledger.on("ledgerClosed", (l) => this.onClose(l)),
      // A lost connection may have missed closes: read afresh once it is back.
      this.ledger.on("disconnected", () => (this.cached = undefined)),
      this.ledger.on("connected", () => (this.cached = undefined)),
    );
  }

  stop(): void {
    for (const off of this.offs.splice(0)) off();
    this.cached = undefined;
  }

  private onClose(l: LedgerStream): void {
    this.closes++;
    if (l.ledger_index > this.lastClosed) this.lastClosed = l.ledger_index;
    if (typeof l.fee_base === "number" && typeof l.reserve_base === "number" && typeof l.reserve_inc === "number") {
      this.fees = { feeDrops: BigInt(l.fee_base), reserveBaseDrops: BigInt(l.reserve_base), reserveIncDrops: BigInt(l.reserve_inc) };
    }
    this.cached = undefined;
  }

  /** The pool as of the latest validated ledger (shared by every caller until the next close). */
  snapshot(): Promise<PoolSnapshot> {
    const now = performance.now();
    if (this.cached && now - this.cached.at < SNAPSHOT_MAX_AGE_MS) return this.cached.snapshot;
    const entry = { snapshot: this.read(), at: now };
    this.cached = entry;
    // A failed read is not cached: the next caller tries again.
    entry.snapshot.catch((err) => {
      if (this.cached === entry) this.cached = undefined;
      this.log.warn("XRP/VVX pool read failed", { error: err instanceof Error ? err.message : String(err) });
    });
    return entry.snapshot;
  }

  private async read(): Promise<PoolSnapshot> {
    const { currency, issuer } = this.ledger.vvx;
    const request = { command: "amm_info", asset: { currency: "XRP" }, asset2: { currency, issuer }, ledger_index: "validated" } as AMMInfoRequest;
    // The close this read must not be older than (a close arriving meanwhile starts a read of its own).
    const atLeast = this.lastClosed;
    let res;
    for (let attempt = 0; ; attempt++) {
      this.reads++;
      try {
        res = await this.ledger.request(request);
      } catch (err) {
        if (err instanceof LedgerRequestError && err.ledgerError === "actNotFound") throw new PoolUnavailableError();
        throw err;
      }
      // A server behind the close we saw answers once more (validated ledgers only move forward).
      if ((res.result.ledger_index ?? 0) >= atLeast || attempt >= 1) break;
    }
    const amm = res.result.amm;
    const sides = [amm.amount, amm.amount2];
    const xrp = sides.find((s): s is string => typeof s === "string");
    const iou = sides.find((s) => typeof s === "object" && sameCurrency(s.currency, currency) && s.issuer === issuer) as { value: string } | undefined;
    if (xrp === undefined || !iou) throw new PoolUnavailableError("The ledger's AMM is not an XRP/VVX pool");
    const fees = this.fees ?? (await this.serverFees());
    return {
      pool: { drops: BigInt(xrp), iou: iou.value, tradingFee: amm.trading_fee },
      account: amm.account,
      ledgerIndex: res.result.ledger_index ?? 0,
      ...fees,
    };
  }

  /** Fees and reserves before the first ledger close arrived (server_info writes them in XRP). */
  private async serverFees(): Promise<NetworkFees> {
    const info = await this.ledger.request({ command: "server_info" } as ServerInfoRequest);
    const v = info.result.info.validated_ledger;
    if (!v) throw new PoolUnavailableError("The ledger has no validated ledger yet");
    const drops = (xrp: number) => dropsFromXrp(xrp.toFixed(6));
    return { feeDrops: drops(v.base_fee_xrp), reserveBaseDrops: drops(v.reserve_base_xrp), reserveIncDrops: drops(v.reserve_inc_xrp) };
  }
}
