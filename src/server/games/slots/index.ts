import type { Config } from "../../platform/config";
import { Elysia, t } from "elysia";
import { CLIENT_COOKIE, clientToken } from "../../auth/cookies";
import { actingWallet, walletSession } from "../../auth/guard";
import type { AuthService } from "../../auth/service";
import { parseUuid } from "../../signing/service";
import { parseAddress } from "../../wallet/service";
import { CreateSessionBody, PaymentView, SessionView, SpinBody, SpinListItem, SpinView, parseLimit, parseSessionId, parseSpinCursor, parseTierIndex } from "./model";
import type { SlotsGame } from "./game";

const Nullable = <T extends Parameters<typeof t.Union>[0][number]>(schema: T) => t.Union([schema, t.Null()]);

/** The spec's /api/slots/* calls: packages, payment check, the active session, spins and the spin list. */
export function slotsRoutes(deps: { slots: SlotsGame; auth: AuthService; config: Pick<Config, "cookieSecret"> }) {
  const { slots } = deps;
  return new Elysia({ name: "slots" })
    .use(walletSession(deps.auth))
    .post(
      "/api/slots/create-session",
      async ({ body, session, cookies }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const tierIndex = parseTierIndex(body.tierIndex);
        const payment = await slots.purchases.create({ wallet, clientToken: clientToken(cookies.get(CLIENT_COOKIE), deps.config) }, tierIndex);
        return { success: true as const, payment };
      },
      {
        body: CreateSessionBody,
        response: t.Object({ success: t.Literal(true), payment: PaymentView }),
        detail: { summary: "Buy a spin package: a Xaman VVX payment (own DestinationTag); 409 while a session is active", tags: ["slots"] },
      },
    )
    .get(
      "/api/slots/check-payment/:uuid",
      ({ params }) => ({ success: true as const, ...slots.purchases.check(parseUuid(params.uuid)) }),
      {
        params: t.Object({ uuid: t.String() }),
        response: t.Object({
          success: t.Literal(true),
          confirmed: t.Boolean(),
          status: t.String({ description: "awaiting_payment, paid, refunded or expired" }),
          reason: Nullable(t.String({ description: "Why the last payment to it was refunded (short, wrong_issuer, session_active ...)" })),
          paymentTxHash: Nullable(t.String()),
          session: Nullable(SessionView),
        }),
        detail: { summary: "Whether a package payment was validated; the session it started", tags: ["slots"] },
      },
    )
    .get(
      "/api/slots/active-session/:wallet",
      ({ params }) => ({ success: true as const, session: slots.sessions.activeSession(parseAddress(params.wallet, "wallet")) }),
      {
        params: t.Object({ wallet: t.String() }),
        response: t.Object({ success: t.Literal(true), session: Nullable(SessionView) }),
        detail: { summary: "The wallet's session played now (polled every 3 s), or null", tags: ["slots"] },
      },
    )
    .post(
      "/api/slots/spin",
      ({ body, session }) => {
        const wallet = actingWallet(session, body.walletAddress);
        return { success: true as const, ...slots.sessions.spin(wallet, parseSessionId(body.sessionId)) };
      },
      {
        body: SpinBody,
        response: t.Object({
          success: t.Literal(true),
          spin: SpinView,
          remainingSpins: t.Number(),
          sessionStatus: t.String({ description: "active or completed" }),
          totalWinnings: t.Number({ description: "The session's winnings so far, in VVX" }),
        }),
        detail: { summary: "Spin once; 403 when the session is expired, finished or not the session wallet's", tags: ["slots"] },
      },
    )
    .get(
      "/api/slots/spins",
      ({ query }) => ({
        success: true as const,
        spins: slots.sessions.spinList(parseAddress(query.wallet, "wallet"), parseLimit(query.limit, 50, 500), parseSpinCursor(query.before)),
      }),
      {
        query: t.Object({ wallet: t.Optional(t.String()), limit: t.Optional(t.String()), before: t.Optional(t.String()) }),
        response: t.Object({ success: t.Literal(true), spins: t.Array(SpinListItem) }),
        detail: { summary: "A wallet's spins, newest first, with their seeds (the server seed once revealed) and payout txid", tags: ["slots"] },
      },
    );
}
