import { ECDSA, Wallet, dropsToXrp, type SubmittableTransaction } from "xrpl";
import { FEES, lineBalance } from "./apply/common";
import { Iou } from "./iou";
import { accountKey, trustLineKey } from "./keys";
import type { LedgerSelector, SandboxLedger } from "./ledger";
import type { FaucetAccount } from "./state";

/** Trust line limit the sandbox sets for VVX holders; below 10^11 so rippled prints it without an exponent. */
export const FAUCET_VVX_LIMIT = "10000000000";
/** Genesis figures: treasury and AMM pool (1 XRP = 1,185 VVX). */
export const GENESIS = {
  issuerXrp: 1_000n * 1_000_000n,
  treasuryXrp: 1_000_000n * 1_000_000n,
  treasuryVvx: "1000000000",
  ammProviderXrp: 200_000n * 1_000_000n,
  poolXrp: 100_000n * 1_000_000n,
  poolVvx: "118500000",
  poolTradingFee: 500,
} as const;
/** Faucet default when POST /sandbox/api/accounts names no amount. */
export const DEFAULT_FAUCET_XRP = 1_000;

export interface FaucetOptions {
  xrp?: number;
  vvx?: number;
  /** Key type of the new account; ed25519 unless secp256k1 is asked for. */
  algorithm?: "ed25519" | "secp256k1";
}

function vvx(ledger: SandboxLedger, value: string) {
  return { currency: ledger.currency, issuer: ledger.wallets.issuer.address, value };
}

/**
 * Signed transactions kept from an earlier genesis: `bun run build` makes a genesis once with the
 * default SANDBOX_SEED and VVX_CURRENCY (`record` on) and the binary's entry hands its blobs back, so a
 * fresh data directory's genesis is not signed again. A blob is used only for the very transaction it
 * signs (same signer, same fields, in order); the ledger checks its signature as any other's.
 */
export const KEPT_SIGNATURES = Symbol.for("vvx.sandbox.keptSignatures");
export interface KeptSignatures {
  /** Signer's public key and the unsigned transaction's JSON -> its tx_blob. */
  blobs: Record<string, string>;
  /** Keep what is signed (the build's genesis). */
  record?: boolean;
}

function signed(wallet: Wallet, tx: Record<string, unknown>): string {
  const kept = (globalThis as { [KEPT_SIGNATURES]?: KeptSignatures })[KEPT_SIGNATURES];
  const key = `${wallet.publicKey} ${JSON.stringify(tx)}`;
  const blob = kept?.blobs[key] ?? wallet.sign(tx as unknown as SubmittableTransaction).tx_blob;
  if (kept?.record) kept.blobs[key] = blob;
  return blob;
}

/** Signs and applies a transaction for one of the sandbox's own wallets (genesis and faucet). */
export function submitAs(ledger: SandboxLedger, wallet: Wallet, fields: Record<string, unknown>): string {
  const root = ledger.accountRoot(wallet.address, "current");
  if (!root) throw new Error(`sandbox account ${wallet.address} does not exist`);
  const tx = {
    Fee: fields.TransactionType === "AMMCreate" ? FEES.reserveIncrement.toString() : FEES.baseFee.toString(),
    Sequence: root.Sequence,
    LastLedgerSequence: ledger.openIndex + 20,
    Flags: 0,
    ...fields,
    Account: wallet.address,
  };
  const outcome = ledger.submit(signed(wallet, tx));
  if (outcome.result !== "tesSUCCESS") throw new Error(`sandbox ${fields.TransactionType} failed: ${outcome.result}`);
  return outcome.hash;
}

/**
 * Ledger 1 holds the genesis account (the same on every install, close time 0,
 * like rippled's genesis, so its hash and the AMM pool account derived from it
 * follow from SANDBOX_SEED alone); ledger 2 sets up the issuer, treasury and
 * the XRP/VVX pool with real transactions.
 */
