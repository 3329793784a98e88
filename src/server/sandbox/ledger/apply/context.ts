import type { TerCode } from "../codes";
import type { ApplyView } from "../view";

/** Everything a transaction handler sees while it applies one transaction to the open ledger. */
export interface TxContext {
  view: ApplyView;
  tx: Record<string, any>;
  account: string;
  hash: string;
  /** The open ledger's index. */
  ledgerIndex: number;
  /** Hash and close time of the last closed ledger (pseudo-account derivation, expirations). */
  parentHash: string;
  parentCloseTime: number;
  /** The sender's XRP before the fee was taken (rippled's mPriorBalance, used for reserve checks). */
  priorBalance: bigint;
  /** Extra metadata fields: DeliveredAmount and the API's delivered_amount, nftoken_id, offer_id, ... */
  meta: Record<string, unknown>;
  /** Keys of the NFTokenOffers for a token in the state before this transaction. */
  offersFor(nftokenId: string): string[];
  /** Keys of an order book's offers (by directory base) before this transaction, best quality first. */
  bookOffers(bookBase: string): string[];
}

/** One transaction type: rippled's three phases, minus the signature check the dispatcher does. */
export interface TxHandler {
  /** Checks on the transaction alone (tem codes); nothing is charged when they fail. */
  preflight(tx: Record<string, any>): TerCode | undefined;
  /** Checks against state that must not claim a fee when they fail (ter/tel/tef codes). */
  preclaim?(ctx: TxContext): TerCode | undefined;
  /** Changes state. A tec result rolls back everything but the fee and sequence. */
  apply(ctx: TxContext): TerCode;
  /** The fee this type needs at least (AMMCreate pays an owner reserve). */
  minimumFee?: bigint;
}

/** Transaction flags every type accepts (tfFullyCanonicalSig and the universal mask). */
export const TF_UNIVERSAL = 0x80000000;

export function hasOnlyFlags(tx: Record<string, any>, allowed: number): boolean {
  const flags = (tx.Flags ?? 0) >>> 0;
  return (flags & ~(allowed | TF_UNIVERSAL)) >>> 0 === 0;
}
