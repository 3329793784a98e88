import type { TerCode } from "../codes";
import { Iou } from "../iou";
import { ACCOUNT_ONE, accountKey, isLowAccount, trustLineKey } from "../keys";
import type { ApplyView, Entry } from "../view";

/** Current mainnet reserves and fee (drops). */
export const FEES = { baseFee: 10n, reserveBase: 1_000_000n, reserveIncrement: 200_000n } as const;

/** Ledger flags (lsf*) this sandbox reads or writes. */
export const LSF = {
  // AccountRoot
  requireDestTag: 0x00020000,
  disallowXRP: 0x00080000,
  disableMaster: 0x00100000,
  defaultRipple: 0x00800000,
  depositAuth: 0x01000000,
  // RippleState
  lowReserve: 0x00010000,
  highReserve: 0x00020000,
  lowNoRipple: 0x00100000,
  highNoRipple: 0x00200000,
  lowFreeze: 0x00400000,
  highFreeze: 0x00800000,
  lowDeepFreeze: 0x02000000,
  highDeepFreeze: 0x04000000,
  // Offer
  passive: 0x00010000,
  sell: 0x00020000,
  // NFTokenOffer
  sellNFToken: 0x00000001,
} as const;

/** An amount as the engine computes with it: XRP in drops, or an IOU value with its currency and issuer. */
export type Amount = { xrp: bigint } | { iou: Iou; currency: string; issuer: string };
export type IouAmount = { iou: Iou; currency: string; issuer: string };

export function isXrp(a: Amount): a is { xrp: bigint } {
  return "xrp" in a;
}