export function genesis(ledger: SandboxLedger): void {
  const g = ledger.genesisWallet;
  ledger.writeGenesisLedger({ LedgerEntryType: "AccountRoot", index: accountKey(g.address), Account: g.address, Balance: "100000000000000000", Flags: 0, OwnerCount: 0, Sequence: 1 });
  const { issuer, treasury, ammProvider } = ledger.wallets;
  submitAs(ledger, g, { TransactionType: "Payment", Destination: issuer.address, Amount: GENESIS.issuerXrp.toString() });
  submitAs(ledger, g, { TransactionType: "Payment", Destination: treasury.address, Amount: GENESIS.treasuryXrp.toString() });
  submitAs(ledger, g, { TransactionType: "Payment", Destination: ammProvider.address, Amount: GENESIS.ammProviderXrp.toString() });
  submitAs(ledger, issuer, { TransactionType: "AccountSet", SetFlag: 8 }); // asfDefaultRipple
  submitAs(ledger, treasury, { TransactionType: "TrustSet", LimitAmount: vvx(ledger, FAUCET_VVX_LIMIT) });
  submitAs(ledger, ammProvider, { TransactionType: "TrustSet", LimitAmount: vvx(ledger, FAUCET_VVX_LIMIT) });
  submitAs(ledger, issuer, { TransactionType: "Payment", Destination: treasury.address, Amount: vvx(ledger, GENESIS.treasuryVvx) });
  submitAs(ledger, issuer, { TransactionType: "Payment", Destination: ammProvider.address, Amount: vvx(ledger, GENESIS.poolVvx) });
  submitAs(ledger, ammProvider, { TransactionType: "AMMCreate", Amount: GENESIS.poolXrp.toString(), Amount2: vvx(ledger, GENESIS.poolVvx), TradingFee: GENESIS.poolTradingFee });
  ledger.close();
  ledger.log.info("sandbox ledger genesis", { issuer: issuer.address, treasury: treasury.address, ledger: ledger.validatedIndex });
}

/**
 * Creates a funded account: XRP from the genesis account, and when `vvx` is
 * given a VVX trust line (limit 10,000,000,000) and that balance from the
 * issuer. Validates the ledger at once and returns the new account's seed.
 */
export function createAccount(ledger: SandboxLedger, options: FaucetOptions = {}): { address: string; seed: string } {
  const xrp = options.xrp ?? DEFAULT_FAUCET_XRP;
  const drops = BigInt(Math.round(xrp * 1_000_000));
  if (!Number.isFinite(xrp) || drops < FEES.reserveBase) throw new RangeError("xrp must be at least 1 (the base reserve)");
  if (options.vvx !== undefined && !(Number.isFinite(options.vvx) && options.vvx >= 0 && options.vvx <= Number(FAUCET_VVX_LIMIT))) {
    throw new RangeError(`vvx must be between 0 and ${FAUCET_VVX_LIMIT}`);
  }
  const wallet = Wallet.generate(options.algorithm === "secp256k1" ? ECDSA.secp256k1 : ECDSA.ed25519);
  submitAs(ledger, ledger.genesisWallet, { TransactionType: "Payment", Destination: wallet.address, Amount: drops.toString() });
  if (options.vvx !== undefined) {
    submitAs(ledger, wallet, { TransactionType: "TrustSet", LimitAmount: vvx(ledger, FAUCET_VVX_LIMIT), Flags: 0x00020000 }); // tfSetNoRipple, as wallets do
    if (options.vvx > 0) submitAs(ledger, ledger.wallets.issuer, { TransactionType: "Payment", Destination: wallet.address, Amount: vvx(ledger, Iou.parse(String(options.vvx)).toString()) });
  }
  ledger.store.addFaucetAccount({ address: wallet.address, seed: wallet.seed!, created: new Date().toISOString() });
  ledger.close();
  return { address: wallet.address, seed: wallet.seed! };
}

/** XRP and VVX balances of an account as decimal strings. */
export function balances(ledger: SandboxLedger, address: string, which: LedgerSelector): { xrp: string; vvx: string } {
  const root = ledger.accountRoot(address, which);
  const line = ledger.entry(trustLineKey(address, ledger.wallets.issuer.address, ledger.currency), which);
  return { xrp: root ? String(dropsToXrp(root.Balance)) : "0", vvx: line ? lineBalance(line, address).toString() : "0" };
}

/** Faucet accounts with their seeds and current balances (XRP and VVX as decimal strings). */
export function listAccounts(ledger: SandboxLedger): { address: string; seed: string; xrp: string; vvx: string; created: string }[] {
  return ledger.store.faucetAccounts().map((a: FaucetAccount) => ({ ...a, ...balances(ledger, a.address, "current") }));
}
