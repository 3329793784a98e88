import { Elysia, t } from "elysia";
import {
  AcceptOfferBody,
  AcceptOfferCompleteBody,
  AcceptOfferCompleteResponse,
  AcceptOfferResponse,
  ActiveOffersResponse,
  CheckOfferQuery,
  OfferAcceptanceResponse,
} from "../../shared/api/nfts";
import { CLIENT_COOKIE, clientToken } from "../auth/cookies";
import { actingWallet, walletSession } from "../auth/guard";
import { parseAddress } from "../ledger/address";
import { AppError, ConflictError, ValidationError } from "../platform/errors";
import type { NftRouteDeps } from "./service";
import { parseLedgerId, parseTierId } from "./input";
import type { PurchaseRow } from "./repository";

/** The buyer's side of the offer: its Xaman accept request (POST only) and the acceptance checks. */
export function offerRoutes(deps: NftRouteDeps) {
  return new Elysia({ name: "nft-offers" }).use(offerReadRoutes(deps)).use(acceptRoutes(deps));
}

/** Whether an offer was accepted, and the offers still waiting for a wallet: reads only. */
function offerReadRoutes({ nfts, auth }: NftRouteDeps) {
  const { purchases, acceptance } = nfts;
  return new Elysia({ name: "nft-offer-reads" })
    .use(walletSession(auth))
    .get(
      "/api/check-offer-acceptance",
      async ({ query, session }) => {
        const offerId = parseLedgerId(query.offerId, "offerId");
        const purchase = await acceptance.byOffer(offerId);
        const field = query.requestId ? "requestId" : "purchaseRequestId";
        const requestId = query.requestId || query.purchaseRequestId;
        if (requestId && (await purchases.byRequestId(requestId, field)).id !== purchase.id) throw new ValidationError(field, "The offer does not belong to this purchase request");
        if (query.walletAddress) purchases.requireBuyer(purchase, parseAddress(query.walletAddress, "walletAddress"));
        const seen = await acceptance.settle(purchase, { complete: false });
        return {
          success: true as const,
          accepted: seen.accepted,
          status: seen.accepted ? "completed" : seen.purchase.status,
          offerId,
          tokenId: purchase.tokenId,
          requestId: session?.wallet === purchase.wallet ? purchase.requestId : null,
        };
      },
      {
        query: CheckOfferQuery,
        response: OfferAcceptanceResponse,
        detail: { summary: "Whether the buyer accepted the offer (read from the ledger; changes nothing)", tags: ["nfts"] },
      },
    )
    .get(
      "/api/nfts/active-offers/:wallet",
      async ({ params }) => ({ success: true as const, offers: await acceptance.activeOffers(parseAddress(params.wallet, "wallet")) }),
      {
        params: t.Object({ wallet: t.String() }),
        response: ActiveOffersResponse,
        detail: { summary: "NFT sell offers from the platform still waiting for this wallet", tags: ["nfts"] },
      },
    );
}

