/**
 * The spec's alias fields, in one place. The original clients read one value under several names
 * (a QR image: qrUrl, qrCodeUrl, xummQrUrl, qrCode, qr_png, refs.qr_png; a Xaman link: xummUrl,
 * xummLink, deepLink, next.always; an offer id: offerId, nftOfferId, offerIndex); the server sends
 * every alias (schemas: src/shared/api/links.ts), and the browser reads whichever is present
 * through the readers below. New code names the first of each group.
 */

/** Anything that may carry a sign request's links under the spec's names. */
export interface SignLinksLike {
  qrUrl?: string | null;
  qrCodeUrl?: string | null;
  xummQrUrl?: string | null;
  qrCode?: string | null;
  qr_png?: string | null;
  refs?: { qr_png?: string | null } | null;
  xummUrl?: string | null;
  xummLink?: string | null;
  deepLink?: string | null;
  next?: { always?: string | null } | null;
}

const first = (...values: (string | null | undefined)[]) => values.find((v) => typeof v === "string" && v !== "") ?? null;

/** The QR image of a sign-request-like response, whichever alias it carries. */
export function qrOf(res: SignLinksLike): string | null {
  return first(res.qrUrl, res.qrCodeUrl, res.xummQrUrl, res.qrCode, res.qr_png, res.refs?.qr_png);
}

/** The "open in Xaman" link of a sign-request-like response, whichever alias it carries. */
export function linkOf(res: SignLinksLike): string | null {
  return first(res.xummUrl, res.xummLink, res.deepLink, res.next?.always);
}

/** The NFT offer id of a status response, whichever alias it carries. */
export function offerIdOf(res: { offerId?: string | null; nftOfferId?: string | null; offerIndex?: string | null }): string | null {
  return first(res.offerId, res.nftOfferId, res.offerIndex);
}