/** Parses rippled's JSON amount (drops string or {currency, issuer, value}); undefined when malformed. */
export function parseAmount(json: unknown): Amount | undefined {
  if (typeof json === "string") return /^-?\d+$/.test(json) ? { xrp: BigInt(json) } : undefined;
  if (json && typeof json === "object") {
    const { currency, issuer, value } = json as Record<string, unknown>;
    if (typeof currency !== "string" || typeof issuer !== "string" || typeof value !== "string" || currency === "XRP") return undefined;
    try {
      return { iou: Iou.parse(value), currency, issuer };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function amountJson(a: Amount): string | { currency: string; issuer: string; value: string } {
  return isXrp(a) ? a.xrp.toString() : { currency: a.currency, issuer: a.issuer, value: a.iou.toString() };
}

export function isPositive(a: Amount): boolean {
  return isXrp(a) ? a.xrp > 0n : a.iou.signum() > 0;
}

export function sameIssue(a: Amount, b: Amount): boolean {
  if (isXrp(a) || isXrp(b)) return isXrp(a) && isXrp(b);
  return a.currency === b.currency && a.issuer === b.issuer;
}

/** The account reserve for an owner count: base plus one increment per owned object. */
export function reserveFor(ownerCount: number): bigint {
  return FEES.reserveBase + FEES.reserveIncrement * BigInt(ownerCount);
}

export function readAccount(view: ApplyView, address: string): Entry | undefined {
  return view.read(accountKey(address));
}

export function balanceOf(account: Entry): bigint {
  return BigInt(account.Balance);
}

/** Adds (or with a negative delta removes) owned objects on an account root. */
export function adjustOwnerCount(view: ApplyView, address: string, delta: number): void {
  if (delta === 0) return;
  const account = readAccount(view, address)!;
  account.OwnerCount = Math.max(0, (account.OwnerCount ?? 0) + delta);
  view.update(account);
}

export function addXrp(view: ApplyView, address: string, drops: bigint): void {
  const account = readAccount(view, address)!;
  account.Balance = (balanceOf(account) + drops).toString();
  view.update(account);
}

/** A new AccountRoot as rippled creates it on first XRP funding (Sequence = the ledger's index). */
export function newAccountRoot(address: string, drops: bigint, ledgerIndex: number): Entry {
  return { LedgerEntryType: "AccountRoot", index: accountKey(address), Account: address, Balance: drops.toString(), Flags: 0, OwnerCount: 0, Sequence: ledgerIndex };
}

// ---- trust lines -----------------------------------------------------------

export function readLine(view: ApplyView, a: string, b: string, currency: string): Entry | undefined {
  return view.read(trustLineKey(a, b, currency));
}

/** The holder's balance on a line, from the holder's side (rippled stores it from the low account's side). */
export function lineBalance(line: Entry, holder: string): Iou {
  const balance = Iou.parse(line.Balance.value);
  return line.LowLimit.issuer === holder ? balance : balance.negate();
}

export function setLineBalance(line: Entry, holder: string, value: Iou): void {
  const low = line.LowLimit.issuer === holder ? value : value.negate();
  line.Balance = { currency: line.Balance.currency, issuer: ACCOUNT_ONE, value: low.toString() };
}

export function lineLimit(line: Entry, side: string): Iou {
  return Iou.parse((line.LowLimit.issuer === side ? line.LowLimit : line.HighLimit).value);
}

/** Builds a new RippleState; the peer's side gets NoRipple unless the peer has DefaultRipple, as rippled's trustCreate does. */
export function newLine(view: ApplyView, holder: string, peer: string, currency: string, holderLimit: Iou, holderNoRipple: boolean): Entry {
  const holderIsLow = isLowAccount(holder, peer);
  const [low, high] = holderIsLow ? [holder, peer] : [peer, holder];
  const peerRoot = readAccount(view, peer)!;
  const peerNoRipple = ((peerRoot.Flags ?? 0) & LSF.defaultRipple) === 0;
  let flags = 0;
  if (holderNoRipple) flags |= holderIsLow ? LSF.lowNoRipple : LSF.highNoRipple;
  if (peerNoRipple) flags |= holderIsLow ? LSF.highNoRipple : LSF.lowNoRipple;
  return {
    LedgerEntryType: "RippleState",
    index: trustLineKey(holder, peer, currency),
    Balance: { currency, issuer: ACCOUNT_ONE, value: "0" },
    Flags: flags,
    HighLimit: { currency, issuer: high, value: (holderIsLow ? Iou.ZERO : holderLimit).toString() },
    HighNode: "0",
    LowLimit: { currency, issuer: low, value: (holderIsLow ? holderLimit : Iou.ZERO).toString() },
    LowNode: "0",
  };
}

function sideIsDefault(view: ApplyView, line: Entry, side: "low" | "high"): boolean {
  const address = side === "low" ? line.LowLimit.issuer : line.HighLimit.issuer;
  const noRippleFlag = side === "low" ? LSF.lowNoRipple : LSF.highNoRipple;
  const freezeFlag = side === "low" ? LSF.lowFreeze : LSF.highFreeze;
  const root = readAccount(view, address)!;
  const defaultNoRipple = ((root.Flags ?? 0) & LSF.defaultRipple) === 0;
  return (
    lineBalance(line, address).signum() <= 0 &&
    lineLimit(line, address).isZero() &&
    (((line.Flags ?? 0) & noRippleFlag) !== 0) === defaultNoRipple &&
    ((line.Flags ?? 0) & freezeFlag) === 0 &&
    ((line.Flags ?? 0) & (side === "low" ? LSF.lowDeepFreeze : LSF.highDeepFreeze)) === 0 &&
    line[side === "low" ? "LowQualityIn" : "HighQualityIn"] === undefined &&
    line[side === "low" ? "LowQualityOut" : "HighQualityOut"] === undefined
  );
}

/**
 * Recomputes which sides of a line own it (lsfLowReserve/lsfHighReserve),
 * moves owner counts to match, and deletes a line both sides left at default,
 * as rippled does after every change to a trust line.
 */
export function settleLine(view: ApplyView, line: Entry, existed: boolean): void {
  const before = line.Flags ?? 0;
  let flags = before & ~(LSF.lowReserve | LSF.highReserve);
  const lowDefault = sideIsDefault(view, line, "low");
  const highDefault = sideIsDefault(view, line, "high");
  if (!lowDefault) flags |= LSF.lowReserve;
  if (!highDefault) flags |= LSF.highReserve;
  const hadLow = existed && (before & LSF.lowReserve) !== 0;
  const hadHigh = existed && (before & LSF.highReserve) !== 0;
  const deleting = lowDefault && highDefault && lineBalance(line, line.LowLimit.issuer).isZero();
  const hasLow = !deleting && (flags & LSF.lowReserve) !== 0;
  const hasHigh = !deleting && (flags & LSF.highReserve) !== 0;
  adjustOwnerCount(view, line.LowLimit.issuer, Number(hasLow) - Number(hadLow));
  adjustOwnerCount(view, line.HighLimit.issuer, Number(hasHigh) - Number(hadHigh));
  line.Flags = flags;
  if (deleting) {
    if (existed) view.erase(line);
  } else if (existed) view.update(line);
  else view.insert(line);
}

/** IOU a holder can send: its positive balance, or unlimited for the issuer itself. */
export function iouAvailable(view: ApplyView, holder: string, currency: string, issuer: string): Iou | "unlimited" {
  if (holder === issuer) return "unlimited";
  const line = readLine(view, holder, issuer, currency);
  if (!line) return Iou.ZERO;
  const balance = lineBalance(line, holder);
  return balance.signum() > 0 ? balance : Iou.ZERO;
}

/** IOU a holder can still receive under its trust line limit; the issuer accepts its own IOU without limit. */
export function iouCapacity(view: ApplyView, holder: string, currency: string, issuer: string): Iou | "unlimited" | "no-line" {
  if (holder === issuer) return "unlimited";
  const line = readLine(view, holder, issuer, currency);
  if (!line) return "no-line";
  const room = lineLimit(line, holder).sub(lineBalance(line, holder));
  return room.signum() > 0 ? room : Iou.ZERO;
}

/** Whether the issuer lets value ripple through it on this holder's line (its side has no NoRipple). */
export function issuerRipples(view: ApplyView, holder: string, currency: string, issuer: string): boolean {
  const line = readLine(view, holder, issuer, currency);
  if (!line) return false;
  const issuerIsLow = line.LowLimit.issuer === issuer;
  return ((line.Flags ?? 0) & (issuerIsLow ? LSF.lowNoRipple : LSF.highNoRipple)) === 0;
}

/** Moves IOU along holder<->issuer lines (and through the issuer between two holders); callers check funds and limits first. */
export function transferIou(view: ApplyView, from: string, to: string, currency: string, issuer: string, value: Iou): void {
  if (value.isZero() || from === to) return;
  if (from !== issuer) shiftLine(view, from, issuer, currency, value.negate());
  if (to !== issuer) shiftLine(view, to, issuer, currency, value);
}

function shiftLine(view: ApplyView, holder: string, issuer: string, currency: string, delta: Iou): void {
  const line = readLine(view, holder, issuer, currency);
  if (!line) throw new Error(`no trust line ${holder}/${issuer}/${currency}`);
  setLineBalance(line, holder, lineBalance(line, holder).add(delta));
  settleLine(view, line, true);
}

/** Sends any amount from one account to another (XRP directly, IOU via its issuer); funds are checked by the caller. */
export function sendAmount(view: ApplyView, from: string, to: string, amount: Amount): void {
  if (isXrp(amount)) {
    addXrp(view, from, -amount.xrp);
    addXrp(view, to, amount.xrp);
  } else transferIou(view, from, to, amount.currency, amount.issuer, amount.iou);
}

/** Checks that `from` can pay `amount` to `to` now: funds, the receiver's line and rippling; returns the failing code. */
export function canSend(view: ApplyView, from: string, to: string, amount: Amount, fundsCode: TerCode): TerCode | undefined {
  if (isXrp(amount)) {
    const root = readAccount(view, from)!;
    return balanceOf(root) - reserveFor(root.OwnerCount ?? 0) < amount.xrp ? fundsCode : undefined;
  }
  const available = iouAvailable(view, from, amount.currency, amount.issuer);
  if (available !== "unlimited" && available.lt(amount.iou)) return fundsCode;
  const room = iouCapacity(view, to, amount.currency, amount.issuer);
  if (room === "no-line") return "tecNO_LINE";
  if (room !== "unlimited" && room.lt(amount.iou)) return "tecPATH_PARTIAL";
  if (from !== amount.issuer && to !== amount.issuer) {
    if (!issuerRipples(view, from, amount.currency, amount.issuer) || !issuerRipples(view, to, amount.currency, amount.issuer)) return "tecPATH_DRY";
  }
  return undefined;
}
