import { Elysia, t } from "elysia";
import genesisArt from "../../../assets/nfts/genesis.svg" with { type: "file" };
import oasisArt from "../../../assets/nfts/oasis.svg" with { type: "file" };
import { clientToken, type CookieJar } from "../auth/cookies";
import { actingWallet, walletSession } from "../auth/guard";
import type { AppContext } from "../app/context";
import { AppError, ConflictError, NotFoundError, ValidationError } from "../platform/errors";
import { parseAddress } from "../wallet/service";
import {
  AcceptOfferBody,
  AcceptOfferCompleteBody,
  CheckOfferQuery,
  CheckPaymentQuery,
  DirectOfferBody,
  PurchaseBody,
  SimulatePaymentBody,
  TierShape,
} from "./model";
import { formatVvx, parseLedgerId, parseTierId, parseVvxText, type NftService } from "./service";

// No prototype: a file named "constructor" or "__proto__" must not find Object's members.
const ART: Record<string, string> = Object.assign(Object.create(null), { "genesis.svg": genesisArt, "oasis.svg": oasisArt });

/**
 * The NFT marketplace API (spec part 1 "NFT purchase", part 2 minting, admin,
 * direct offer and test pages), the NFT metadata its URIs point to, and the tier art.
 */
export function nftRoutes(ctx: AppContext & { nfts: NftService }) {
  const { nfts, auth, config } = ctx;
  const bound = (cookie: unknown) => clientToken(cookie as CookieJar, config);

  const app = new Elysia({ name: "nfts" })
    .use(walletSession(auth))
    .get("/api/nft-tiers", () => nfts.tiers(), {
      response: t.Array(TierShape),
      detail: { summary: "NFT tiers on sale; currentSupply is the number still available", tags: ["nfts"] },
    })
    .get("/api/nft-availability", () => ({ success: true as const, ...nfts.availability() }), {
      detail: { summary: "Units still available per tier", tags: ["nfts"] },
    })
    .post(
      "/api/payments/vvx-payment-qr",
      async ({ body, session, cookie }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const tierId = parseTierId(body.tierId);
        const amount = parseVvxText(body.amount, "amount");
        const created = await nfts.createPurchase({ wallet, clientToken: bound(cookie) }, tierId, "vvx_payment_qr", amount);
        return {
          success: true as const,
          uuid: created.sign.uuid,
          requestId: created.purchase.requestId,
          qrUrl: created.sign.qrUrl,
          xummUrl: created.sign.xummUrl,
          refs: created.sign.refs,
          next: created.sign.next,
          destination: ctx.ledger.platformAddress,
          destinationTag: created.purchase.destinationTag,
          amount: `${formatVvx(created.purchase.priceMicroVvx)} VVX`,
          tierId: created.tier.id,
          expiresAt: created.sign.expiresAt,
          reused: created.reused,
          message: `Scan the QR code with Xaman to pay ${formatVvx(created.purchase.priceMicroVvx)} VVX`,
        };
      },
      { body: PurchaseBody, detail: { summary: "Reserve one NFT and ask the session's wallet for the VVX payment (Xaman QR)", tags: ["nfts"] } },
    )
    .get(
      "/api/nfts/purchase-status/:requestId",
      async ({ params, cookie }) => {
        let purchase = nfts.purchaseByRequestId(params.requestId);
        if (purchase.status === "offer_created") purchase = await nfts.checkAccepted(purchase);
        if (purchase.status === "offer_created") purchase = await nfts.acceptSignRequest(purchase, bound(cookie));
        const shown = await nfts.shownStatus(purchase);
        purchase = shown.purchase;
        return {
          success: true as const,
          status: shown.status,
          requestId: purchase.requestId,
          offerId: purchase.offerId,
          tokenId: purchase.tokenId,
          xummQrUrl: purchase.status === "offer_created" ? purchase.acceptQrUrl : null,
          xummUrl: purchase.status === "offer_created" ? purchase.acceptXummUrl : null,
          xummUuid: purchase.status === "offer_created" ? purchase.acceptUuid : null,
          tierId: purchase.tierId,
          number: purchase.number,
          taxon: purchase.taxon,
          paymentUuid: purchase.paymentUuid,
          paymentTxHash: purchase.paymentTxHash,
          expiresAt: purchase.expiresAt.toISOString(),
          reason: purchase.reason,
        };
      },
      { params: t.Object({ requestId: t.String() }), detail: { summary: "Where a purchase stands (polled every 5 s); the accept-offer QR once the offer exists", tags: ["nfts"] } },
    )
    .get(
      "/api/check-vvx-payment",
      async ({ query }) => {
        const purchase = query.requestId
          ? nfts.purchaseByRequestId(query.requestId)
          : (() => {
              const wallet = parseAddress(query.walletAddress, "walletAddress");
              return nfts.repo.latestFor(wallet, parseTierId(query.tierId));
            })();
        if (query.walletAddress !== undefined && query.walletAddress !== "" && purchase) {
          const wallet = parseAddress(query.walletAddress, "walletAddress");
          nfts.requireBuyer(purchase, wallet);
        }
        if (query.tierId !== undefined && query.tierId !== "") {
          const tier = nfts.tier(parseTierId(query.tierId));
          if (purchase && purchase.tierId !== tier.id) throw new ValidationError("tierId", "Field 'tierId' does not match this purchase's tier");
          if (query.amount !== undefined && query.amount !== "") {
            const digits = query.amount.replace(/\D/g, "");
            if (!digits || Number(digits) * 1_000_000 !== tier.priceMicroVvx) {
              throw new ValidationError("amount", `Field 'amount' must be the ${tier.name} price in whole VVX (${tier.priceMicroVvx / 1_000_000})`);
            }
          }
        }
        const status = await nfts.paymentCheckStatus(purchase);
        return {
          success: true as const,
          status,
          nftOfferId: purchase?.offerId ?? null,
          offerId: purchase?.offerId ?? null,
          tokenId: purchase?.tokenId ?? null,
          requestId: purchase?.requestId ?? null,
          paymentTxHash: purchase?.paymentTxHash ?? null,
        };
      },
      { query: CheckPaymentQuery, detail: { summary: "On-chain payment check for a purchase (the spec's statuses)", tags: ["nfts"] } },
    )
    .get(
      "/api/check-offer-acceptance",
      async ({ query }) => {
        const offerId = parseLedgerId(query.offerId, "offerId");
        let purchase = nfts.purchaseByOffer(offerId);
        const requestId = query.requestId || query.purchaseRequestId;
        if (requestId && nfts.purchaseByRequestId(requestId, query.requestId ? "requestId" : "purchaseRequestId").id !== purchase.id) {
          throw new ValidationError(query.requestId ? "requestId" : "purchaseRequestId", "The offer does not belong to this purchase request");
        }
        if (query.walletAddress) nfts.requireBuyer(purchase, parseAddress(query.walletAddress, "walletAddress"));
        purchase = await nfts.settleAcceptance(purchase);
        return { success: true as const, accepted: purchase.status === "completed", status: purchase.status, offerId, tokenId: purchase.tokenId, requestId: purchase.requestId };
      },
      { query: CheckOfferQuery, detail: { summary: "Whether the buyer accepted the offer (checked on the ledger)", tags: ["nfts"] } },
    )
    .post(
      "/api/nfts/accept-offer",
      async ({ body, session, cookie }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const offerId = parseLedgerId(body.offerId, "offerId");
        let purchase = nfts.purchaseByOffer(offerId);
        nfts.requireBuyer(purchase, wallet);
        purchase = await nfts.checkAccepted(purchase);
        if (purchase.status === "completed") throw new ConflictError("OFFER_ALREADY_ACCEPTED", "This NFT offer was accepted already; the NFT is in your wallet");
        // A new sign request only when the current one was rejected, cancelled or expired.
        purchase = await nfts.acceptSignRequest(purchase, bound(cookie), await nfts.acceptRequestClosed(purchase));
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
      { body: AcceptOfferBody, detail: { summary: "Xaman NFTokenAcceptOffer request for the session's wallet", tags: ["nfts"] } },
    )
    .get(
      "/api/nfts/active-offers/:wallet",
      async ({ params }) => {
        const wallet = parseAddress(params.wallet, "wallet");
        return { success: true as const, offers: await nfts.activeOffers(wallet) };
      },
      { params: t.Object({ wallet: t.String() }), detail: { summary: "NFT sell offers from the platform still waiting for this wallet", tags: ["nfts"] } },
    )
    .get("/api/nft-minting-status", () => nfts.mintingStatus(), {
      detail: { summary: "Minted, remaining and total per tier (refetched every 5 s)", tags: ["nfts"] },
    })
    .get(
      "/api/admin/nft-vault-summary",
      ({ session }) => {
        nfts.requireAdmin(session?.wallet);
        return nfts.vaultSummary();
      },
      { detail: { summary: "Admins: minted, sold and max supply per tier", tags: ["admin"] } },
    )
    .post(
      "/api/nfts/direct-offer",
      async ({ body, session, cookie }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const tierId = parseTierId(body.tierId);
        // A paid path like the marketplace: the QR is the VVX payment; the offer follows the payment.
        const created = await nfts.createPurchase({ wallet, clientToken: bound(cookie) }, tierId, "direct_offer");
        const price = `${formatVvx(created.purchase.priceMicroVvx)} VVX`;
        return {
          success: true as const,
          result: {
            step: "payment" as const,
            requestId: created.purchase.requestId,
            uuid: created.sign.uuid,
            qrCode: created.sign.qrUrl,
            qr_png: created.sign.qrUrl,
            deepLink: created.sign.xummUrl,
            next: created.sign.next,
            tokenId: null,
            offerId: null,
            offerIndex: null,
            nftTier: created.tier.name,
            tierId: created.tier.id,
            price,
            destinationTag: created.purchase.destinationTag,
            expiresAt: created.sign.expiresAt,
          },
          message: `Pay ${price} in Xaman; the NFT offer is created as soon as the payment is validated`,
        };
      },
      { body: DirectOfferBody, detail: { summary: "Direct NFT offer: a paid purchase (VVX payment QR first, then the offer)", tags: ["nfts"] } },
    )
    .post(
      "/api/nfts/accept-offer-complete",
      async ({ body, session, cookie }) => {
        const wallet = actingWallet(session, body.walletAddress);
        let purchase;
        if (body.offerId) purchase = nfts.purchaseByOffer(parseLedgerId(body.offerId, "offerId"));
        else if (body.uuid) {
          const uuid = body.uuid.trim().toLowerCase();
          if (!/^[0-9a-f-]{36}$/.test(uuid)) throw new ValidationError("uuid", "Field 'uuid' must be a sign request uuid");
          purchase = nfts.repo.bySignUuid(uuid);
          if (!purchase) throw new NotFoundError(`No NFT purchase for sign request ${uuid}`, "PURCHASE_NOT_FOUND");
        } else throw new ValidationError("offerId", "Field 'offerId' (or 'uuid') is required");
        nfts.requireBuyer(purchase, wallet);
        if (body.tierId !== undefined && body.tierId !== "" && parseTierId(body.tierId) !== purchase.tierId) {
          throw new ValidationError("tierId", "Field 'tierId' does not match this purchase's tier");
        }
        if (body.tokenId && purchase.tokenId && parseLedgerId(body.tokenId, "tokenId") !== purchase.tokenId) {
          throw new ValidationError("tokenId", "Field 'tokenId' does not match this purchase's NFT");
        }
        purchase = await nfts.settleAcceptance(purchase);
        const tail = { requestId: purchase.requestId, status: purchase.status, offerId: purchase.offerId, tokenId: purchase.tokenId };
        if (purchase.status === "completed") {
          return { success: true as const, completed: true, ...tail, message: "The NFT is in your wallet" };
        }
        if (purchase.status === "offer_created") {
          purchase = await nfts.acceptSignRequest(purchase, bound(cookie));
          throw new AppError(409, "OFFER_NOT_ACCEPTED", "The NFT offer is waiting for you: accept it in Xaman", {
            ...tail,
            uuid: purchase.acceptUuid,
            qrCodeUrl: purchase.acceptQrUrl,
            xummLink: purchase.acceptXummUrl,
          });
        }
        if (purchase.status === "pending" || purchase.status === "processing" || purchase.status === "creating_offer") {
          throw new AppError(409, "OFFER_NOT_READY", purchase.status === "pending" ? "Waiting for your VVX payment" : "Payment received; the NFT offer is being prepared", tail);
        }
        throw new AppError(409, "PURCHASE_CLOSED", `This purchase ended without an NFT (${purchase.status}${purchase.reason ? ": " + purchase.reason : ""})`, tail);
      },
      { body: AcceptOfferCompleteBody, detail: { summary: "Confirm on the ledger that the buyer accepted the offer; completes the purchase", tags: ["nfts"] } },
    )
    .get(
      "/api/nfts/metadata/:tierId/:number",
      ({ params }) => {
        const tierId = parseTierId(params.tierId, "tierId");
        if (!/^\d{1,6}$/.test(params.number) || Number(params.number) < 1) throw new ValidationError("number", "Field 'number' must be an NFT number (1, 2, ...)");
        return nfts.metadata(tierId, Number(params.number));
      },
      { params: t.Object({ tierId: t.String(), number: t.String() }), detail: { summary: "NFT metadata JSON (what the NFT's URI points to)", tags: ["nfts"] } },
    )
    .get(
      "/assets/nfts/:file",
      ({ params }) => {
        const path = ART[params.file];
        if (!path) throw new NotFoundError(`No NFT image ${params.file}`);
        return new Response(Bun.file(path), { headers: { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" } });
      },
      { params: t.Object({ file: t.String() }), detail: { summary: "Tier art", tags: ["nfts"] } },
    );

  if (config.network === "sandbox") {
    app.post(
      "/api/test/simulate-payment",
      async ({ body, session, cookie }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const tierId = parseTierId(body.tierId);
        const amount = body.amount === undefined || body.amount === "" ? undefined : parseVvxText(body.amount, "amount");
        const done = await nfts.simulatePayment({ wallet, clientToken: bound(cookie) }, tierId, amount);
        return {
          success: true as const,
          requestId: done.purchase.requestId,
          uuid: done.purchase.paymentUuid,
          txid: done.txid,
          engineResult: done.result,
          status: done.purchase.status,
          message: `Paid ${formatVvx(done.purchase.priceMicroVvx)} VVX from ${wallet} on the sandbox ledger; the ${done.tier.name} NFT offer follows`,
        };
      },
      { body: SimulatePaymentBody, detail: { summary: "Sandbox only: pay for an NFT from the wallet's sandbox account (a real sandbox ledger payment)", tags: ["sandbox"] } },
    );
  }
  return app;
}

export { NftService } from "./service";
