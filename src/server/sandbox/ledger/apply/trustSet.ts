import type { TerCode } from "../codes";
import { Iou } from "../iou";
import type { TxHandler } from "./context";
import { hasOnlyFlags } from "./context";
import { LSF, lineBalance, newLine, readAccount, readLine, reserveFor, settleLine } from "./common";

const TF_SETF_AUTH = 0x00010000;
const TF_SET_NO_RIPPLE = 0x00020000;
const TF_CLEAR_NO_RIPPLE = 0x00040000;
const TF_SET_FREEZE = 0x00100000;
const TF_CLEAR_FREEZE = 0x00200000;
const TF_SET_DEEP_FREEZE = 0x00400000;
const TF_CLEAR_DEEP_FREEZE = 0x00800000;
/** QualityIn/QualityOut of 10^9 mean "at par", which rippled stores as no quality at all. */
const QUALITY_ONE = 1_000_000_000;

export const trustSet: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, TF_SETF_AUTH | TF_SET_NO_RIPPLE | TF_CLEAR_NO_RIPPLE | TF_SET_FREEZE | TF_CLEAR_FREEZE | TF_SET_DEEP_FREEZE | TF_CLEAR_DEEP_FREEZE)) return "temINVALID_FLAG";
    const f = tx.Flags ?? 0;
    if ((f & TF_SET_FREEZE && f & TF_CLEAR_FREEZE) || (f & TF_SET_DEEP_FREEZE && f & TF_CLEAR_DEEP_FREEZE)) return "temINVALID_FLAG";
    const limit = tx.LimitAmount;
    if (!limit || typeof limit !== "object") return "temBAD_LIMIT";
    if (limit.currency === "XRP") return "temBAD_CURRENCY";
    let value: Iou;
    try {
      value = Iou.parse(limit.value);
    } catch {
      return "temBAD_LIMIT";
    }
    if (value.isNegative()) return "temBAD_LIMIT";
    if (limit.issuer === tx.Account) return "temDST_IS_SRC";
    if (f & TF_SETF_AUTH) return "temDISABLED"; // authorized trust lines (RequireAuth) are not modelled
    for (const q of [tx.QualityIn, tx.QualityOut]) if (q !== undefined && (!Number.isInteger(q) || q < 0 || q > 0xffffffff)) return "temBAD_LIMIT";
    return undefined;
  },
  apply(ctx) {
    const { view, tx, account } = ctx;
    const { currency, issuer: peer } = tx.LimitAmount;
    const limit = Iou.parse(tx.LimitAmount.value);
    if (!readAccount(view, peer)) return "tecNO_DST";
    const flags = tx.Flags ?? 0;
    const setNoRipple = (flags & TF_SET_NO_RIPPLE) !== 0 && (flags & TF_CLEAR_NO_RIPPLE) === 0;
    const clearNoRipple = (flags & TF_CLEAR_NO_RIPPLE) !== 0 && (flags & TF_SET_NO_RIPPLE) === 0;
    const root = readAccount(view, account)!;
    const ownerCount = root.OwnerCount ?? 0;

    const existing = readLine(view, peer, account, currency);
    if (!existing) {
      if (limit.isZero() && !setNoRipple) return "tecNO_LINE_REDUNDANT";
      // rippled lets an account hold its first two objects without the reserve.
      const needed = ownerCount < 2 ? 0n : reserveFor(ownerCount + 1);
      if (ctx.priorBalance < needed) return "tecNO_LINE_INSUF_RESERVE";
      const line = newLine(view, account, peer, currency, limit, setNoRipple);
      const frozen = applyFreezeAndQuality(line, account, tx);
      if (frozen) return frozen;
      settleLine(view, line, false);
      return "tesSUCCESS";
    }

    const isLow = existing.LowLimit.issuer === account;
    const side = isLow ? "LowLimit" : "HighLimit";
    existing[side] = { currency, issuer: account, value: limit.toString() };
    const noRippleFlag = isLow ? LSF.lowNoRipple : LSF.highNoRipple;
    // rippled refuses NoRipple on a side with a negative balance; it is only set on holders' sides here.
    if (setNoRipple && lineBalance(existing, account).signum() >= 0) existing.Flags = (existing.Flags ?? 0) | noRippleFlag;
    if (clearNoRipple) existing.Flags = (existing.Flags ?? 0) & ~noRippleFlag;
    const frozen = applyFreezeAndQuality(existing, account, tx);
    if (frozen) return frozen;
    const reserveFlag = isLow ? LSF.lowReserve : LSF.highReserve;
    const hadReserve = ((existing.Flags ?? 0) & reserveFlag) !== 0;
    const before = root.OwnerCount ?? 0;
    settleLine(view, existing, true);
    const after = readAccount(view, account)!.OwnerCount ?? 0;
    if (!hadReserve && after > before && ctx.priorBalance < reserveFor(after)) return "tecINSUF_RESERVE_LINE";
    return "tesSUCCESS";
  },
};

/**
 * QualityIn/QualityOut on the account's side (10^9 or 0 clear it), and the
 * freeze flags the account sets on its side of the line. Deep freeze needs
 * the line frozen too (rippled's SetTrust with DeepFreeze).
 */
function applyFreezeAndQuality(line: Record<string, any>, account: string, tx: Record<string, any>): TerCode | undefined {
  const side = line.LowLimit.issuer === account ? "Low" : "High";
  for (const [field, value] of [["QualityIn", tx.QualityIn], ["QualityOut", tx.QualityOut]] as const) {
    if (value === undefined) continue;
    if (value === 0 || value === QUALITY_ONE) delete line[`${side}${field}`];
    else line[`${side}${field}`] = value;
  }
  const f = tx.Flags ?? 0;
  const freeze = side === "Low" ? LSF.lowFreeze : LSF.highFreeze;
  const deep = side === "Low" ? LSF.lowDeepFreeze : LSF.highDeepFreeze;
  let flags = line.Flags ?? 0;
  if (f & TF_SET_FREEZE) flags |= freeze;
  if (f & TF_CLEAR_FREEZE) flags &= ~freeze;
  if (f & TF_SET_DEEP_FREEZE) flags |= deep;
  if (f & TF_CLEAR_DEEP_FREEZE) flags &= ~deep;
  if (flags & deep && !(flags & freeze)) return "tecNO_PERMISSION";
  line.Flags = flags >>> 0;
  return undefined;
}
