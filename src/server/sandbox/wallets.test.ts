import { describe, expect, test } from "bun:test";
import { ECDSA, Wallet } from "xrpl";
import { GENESIS_KEYS, GENESIS_SEED } from "./ledger/keys";
import { ed25519WalletFromEntropy, sandboxWallets } from "./wallets";

describe("sandbox wallets", () => {
  test("native Ed25519 derivation gives exactly xrpl's wallet for the same entropy", () => {
    for (let i = 0; i < 20; i++) {
      const entropy = Uint8Array.from({ length: 16 }, (_, j) => (i * 31 + j * 7) & 0xff);
      const ours = ed25519WalletFromEntropy(entropy);
      const theirs = Wallet.fromEntropy(entropy, { algorithm: ECDSA.ed25519 });
      expect([ours.address, ours.publicKey, ours.privateKey, ours.seed]).toEqual([theirs.address, theirs.publicKey, theirs.privateKey, theirs.seed]);
    }
  });

  test("roles are fixed by the seed and differ from each other", () => {
    const a = sandboxWallets("vvx-sandbox");
    expect(a.treasury.address).toBe("rNPaZ32z9S127yRSb1eco7HtCgAonjG59W");
    expect(a.issuer.address).toBe("rPwPUPAsPmSETpDxsYmQRBoUP48dqsuXxV");
    expect(Wallet.fromSeed(a.treasury.seed!).address).toBe(a.treasury.address);
    const b = sandboxWallets("another-seed");
    expect(new Set([a.issuer.address, a.treasury.address, a.ammProvider.address, b.treasury.address]).size).toBe(4);
  });

  test("the genesis key pair kept in the code is the one xrpl derives from the genesis seed", () => {
    const derived = Wallet.fromSeed(GENESIS_SEED);
    expect([derived.publicKey, derived.privateKey, derived.classicAddress]).toEqual([GENESIS_KEYS.publicKey, GENESIS_KEYS.privateKey, GENESIS_KEYS.address]);
  });
});
