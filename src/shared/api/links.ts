import { t } from "elysia";

// Schema parts for the spec's alias fields (see src/shared/compat.ts for the list and the readers).

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
