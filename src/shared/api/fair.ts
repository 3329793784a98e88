import { t } from "elysia";

// The provably fair seeds API (slots and the daily wheel): request and response schemas, written once.

export const SeedPairView = t.Object({
  success: t.Literal(true),
  walletAddress: t.String(),
  serverSeedHash: t.String({ description: "SHA-256 of the current (secret) server seed" }),
  committedAt: t.String({ description: "When this hash was first shown (the pair made, or its last rotation)" }),
  clientSeed: t.String(),
  nextNonce: t.Number({ description: "The nonce the next slot spin or wheel spin uses" }),
});

export const ClientSeedBody = t.Object({
  walletAddress: t.Optional(t.String()),
  clientSeed: t.String({ description: "1-64 letters, digits, '_', '.' or '-'" }),
});

export const RotateBody = t.Object({ walletAddress: t.Optional(t.String()) });

export const OpenSeedsBody = t.Object({ walletAddress: t.Optional(t.String()) });

export const RotateView = t.Object({
  success: t.Literal(true),
  walletAddress: t.String(),
  previousServerSeed: t.String({ description: "The retired server seed, revealed" }),
  previousServerSeedHash: t.String(),
  previousNoncesUsed: t.Number({ description: "Nonces 0 .. n-1 were used under the retired seed" }),
  previousCommittedAt: t.String({ description: "When the retired seed's hash was first shown" }),
  serverSeedHash: t.String({ description: "SHA-256 of the new server seed" }),
  committedAt: t.String({ description: "Now: when the new hash is first shown" }),
  clientSeed: t.String(),
  nextNonce: t.Number(),
});

export const RevealedView = t.Object({
  success: t.Literal(true),
  serverSeedHash: t.String(),
  serverSeed: t.String(),
  walletAddress: t.String(),
  noncesUsed: t.Number(),
  committedAt: t.String({ description: "When its hash was first shown" }),
  revealedAt: t.String(),
});
