import { isValidClassicAddress } from "xrpl";
import { signerListKey } from "../keys";
import { LSF, readAccount } from "./common";
import { hasOnlyFlags, type TxHandler } from "./context";

/** SetRegularKey: names (or with no RegularKey, removes) the account's regular key pair. */
export const setRegularKey: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, 0)) return "temINVALID_FLAG";
    if (tx.RegularKey !== undefined && (typeof tx.RegularKey !== "string" || !isValidClassicAddress(tx.RegularKey))) return "temMALFORMED";
    if (tx.RegularKey === tx.Account) return "temBAD_REGKEY";
    return undefined;
  },
  apply(ctx) {
    const root = readAccount(ctx.view, ctx.account)!;
    if (ctx.tx.RegularKey !== undefined) root.RegularKey = ctx.tx.RegularKey;
    else {
      // Removing the last way to sign is refused, as in rippled.
      if ((root.Flags ?? 0) & LSF.disableMaster && !ctx.view.exists(signerListKey(ctx.account))) return "tecNO_ALTERNATIVE_KEY";
      delete root.RegularKey;
    }
    ctx.view.update(root);
    return "tesSUCCESS";
  },
};
