import { Elysia, t } from "elysia";
import { actingWallet, walletSession } from "../auth/guard";
import type { AuthService } from "../auth/service";
import { NotFoundError } from "../platform/errors";
import { parseAddress } from "../ledger/address";
import { parseClientSeed, parseSeedHash } from "./model";
import { ClientSeedBody, OpenSeedsBody, RevealedView, RotateBody, RotateView, SeedPairView } from "../../shared/api/fair";
import type { FairSeedService } from "./service";
import { VERIFIER_PATH } from "../../shared/fair";
import verifierSource from "../../verifier/vvx-verifier.html" with { type: "text" };
// A text import: the file as written, embedded in the binary too (TypeScript types *.html as a bundle).
const VERIFIER_HTML = verifierSource as unknown as string;

export type { DrawnSeeds } from "./model";
export type { SeedFacts } from "./repository";
export type { FairSeedService } from "./service";

/**
 * The per-wallet seed pair of the seeded games (slots and the daily wheel): read it, set the
 * client seed, rotate the server seed (which reveals the old one), look up a revealed seed.
 */
export function fairRoutes(deps: { fair: FairSeedService; auth: AuthService }) {
  const { fair } = deps;
  return new Elysia({ name: "fair" })
    // The standalone verifier, as its source in the repository is: one file that works saved and offline.
    .get(VERIFIER_PATH, () => new Response(VERIFIER_HTML, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" } }), {
      detail: { summary: "The standalone verifier: one self-contained HTML file (no server calls) that re-computes published rounds", tags: ["fair"] },
    })
    .use(walletSession(deps.auth))
    .get(
      "/api/fair/seeds/:wallet",
      async ({ params }) => {
        const pair = await fair.pair(parseAddress(params.wallet, "wallet"));
        if (!pair) throw new NotFoundError("This wallet has no seed pair yet: its first spin, or POST /api/fair/seeds by its session, makes one", "SEED_PAIR_NOT_FOUND");
        return { success: true as const, ...pair };
      },
      {
        params: t.Object({ wallet: t.String() }),
        response: SeedPairView,
        detail: { summary: "A wallet's seed pair: the server seed's SHA-256, the client seed and the next nonce (404 before it has one)", tags: ["fair"] },
      },
    )
    .post(
      "/api/fair/seeds",
      async ({ body, session }) => ({ success: true as const, ...(await fair.open(actingWallet(session, body.walletAddress))) }),
      {
        body: OpenSeedsBody,
        response: SeedPairView,
        detail: { summary: "The session wallet's seed pair, made now if it has none (so its commitment is shown before the first play)", tags: ["fair"] },
      },
    )
    .post(
      "/api/fair/client-seed",
      async ({ body, session }) => {
        const wallet = actingWallet(session, body.walletAddress);
        return { success: true as const, ...(await fair.setClientSeed(wallet, parseClientSeed(body.clientSeed))) };
      },
      { body: ClientSeedBody, response: SeedPairView, detail: { summary: "Set the session wallet's client seed", tags: ["fair"] } },
    )
    .post(
      "/api/fair/rotate",
      async ({ body, session }) => ({ success: true as const, ...(await fair.rotate(actingWallet(session, body.walletAddress))) }),
      { body: RotateBody, response: RotateView, detail: { summary: "Reveal the session wallet's server seed and commit to a new one", tags: ["fair"] } },
    )
    .get(
      "/api/fair/revealed/:hash",
      async ({ params }) => ({ success: true as const, ...(await fair.revealed(parseSeedHash(params.hash, "hash"))) }),
      { params: t.Object({ hash: t.String() }), response: RevealedView, detail: { summary: "A revealed server seed by its SHA-256 (404 while still in use)", tags: ["fair"] } },
    );
}
