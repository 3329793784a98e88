import { Elysia, t } from "elysia";
import { vvxToMicroNumber } from "../../engine";
import {
  CheckPaymentQuery,
  DirectOfferBody,
  DirectOfferResponse,
  PaymentCheckResponse,
  PaymentQrResponse,
  PurchaseBody,
  PurchaseStatusResponse,
} from "../../shared/api/nfts";
import { CLIENT_COOKIE, clientToken } from "../auth/cookies";
import { actingWallet, walletSession } from "../auth/guard";
import type { WalletSession } from "../auth/service";
import { parseAddress } from "../ledger/address";
import { ValidationError } from "../platform/errors";
import { clientIp } from "../platform/http/rateLimit";
import { formatVvx } from "./catalog";
import type { NftRouteDeps } from "./service";
import { parseTierId, parseVvxText } from "./input";
import type { PurchaseRow } from "./repository";

/** Whether the request comes from the purchase's buyer (only they see its payload and request ids). */
const isBuyer = (session: WalletSession | null, purchase: PurchaseRow | undefined) => !!session && !!purchase && session.wallet === purchase.wallet;

/** Starting a purchase, and following it (the spec's polls; the dialog uses them only while its socket is down). */
export function purchaseRoutes(deps: NftRouteDeps) {
  return new Elysia({ name: "nft-purchases" }).use(startRoutes(deps)).use(statusRoutes(deps));
}

/** The two ways to start a paid purchase: the marketplace's payment QR and the direct offer page. */
function startRoutes({ nfts, auth, config, platformAddress }: NftRouteDeps) {
  const { purchases } = nfts;
  return new Elysia({ name: "nft-purchase-start" })
    .use(walletSession(auth))
    .post(
      "/api/payments/vvx-payment-qr",
      async ({ body, session, cookies, server, request }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const actor = { wallet, clientToken: clientToken(cookies.get(CLIENT_COOKIE), config), ip: clientIp(server, request, config.trustProxy) };
        const created = await purchases.create(actor, parseTierId(body.tierId), "vvx_payment_qr", parseVvxText(body.amount, "amount"));
        const price = formatVvx(created.purchase.priceMicroVvx);
        return {
          success: true as const,
          uuid: created.sign.uuid,
          requestId: created.purchase.requestId,
          qrUrl: created.sign.qrUrl,
          xummUrl: created.sign.xummUrl,
          refs: created.sign.refs,
          next: created.sign.next,
          destination: platformAddress(),
          destinationTag: created.purchase.destinationTag,
          amount: `${price} VVX`,
          tierId: created.tier.id,
          expiresAt: created.sign.expiresAt,
          reused: created.reused,
          message: `Scan the QR code with Xaman to pay ${price} VVX`,
        };
      },
      {
        body: PurchaseBody,
        response: PaymentQrResponse,
        detail: { summary: "Reserve one NFT (one open reservation per wallet and tier) and ask the session's wallet for the VVX payment (Xaman QR)", tags: ["nfts"] },
      },
    )
    .post(
      "/api/nfts/direct-offer",
      async ({ body, session, cookies, server, request }) => {
        const wallet = actingWallet(session, body.walletAddress);
        const actor = { wallet, clientToken: clientToken(cookies.get(CLIENT_COOKIE), config), ip: clientIp(server, request, config.trustProxy) };
        // A paid path like the marketplace: the QR is the VVX payment; the offer follows the payment.
        const created = await purchases.create(actor, parseTierId(body.tierId), "direct_offer");
        const price = `${formatVvx(created.purchase.priceMicroVvx)} VVX`;
        const { sign } = created;
        return {
          success: true as const,
          result: {
            step: "payment" as const,
            requestId: created.purchase.requestId,
            uuid: sign.uuid,
            qrCode: sign.qrUrl,
            qr_png: sign.qrUrl,
            deepLink: sign.xummUrl,
            next: sign.next,
            tokenId: null,
            offerId: null,
            offerIndex: null,
            nftTier: created.tier.name,
            tierId: created.tier.id,
            price,
            destinationTag: created.purchase.destinationTag,
            expiresAt: sign.expiresAt,
          },
          message: `Pay ${price} in Xaman; the NFT offer is created as soon as the payment is validated`,
        };
      },
      {
        body: DirectOfferBody,
        response: DirectOfferResponse,
        detail: { summary: "Direct NFT offer: a paid purchase (VVX payment QR first, then the offer)", tags: ["nfts"] },
      },
    );
}

