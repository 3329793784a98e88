import { Elysia } from "elysia";
import { CLIENT_COOKIE, clientToken, type RequestCookies } from "../auth/cookies";
import { actingWallet, walletSession } from "../auth/guard";
import type { AuthService } from "../auth/service";
import type { Config } from "../platform/config";
import { ValidationError } from "../platform/errors";
import { textResponse } from "../platform/http/cachedJson";
import { queryOf, type ReadLane } from "../platform/http/readLane";
import { parsePositive } from "../platform/http/query";
import { parseAddress } from "../ledger/address";
import type { SignRequestCreated } from "../signing/service";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parseClaimType, parseLedgerId, parsePeriod } from "./model";
import { AcceptTransferBody, CancelTransferBody, ClaimBody, ClaimResponse, OwnedNftsResponse, RewardsQuery, RewardsResponse, SignRequestShape, SummaryResponse, TransferBody, TransfersResponse, WalletParams } from "../../shared/api/rewards";
import type { RewardService } from "./service";
import type { TransferService } from "./transfers";

const signView = (s: SignRequestCreated, message: string) => ({
  success: true as const,
  uuid: s.uuid,
  qrUrl: s.qrUrl,
  xummUrl: s.xummUrl,
  refs: s.refs,
  next: s.next,
  expiresAt: s.expiresAt,
  message,
});

/** A tier id from the claim body (optional); 400 naming tierId. */
function optionalTierId(value: unknown): number | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const n = typeof value === "number" ? value : typeof value === "string" && /^\d{1,9}$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new ValidationError("tierId", "Field 'tierId' must be a tier id (1 for Genesis, 2 for Oasis)");
  return n;
}