/** The accept-offer sign request and the completion check: the only NFT routes that change an offer's state. */
function acceptRoutes({ nfts, auth, config }: NftRouteDeps) {
  const { purchases, acceptance } = nfts;
  return new Elysia({ name: "nft-accept" })
    .use(walletSession(auth))
    .post(
      "/api/nfts/accept-offer",
      async ({ body, session, cookies }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const offerId = parseLedgerId(body.offerId, "offerId");
        let purchase = await acceptance.byOffer(offerId);
        purchases.requireBuyer(purchase, wallet);
        purchase = await acceptance.checkAccepted(purchase);
        if (purchase.status === "completed") throw new ConflictError("OFFER_ALREADY_ACCEPTED", "This NFT offer was accepted already; the NFT is in your wallet");
        // A new sign request only when the current one was rejected, cancelled or expired.
        purchase = await acceptance.signRequest(purchase, clientToken(cookies.get(CLIENT_COOKIE), config), await acceptance.requestClosed(purchase));
        return {
          success: true as const,
          uuid: purchase.acceptUuid!,
          qrCodeUrl: purchase.acceptQrUrl!,
          xummLink: purchase.acceptXummUrl!,
          qrUrl: purchase.acceptQrUrl!,
          xummUrl: purchase.acceptXummUrl!,
          offerId,
          tokenId: purchase.tokenId,
          expiresAt: purchase.acceptExpiresAt?.toISOString() ?? null,
          message: "Scan the QR code with Xaman to accept your NFT",
        };
      },
      {
        body: AcceptOfferBody,
        response: AcceptOfferResponse,
        detail: { summary: "Xaman NFTokenAcceptOffer request for the session's wallet (the dialog asks once the offer exists)", tags: ["nfts"] },
      },
    )
    .post(
      "/api/nfts/accept-offer-complete",
      async ({ body, session, cookies }) => {
        const wallet = actingWallet(session, body.walletAddress);
        let purchase = await completePurchaseOf(nfts, body);
        purchases.requireBuyer(purchase, wallet);
        if (body.tierId !== undefined && body.tierId !== "" && parseTierId(body.tierId) !== purchase.tierId) {
          throw new ValidationError("tierId", "Field 'tierId' does not match this purchase's tier");
        }
        if (body.tokenId && purchase.tokenId && parseLedgerId(body.tokenId, "tokenId") !== purchase.tokenId) {
          throw new ValidationError("tokenId", "Field 'tokenId' does not match this purchase's NFT");
        }
        purchase = (await acceptance.settle(purchase)).purchase;
        if (purchase.status === "completed") {
          return { success: true as const, completed: true as const, ...tail(purchase), message: "The NFT is in your wallet" };
        }
        if (purchase.status === "offer_created") purchase = await acceptance.signRequest(purchase, clientToken(cookies.get(CLIENT_COOKIE), config));
        throw notCompleted(purchase);
      },
      {
        body: AcceptOfferCompleteBody,
        response: AcceptOfferCompleteResponse,
        detail: { summary: "Confirm on the ledger that the buyer accepted the offer; completes the purchase (409 with the next step otherwise)", tags: ["nfts"] },
      },
    );
}

const tail = (p: PurchaseRow) => ({ requestId: p.requestId, status: p.status, offerId: p.offerId, tokenId: p.tokenId });

/** The purchase an accept-offer-complete names, by offer id or by a sign request uuid. */
async function completePurchaseOf(nfts: NftRouteDeps["nfts"], body: { offerId?: string; uuid?: string }): Promise<PurchaseRow> {
  if (body.offerId) return nfts.acceptance.byOffer(parseLedgerId(body.offerId, "offerId"));
  if (body.uuid) return nfts.purchases.bySignUuid(body.uuid);
  throw new ValidationError("offerId", "Field 'offerId' (or 'uuid') is required");
}

/** The 409 of a purchase that is not completed: what it waits for, with the accept QR when the offer waits for the buyer. */
function notCompleted(purchase: PurchaseRow): AppError {
  if (purchase.status === "offer_created") {
    return new AppError(409, "OFFER_NOT_ACCEPTED", "The NFT offer is waiting for you: accept it in Xaman", {
      ...tail(purchase),
      uuid: purchase.acceptUuid,
      qrCodeUrl: purchase.acceptQrUrl,
      xummLink: purchase.acceptXummUrl,
    });
  }
  if (purchase.status === "pending" || purchase.status === "processing" || purchase.status === "creating_offer") {
    return new AppError(409, "OFFER_NOT_READY", purchase.status === "pending" ? "Waiting for your VVX payment" : "Payment received; the NFT offer is being prepared", tail(purchase));
  }
  return new AppError(409, "PURCHASE_CLOSED", `This purchase ended without an NFT (${purchase.status}${purchase.reason ? ": " + purchase.reason : ""})`, tail(purchase));
}
