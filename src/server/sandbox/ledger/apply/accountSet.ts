import type { TxHandler } from "./context";
import { hasOnlyFlags } from "./context";
import { deriveAddress } from "xrpl";
import { signerListKey } from "../keys";
import { LSF, readAccount } from "./common";

const TF_REQUIRE_DEST_TAG = 0x00010000;
const TF_OPTIONAL_DEST_TAG = 0x00020000;
const TF_DISALLOW_XRP = 0x00100000;
const TF_ALLOW_XRP = 0x00200000;

/** AccountSet asf* values this sandbox applies, with the lsf* flag each controls. */
const ASF: Record<number, number> = {
  1: LSF.requireDestTag, // asfRequireDest
  3: LSF.disallowXRP, // asfDisallowXRP (advisory on the ledger, as in rippled)
  4: LSF.disableMaster, // asfDisableMaster
  10: 0, // asfAuthorizedNFTokenMinter: sets the NFTokenMinter field, no flag
  8: LSF.defaultRipple, // asfDefaultRipple
};
const ASF_DISABLE_MASTER = 4;
const ASF_MINTER = 10;

export const accountSet: TxHandler = {
  preflight(tx) {
    if (!hasOnlyFlags(tx, TF_REQUIRE_DEST_TAG | TF_OPTIONAL_DEST_TAG | TF_DISALLOW_XRP | TF_ALLOW_XRP)) return "temINVALID_FLAG";
    const flags = tx.Flags ?? 0;
    if ((flags & TF_REQUIRE_DEST_TAG && flags & TF_OPTIONAL_DEST_TAG) || (flags & TF_DISALLOW_XRP && flags & TF_ALLOW_XRP)) return "temINVALID_FLAG";
    if (tx.SetFlag !== undefined && tx.SetFlag === tx.ClearFlag) return "temINVALID_FLAG";
    for (const f of [tx.SetFlag, tx.ClearFlag]) if (f !== undefined && !(f in ASF)) return "temDISABLED";
    if (tx.TransferRate !== undefined && tx.TransferRate !== 0 && tx.TransferRate !== 1_000_000_000) return "temDISABLED";
    if (tx.TickSize !== undefined) return "temDISABLED";
    // rippled's SetAccount: the minter comes with asfAuthorizedNFTokenMinter, and clearing it takes none.
    if (tx.SetFlag === ASF_MINTER && typeof tx.NFTokenMinter !== "string") return "temMALFORMED";
    if (tx.ClearFlag === ASF_MINTER && tx.NFTokenMinter !== undefined) return "temMALFORMED";
    if (tx.Domain !== undefined && (typeof tx.Domain !== "string" || tx.Domain.length > 512)) return "temMALFORMED";
    return undefined;
  },
  apply(ctx) {
    const root = readAccount(ctx.view, ctx.account)!;
    if (ctx.tx.SetFlag === ASF_DISABLE_MASTER) {
      // rippled: only the master key may disable itself, and only with another way to sign left.
      if (deriveAddress(ctx.tx.SigningPubKey ?? "") !== ctx.account) return "tecNEED_MASTER_KEY";
      if (!root.RegularKey && !ctx.view.exists(signerListKey(ctx.account))) return "tecNO_ALTERNATIVE_KEY";
    }
    const tx = ctx.tx;
    let flags = root.Flags ?? 0;
    const txFlags = tx.Flags ?? 0;
    if (txFlags & TF_REQUIRE_DEST_TAG) flags |= LSF.requireDestTag;
    if (txFlags & TF_OPTIONAL_DEST_TAG) flags &= ~LSF.requireDestTag;
    if (txFlags & TF_DISALLOW_XRP) flags |= LSF.disallowXRP;
    if (txFlags & TF_ALLOW_XRP) flags &= ~LSF.disallowXRP;
    if (tx.SetFlag !== undefined) flags |= ASF[tx.SetFlag]!;
    if (tx.ClearFlag !== undefined) flags &= ~ASF[tx.ClearFlag]!;
    root.Flags = flags >>> 0;
    if (tx.Domain !== undefined) {
      if (tx.Domain === "") delete root.Domain;
      else root.Domain = tx.Domain;
    }
    if (tx.EmailHash !== undefined) root.EmailHash = tx.EmailHash;
    if (tx.SetFlag === ASF_MINTER) root.NFTokenMinter = tx.NFTokenMinter;
    if (tx.ClearFlag === ASF_MINTER) delete root.NFTokenMinter;
    ctx.view.update(root);
    return "tesSUCCESS";
  },
};
