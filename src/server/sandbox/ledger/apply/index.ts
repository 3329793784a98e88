import { deriveAddress } from "xrpl";
import { isApplied, type TerCode } from "../codes";
import { accountKey, signerListKey } from "../keys";
import { ApplyView, type Entry, type StateReader } from "../view";
import { FEES, LSF, balanceOf } from "./common";
import type { TxContext, TxHandler } from "./context";
import { accountSet } from "./accountSet";
import { ammCreate } from "./amm";
import { ammDeposit } from "./ammDeposit";
import { ammWithdraw } from "./ammWithdraw";
import { offerCancel, offerCreate } from "./offer";
import { setRegularKey } from "./setRegularKey";
import { signerListSet } from "./signerListSet";
import { nftokenAcceptOffer } from "./nftokenAcceptOffer";
import { nftokenBurn } from "./nftokenBurn";
import { nftokenCancelOffer } from "./nftokenCancelOffer";
import { nftokenCreateOffer } from "./nftokenCreateOffer";
import { nftokenMint } from "./nftokenMint";
import { payment } from "./payment";
import { trustSet } from "./trustSet";

/** The transaction types the sandbox applies; anything else is answered temDISABLED. */
export const HANDLERS: Record<string, TxHandler> = {
  Payment: payment,
  TrustSet: trustSet,
  AccountSet: accountSet,
  NFTokenMint: nftokenMint,
  NFTokenCreateOffer: nftokenCreateOffer,
  NFTokenAcceptOffer: nftokenAcceptOffer,
  NFTokenCancelOffer: nftokenCancelOffer,
  NFTokenBurn: nftokenBurn,
  AMMCreate: ammCreate,
  AMMDeposit: ammDeposit,
  AMMWithdraw: ammWithdraw,
  OfferCreate: offerCreate,
  OfferCancel: offerCancel,
  SignerListSet: signerListSet,
  SetRegularKey: setRegularKey,
};

export interface LedgerInfo {
  ledgerIndex: number;
  parentHash: string;
  parentCloseTime: number;
  /** Keys of the NFTokenOffers for a token in the current state. */
  offersFor(nftokenId: string): string[];
  /** Keys of the offers of an order book (by directory base), best quality first. */
  bookOffers(bookBase: string): string[];
}

export interface ApplyOutcome {
  result: TerCode;
  /** Present when the transaction was applied (tes or tec): the metadata and the state writes. */
  applied?: {
    affectedNodes: Record<string, unknown>[];
    writes: [string, Entry | null][];
    extraMeta: Record<string, unknown>;
  };
}

/**
 * Runs one signature-checked transaction against the current state the way
 * rippled's Transactor does: preflight (tem), preclaim (ter/tef/tel, nothing
 * charged), then fee and sequence, then the type's changes; a tec result
 * keeps only the fee and sequence.
 */
export function applyTransaction(
  state: StateReader,
  tx: Record<string, any>,
  hash: string,
  ledger: LedgerInfo,
  /** simulate: an unsigned transaction, applied to a throwaway view, skips the signer checks. */
  unsigned = false,
): ApplyOutcome {
  const handler = HANDLERS[tx.TransactionType];
  if (!handler) return { result: "temDISABLED" };
  if (typeof tx.Fee !== "string" || !/^\d+$/.test(tx.Fee)) return { result: "temBAD_FEE" };
  if (tx.TicketSequence !== undefined) return { result: "temDISABLED" };
  const pre = handler.preflight(tx);
  if (pre) return { result: pre };

  const view = new ApplyView(state);
  const account: string = tx.Account;
  const root = view.read(accountKey(account));
  if (!root) return { result: "terNO_ACCOUNT" };
  const auth = unsigned ? undefined : tx.Signers ? checkMultiSign(view, tx, account) : checkSingleSign(root, tx, account);
  if (auth) return { result: auth };
  if (tx.Sequence < root.Sequence) return { result: "tefPAST_SEQ" };
  if (tx.Sequence > root.Sequence) return { result: "terPRE_SEQ" };
  if (tx.LastLedgerSequence !== undefined && tx.LastLedgerSequence < ledger.ledgerIndex) return { result: "tefMAX_LEDGER" };
  const fee = BigInt(tx.Fee);
  const signers = Array.isArray(tx.Signers) ? tx.Signers.length : 0;
  // rippled: a multi-signed transaction pays the base fee once more per signer.
  if (fee < (handler.minimumFee ?? FEES.baseFee) + FEES.baseFee * BigInt(signers)) return { result: "telINSUF_FEE_P" };
  const priorBalance = balanceOf(root);
  if (priorBalance < fee) return { result: "terINSUF_FEE_B" };

  const ctx: TxContext = { view, tx, account, hash, ...ledger, priorBalance, meta: {} };
  const claim = handler.preclaim?.(ctx);
  if (claim) return { result: claim };

  root.Balance = (priorBalance - fee).toString();
  root.Sequence = root.Sequence + 1;
  view.update(root);
  const afterFee = view.checkpoint();
  const result = handler.apply(ctx);
  if (!isApplied(result)) throw new Error(`${tx.TransactionType} apply returned ${result}; only tes/tec may come from apply`);
  if (result !== "tesSUCCESS") {
    view.rollback(afterFee);
    ctx.meta = {};
  }
  const { affectedNodes, writes } = view.finish(hash, ledger.ledgerIndex);
  return { result, applied: { affectedNodes, writes, extraMeta: ctx.meta } };
}

/** Public key -> account ID: the derivation (two hashes and a base58 checksum) was a seventh of a payment's apply. */
const addressOfKey = new Map<string, string>();
function signerAddress(publicKey: string): string {
  let address = addressOfKey.get(publicKey);
  if (address === undefined) {
    address = deriveAddress(publicKey);
    if (addressOfKey.size >= 10_000) addressOfKey.clear();
    addressOfKey.set(publicKey, address);
  }
  return address;
}

function checkSingleSign(root: Entry, tx: Record<string, any>, account: string): TerCode | undefined {
  const signer = signerAddress(tx.SigningPubKey);
  if (signer === root.RegularKey) return undefined;
  if (signer !== account) return "tefBAD_AUTH";
  return ((root.Flags ?? 0) & LSF.disableMaster) === 0 ? undefined : "tefMASTER_DISABLED";
}

/** rippled's checkMultiSign: every signer on the account's list, signing with its own key (or regular key), weights reaching the quorum. */
function checkMultiSign(view: ApplyView, tx: Record<string, any>, account: string): TerCode | undefined {
  const list = view.read(signerListKey(account));
  if (!list) return "tefNOT_MULTI_SIGNING";
  const weights = new Map<string, number>((list.SignerEntries as { SignerEntry: { Account: string; SignerWeight: number } }[]).map((e) => [e.SignerEntry.Account, e.SignerEntry.SignerWeight]));
  let total = 0;
  for (const { Signer: s } of tx.Signers as { Signer: { Account: string; SigningPubKey: string } }[]) {
    const weight = weights.get(s.Account);
    if (weight === undefined) return "tefBAD_SIGNATURE";
    const key = signerAddress(s.SigningPubKey);
    const signerRoot = view.read(accountKey(s.Account));
    const viaMaster = key === s.Account && (!signerRoot || ((signerRoot.Flags ?? 0) & LSF.disableMaster) === 0);
    if (!viaMaster && key !== signerRoot?.RegularKey) return "tefBAD_SIGNATURE";
    total += weight;
  }
  return total >= list.SignerQuorum ? undefined : "tefBAD_QUORUM";
}