/** The Rewards read's input: 400 naming the field that is wrong. */
function rewardsRead(wallet: string, query: { period?: string; page?: string; pageSize?: string }) {
  return {
    wallet: parseAddress(wallet, "walletAddress"),
    period: parsePeriod(query.period, "7days"),
    page: parsePositive(query.page, "page", 1),
    pageSize: parsePositive(query.pageSize, "pageSize", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
  };
}

/** A wallet's holdings, Rewards answer and dashboard cards: public ledger facts, no session. */
function readRoutes(rewards: RewardService, jsonHeaders?: Record<string, string>, lane?: ReadLane) {
  // The wallet's Rewards answer is JSON text (RewardService.rewardsJson): its values come from read models
  // and engine arithmetic whose shape matches RewardsResponse by construction (walletReads.test.ts checks
  // real answers against the schema), so the per-request schema walk is skipped; the headers are the API's.
  const rewardsHeaders = Object.freeze({ "content-type": "application/json", ...jsonHeaders, "cache-control": "no-store" });
  // Between two ledger closes the wallet's holdings are known and the read models hold its records: the answer is made without waiting.
  const rewardsNow = ({ wallet, period, page, pageSize }: ReturnType<typeof rewardsRead>) => rewards.rewardsJsonNow(wallet, period, page, pageSize);
  lane?.add("/api/rewards/wallet/:wallet", (request) => {
    const query = queryOf(request, "period", "page", "pageSize", "t");
    const text = query && rewardsNow(rewardsRead(request.params.wallet!, query));
    return typeof text === "string" ? textResponse(text, rewardsHeaders) : undefined;
  });
  return new Elysia({ name: "rewards-reads" })
    .get(
      "/api/nfts/wallet/:wallet",
      async ({ params }) => {
        const wallet = parseAddress(params.wallet, "walletAddress");
        return { success: true as const, walletAddress: wallet, nfts: await rewards.ownedNfts(wallet) };
      },
      { params: WalletParams, response: OwnedNftsResponse, detail: { summary: "The platform's NFTs a wallet holds on the ledger, with what each has earned so far", tags: ["rewards"] } },
    )
    .get(
      "/api/rewards/wallet/:wallet",
      ({ params, query }) => {
        const read = rewardsRead(params.wallet, query);
        return rewardsResponse(rewardsNow(read) ?? rewards.rewardsJson(read.wallet, read.period, read.page, read.pageSize), rewardsHeaders);
      },
      { params: WalletParams, query: RewardsQuery, response: RewardsResponse, detail: { summary: "The Rewards response: per-NFT accrual and claim state, totals, and the wallet's claims in a period", tags: ["rewards"] } },
    )
    .get(
      "/api/rewards/summary/:wallet",
      async ({ params }) => rewards.summary(parseAddress(params.wallet, "walletAddress")),
      { params: WalletParams, response: SummaryResponse, detail: { summary: "Dashboard cards: VVX balance (ledger), NFTs owned, pending rewards", tags: ["rewards"] } },
    );
}

/**
 * Holdings and rewards (spec part 1 "Owned NFTs, rewards, history"): owned NFTs from the ledger,
 * the Rewards response, the dashboard summary, claims (session wallet only), and NFT transfers.
 * Reads of a wallet are public ledger facts; claims and transfers act for the session's wallet.
 */
export function rewardRoutes(ctx: { auth: AuthService; rewards: RewardService; transfers: TransferService; config: Pick<Config, "cookieSecret">; jsonHeaders?: Record<string, string>; lane?: ReadLane }) {
  const { rewards, transfers } = ctx;
  const actor = (session: Parameters<typeof actingWallet>[0], walletAddress: unknown, cookies: RequestCookies) => ({
    wallet: actingWallet(session, walletAddress),
    clientToken: clientToken(cookies.get(CLIENT_COOKIE), ctx.config),
  });
  return new Elysia({ name: "rewards" })
    // Public reads first: they read no session, so they come before the session resolver.
    .use(readRoutes(rewards, ctx.jsonHeaders, ctx.lane))
    .use(walletSession(ctx.auth))
    .post(
      "/api/rewards/claim",
      async ({ body, session }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const tokenId = parseLedgerId(body.tokenId, "tokenId");
        const kind = parseClaimType(body.claimType);
        return rewards.claim(wallet, { tokenId, kind, tierId: optionalTierId(body.tierId) });
      },
      {
        body: ClaimBody,
        response: ClaimResponse,
        detail: {
          summary: "Claim one NFT's rewards as a VVX payment from the treasury (early: 50%, full: 100%); 409 when the rules do not allow it now, 503 when the treasury cannot pay",
          tags: ["rewards"],
        },
      },
    )
    .get(
      "/api/nfts/transfers/:wallet",
      async ({ params }) => {
        const wallet = parseAddress(params.wallet, "walletAddress");
        return { success: true as const, walletAddress: wallet, ...(await transfers.list(wallet)) };
      },
      { params: WalletParams, response: TransfersResponse, detail: { summary: "NFT transfers waiting: offered by this wallet, and offered to it", tags: ["rewards"] } },
    )
    .post(
      "/api/nfts/transfer",
      async ({ body, session, cookies }) =>
        signView(await transfers.start(actor(session, body.walletAddress, cookies), body.tokenId, body.recipient), "Sign the transfer offer in Xaman; the recipient then accepts it"),
      { body: TransferBody, response: SignRequestShape, detail: { summary: "Transfer an NFT you own: Xaman request for a sell offer for 0 to the recipient", tags: ["rewards"] } },
    )
    .post(
      "/api/nfts/transfer/cancel",
      async ({ body, session, cookies }) => signView(await transfers.cancel(actor(session, body.walletAddress, cookies), body.offerId), "Sign the cancellation in Xaman"),
      { body: CancelTransferBody, response: SignRequestShape, detail: { summary: "Cancel your pending transfer offer (Xaman NFTokenCancelOffer request)", tags: ["rewards"] } },
    )
    .post(
      "/api/nfts/transfer/accept",
      async ({ body, session, cookies }) => signView(await transfers.accept(actor(session, body.walletAddress, cookies), body.offerId), "Sign the acceptance in Xaman to receive the NFT"),
      { body: AcceptTransferBody, response: SignRequestShape, detail: { summary: "Accept an NFT transferred to you (Xaman NFTokenAcceptOffer request)", tags: ["rewards"] } },
    );
}

export { RewardService } from "./service";
export { TransferService } from "./transfers";
export { paidRewardsMicro } from "./repository";

/** The Rewards response from its text: in the same tick when it is made already. */
function rewardsResponse(text: string | Promise<string>, headers: Record<string, string>): Response | Promise<Response> {
  return typeof text === "string" ? textResponse(text, headers) : text.then((t) => textResponse(t, headers));
}
