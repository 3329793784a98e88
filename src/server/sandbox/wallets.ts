import { createHash, createPrivateKey, createPublicKey } from "node:crypto";
import { Wallet, encodeSeed } from "xrpl";

/** The sandbox's fixed roles, derived from SANDBOX_SEED so every start (and every machine) gets the same accounts. */
export interface SandboxWallets {
  /** Issues VVX; has DefaultRipple so holders can pay each other through it. */
  issuer: Wallet;
  /** The platform account (PLATFORM_SEED's role in sandbox mode): holds XRP and VVX. */
  treasury: Wallet;
  /** Funded the XRP/VVX AMM pool at genesis and holds its LP tokens. */
  ammProvider: Wallet;
}

/** PKCS#8 prefix of a raw 32-byte Ed25519 private key. */
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/**
 * The Ed25519 wallet of a family seed's entropy, as xrpl's Wallet.fromEntropy derives it
 * (private key = first half of SHA-512(entropy)), but with the runtime's native Ed25519:
 * the pure-JS derivation cost ~120 ms of every start-up. A test pins it to xrpl's result.
 */
export function ed25519WalletFromEntropy(entropy: Uint8Array): Wallet {
  const privateKey = createHash("sha512").update(entropy).digest().subarray(0, 32);
  const key = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, privateKey]), format: "der", type: "pkcs8" });
  const spki = createPublicKey(key).export({ format: "der", type: "spki" });
  const publicKey = spki.subarray(spki.length - 32);
  const hex = (b: Uint8Array) => Buffer.from(b).toString("hex").toUpperCase();
  return new Wallet(`ED${hex(publicKey)}`, `ED${hex(privateKey)}`, { seed: encodeSeed(entropy, "ed25519") });
}

function roleWallet(seed: string, role: string): Wallet {
  // 16 bytes of SHA-256(seed:role) is exactly the entropy a family seed carries.
  const entropy = createHash("sha256").update(`${seed}:${role}`).digest().subarray(0, 16);
  return ed25519WalletFromEntropy(Uint8Array.from(entropy));
}

const derived = new Map<string, SandboxWallets>();

/** Deterministic sandbox wallets for a SANDBOX_SEED (derived once per seed). */
export function sandboxWallets(seed: string): SandboxWallets {
  let wallets = derived.get(seed);
  if (!wallets) {
    wallets = { issuer: roleWallet(seed, "issuer"), treasury: roleWallet(seed, "treasury"), ammProvider: roleWallet(seed, "amm-provider") };
    derived.set(seed, wallets);
  }
  return wallets;
}
