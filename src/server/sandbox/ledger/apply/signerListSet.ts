import { accountIdHex, signerListKey } from "../keys";
import { adjustOwnerCount, readAccount, reserveFor } from "./common";
import { hasOnlyFlags, type TxHandler } from "./context";

/** ExpandedSignerList: up to 32 signers. */
const MAX_SIGNERS = 32;

type SignerEntry = { SignerEntry: { Account: string; SignerWeight: number; WalletLocator?: string } };

export const signerListSet: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, 0)) return "temINVALID_FLAG";
    if (!Number.isInteger(tx.SignerQuorum) || tx.SignerQuorum < 0) return "temMALFORMED";
    const entries = tx.SignerEntries as SignerEntry[] | undefined;
    if (tx.SignerQuorum === 0) return entries === undefined ? undefined : "temMALFORMED"; // deleting the list
    if (!Array.isArray(entries) || entries.length === 0 || entries.length > MAX_SIGNERS) return "temMALFORMED";
    const seen = new Set<string>();
    let total = 0;
    for (const { SignerEntry: e } of entries) {
      if (!e || typeof e.Account !== "string") return "temMALFORMED";
      if (e.Account === tx.Account || seen.has(e.Account)) return "temBAD_SIGNER";
      if (!Number.isInteger(e.SignerWeight) || e.SignerWeight <= 0) return "temBAD_WEIGHT";
      seen.add(e.Account);
      total += e.SignerWeight;
    }
    return total < tx.SignerQuorum ? "temBAD_QUORUM" : undefined;
  },
  apply(ctx) {
    const { view, tx, account } = ctx;
    const key = signerListKey(account);
    const existing = view.read(key);
    if (tx.SignerQuorum === 0) {
      if (!existing) return "tesSUCCESS";
      const root = readAccount(view, account)!;
      // rippled: removing the list must leave a way to sign (master key or regular key).
      if ((root.Flags ?? 0) & 0x00100000 && !root.RegularKey) return "tecNO_ALTERNATIVE_KEY";
      view.erase(existing);
      adjustOwnerCount(view, account, -1);
      return "tesSUCCESS";
    }
    // rippled keeps the entries ordered by account ID.
    const sorted = [...(tx.SignerEntries as SignerEntry[])].sort((a, b) => (accountIdHex(a.SignerEntry.Account) < accountIdHex(b.SignerEntry.Account) ? -1 : 1));
    if (!existing) {
      // MultiSignReserve: a signer list of any size counts as one owned object.
      const root = readAccount(view, account)!;
      if (ctx.priorBalance < reserveFor((root.OwnerCount ?? 0) + 1)) return "tecINSUFFICIENT_RESERVE";
      adjustOwnerCount(view, account, 1);
    }
    const list = { LedgerEntryType: "SignerList", index: key, Flags: 0x00010000, OwnerNode: "0", SignerEntries: sorted, SignerListID: 0, SignerQuorum: tx.SignerQuorum };
    if (existing) view.update(list);
    else view.insert(list);
    return "tesSUCCESS";
  },
};
