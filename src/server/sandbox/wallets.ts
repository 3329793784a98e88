import { createHash } from "node:crypto";
import { Wallet } from "xrpl";

/** The sandbox's fixed roles, derived from SANDBOX_SEED so every start (and every machine) gets the same accounts. */
export interface SandboxWallets {
  /** Issues VVX; has DefaultRipple so holders can pay each other through it. */
  issuer: Wallet;
  /** The platform account (PLATFORM_SEED's role in sandbox mode): holds XRP and VVX. */
  treasury: Wallet;
  /** Funded the XRP/VVX AMM pool at genesis and holds its LP tokens. */
  ammProvider: Wallet;
}

function roleWallet(seed: string, role: string): Wallet {
  // 16 bytes of SHA-256(seed:role) is exactly the entropy a family seed carries.
  const entropy = createHash("sha256").update(`${seed}:${role}`).digest().subarray(0, 16);
  return Wallet.fromEntropy(Uint8Array.from(entropy));
}

/** Deterministic sandbox wallets for a SANDBOX_SEED. */
export function sandboxWallets(seed: string): SandboxWallets {
  return {
    issuer: roleWallet(seed, "issuer"),
    treasury: roleWallet(seed, "treasury"),
    ammProvider: roleWallet(seed, "amm-provider"),
  };
}
