import { t } from "elysia";

/**
 * The spec's alias fields, in one place. The original clients read the same value under several
 * names (a sign request's QR as `qrUrl` or `refs.qr_png`, its link as `xummUrl` or `next.always`,
 * an accept request's QR as `qrCodeUrl`, an offer id as `nftOfferId` ...). The server sends every
 * alias; the browser reads whichever is there through the helpers below. New code uses the first
 * name of each pair.
 */

/** Xaman's own link fields of a sign request, sent beside qrUrl / xummUrl. */
export const XummRefs = {
  refs: t.Object({ qr_png: t.String(), qr_matrix: t.String(), websocket_status: t.String() }, { description: "Xaman's names: refs.qr_png is qrUrl" }),
  next: t.Object({ always: t.String() }, { description: "Xaman's names: next.always is xummUrl" }),
};

/** An accept-offer sign request under the spec's names (qrCodeUrl, xummLink) and the product's (qrUrl, xummUrl). */
export const AcceptLinks = {
  qrCodeUrl: t.String({ description: "The spec's name of qrUrl" }),
  xummLink: t.String({ description: "The spec's name of xummUrl" }),
  qrUrl: t.String(),
  xummUrl: t.String(),
};

/** The QR image of any sign-request-like response, whichever alias it carries. */
export function qrOf(res: {
  qrUrl?: string | null;
  qrCodeUrl?: string | null;
  xummQrUrl?: string | null;
  qr_png?: string | null;
  qrCode?: string | null;
  refs?: { qr_png?: string; qrUrl?: string } | null;
}): string | null {
  return res.qrUrl ?? res.qrCodeUrl ?? res.xummQrUrl ?? res.qr_png ?? res.qrCode ?? res.refs?.qr_png ?? res.refs?.qrUrl ?? null;
}

/** The "open in Xaman" link of any sign-request-like response, whichever alias it carries. */
export function linkOf(res: { xummUrl?: string | null; xummLink?: string | null; deepLink?: string | null; next?: { always?: string } | null }): string | null {
  return res.xummUrl ?? res.xummLink ?? res.deepLink ?? res.next?.always ?? null;
}

/** The NFT offer id of a status response (`nftOfferId` in the on-chain check, `offerId` elsewhere). */
export function offerIdOf(res: { offerId?: string | null; nftOfferId?: string | null; offerIndex?: string | null }): string | null {
  return res.offerId ?? res.nftOfferId ?? res.offerIndex ?? null;
}
