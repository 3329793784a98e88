import { Elysia, t } from "elysia";
import { actingWallet, walletSession } from "../../auth/guard";
import type { AuthService } from "../../auth/service";
import type { FairSeedService } from "../../fair/service";
import { parseAddress } from "../../wallet/service";
import { EligibilityView, SpinBody, WheelResult, WheelSpinItem } from "./model";
import type { DailySpinService } from "./service";

/** The spec's /api/daily-spin/* calls, plus the wallet's wheel spins with their seeds (for /fair). */
export function dailySpinRoutes(deps: { dailySpin: DailySpinService; fair: FairSeedService; auth: AuthService }) {
  const { dailySpin, fair } = deps;
  return new Elysia({ name: "daily-spin" })
    .use(walletSession(deps.auth))
    .get(
      "/api/daily-spin/check-eligibility/:wallet",
      ({ params }) => ({ success: true as const, ...dailySpin.eligibility(parseAddress(params.wallet, "walletAddress")) }),
      { params: t.Object({ wallet: t.String() }), response: EligibilityView, detail: { summary: "Whether the wallet may spin today (UTC), with its streaks", tags: ["daily-spin"] } },
    )
    .post(
      "/api/daily-spin/spin",
      ({ body, session }) => ({ success: true as const, result: dailySpin.spin(actingWallet(session, body.walletAddress)) }),
      {
        body: SpinBody,
        response: t.Object({ success: t.Literal(true), result: WheelResult }),
        detail: { summary: "Spin the wheel once today; prize spins are credited to the slots at once; 409 when already spun", tags: ["daily-spin"] },
      },
    )
    .get(
      "/api/daily-spin/spins",
      ({ query }) => {
        const rows = dailySpin.repo.spinsOf(parseAddress(query.wallet, "wallet"), 60);
        const revealed = fair.revealedSeeds(rows.map((r) => r.serverSeedHash));
        return {
          success: true as const,
          spins: rows.map((r) => ({
            id: r.id,
            date: r.createdAt.toISOString(),
            position: r.position,
            prizeLabel: r.prizeLabel,
            prizeAmount: r.prizeAmount,
            streak: r.streak,
            serverSeedHash: r.serverSeedHash,
            serverSeed: revealed.get(r.serverSeedHash) ?? null,
            clientSeed: r.clientSeed,
            nonce: r.nonce,
            slotSessionId: r.slotSessionId,
          })),
        };
      },
      {
        query: t.Object({ wallet: t.Optional(t.String()) }),
        response: t.Object({ success: t.Literal(true), spins: t.Array(WheelSpinItem) }),
        detail: { summary: "A wallet's wheel spins, newest first, with their seeds", tags: ["daily-spin"] },
      },
    );
}