/** Where a purchase stands: reads only; sign request and purchase ids only for the buyer's session. */
function statusRoutes({ nfts, auth }: NftRouteDeps) {
  const { purchases } = nfts;
  return new Elysia({ name: "nft-purchase-status" })
    .use(walletSession(auth))
    .get(
      "/api/nfts/purchase-status/:requestId",
      async ({ params, session }) => {
        const purchase = await purchases.byRequestId(params.requestId);
        const mine = isBuyer(session, purchase);
        const offered = mine && purchase.status === "offer_created";
        return {
          success: true as const,
          status: await purchases.shownStatus(purchase),
          requestId: purchase.requestId,
          offerId: purchase.offerId,
          tokenId: purchase.tokenId,
          xummQrUrl: offered ? purchase.acceptQrUrl : null,
          xummUrl: offered ? purchase.acceptXummUrl : null,
          xummUuid: offered ? purchase.acceptUuid : null,
          tierId: purchase.tierId,
          number: purchase.number,
          taxon: purchase.taxon,
          paymentUuid: mine ? purchase.paymentUuid : null,
          paymentTxHash: purchase.paymentTxHash,
          expiresAt: purchase.expiresAt.toISOString(),
          reason: purchase.reason,
        };
      },
      {
        params: t.Object({ requestId: t.String() }),
        response: PurchaseStatusResponse,
        detail: { summary: "Where a purchase stands; sign request ids only for the buyer's session. Changes nothing.", tags: ["nfts"] },
      },
    )
    .get(
      "/api/check-vvx-payment",
      async ({ query, session }) => {
        const wallet = query.walletAddress ? parseAddress(query.walletAddress, "walletAddress") : undefined;
        const tierId = query.tierId ? parseTierId(query.tierId) : undefined;
        const purchase = query.requestId ? await purchases.byRequestId(query.requestId) : await purchases.latestFor(wallet ?? parseAddress(query.walletAddress, "walletAddress"), tierId ?? parseTierId(query.tierId));
        if (wallet && purchase) purchases.requireBuyer(purchase, wallet);
        if (tierId !== undefined) await checkTierAndAmount(nfts, purchase, tierId, query.amount);
        return {
          success: true as const,
          status: await purchases.paymentCheckStatus(purchase),
          nftOfferId: purchase?.offerId ?? null,
          offerId: purchase?.offerId ?? null,
          tokenId: purchase?.tokenId ?? null,
          requestId: isBuyer(session, purchase) ? purchase!.requestId : null,
          paymentTxHash: purchase?.paymentTxHash ?? null,
        };
      },
      {
        query: CheckPaymentQuery,
        response: PaymentCheckResponse,
        detail: { summary: "On-chain payment check for a purchase (the spec's statuses); the request id only for the buyer's session", tags: ["nfts"] },
      },
    );
}

/** The on-chain check's tierId and amount must match the purchase's tier and its price (whole VVX digits). */
async function checkTierAndAmount(nfts: NftRouteDeps["nfts"], purchase: PurchaseRow | undefined, tierId: number, amount: string | undefined): Promise<void> {
  const tier = await nfts.catalog.tier(tierId);
  if (purchase && purchase.tierId !== tier.id) throw new ValidationError("tierId", "Field 'tierId' does not match this purchase's tier");
  if (amount === undefined || amount === "") return;
  const digits = amount.replace(/\D/g, "");
  if (!digits || digits.length > 9 || vvxToMicroNumber(Number(digits)) !== tier.priceMicroVvx) {
    throw new ValidationError("amount", `Field 'amount' must be the ${tier.name} price in whole VVX (${formatVvx(tier.priceMicroVvx).replace(/,/g, "")})`);
  }
}
