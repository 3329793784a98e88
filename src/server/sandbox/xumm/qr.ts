// qrcode loads on the first QR asked for, not at start-up (it cost ~25 ms of every start).
const loadQrCode = () => import("qrcode").then((m) => m.default);

/** Pixel width of the QR PNGs (Xaman's are about this size; the modal scales them to 256/200 px). */
export const QR_PNG_WIDTH = 360;

/** A PNG QR code encoding `text`, with a quiet zone. */
export async function qrPng(text: string, width = QR_PNG_WIDTH): Promise<Buffer> {
  const QRCode = await loadQrCode();
  return QRCode.toBuffer(text, { type: "png", width, margin: 2, errorCorrectionLevel: "M", color: { dark: "#000000", light: "#ffffff" } });
}

/** The QR module matrix (rows of 0/1), as Xaman's `refs.qr_matrix` serves it. */
export async function qrMatrix(text: string): Promise<number[][]> {
  const QRCode = await loadQrCode();
  const code = QRCode.create(text, { errorCorrectionLevel: "M" });
  const size = code.modules.size;
  const rows: number[][] = [];
  for (let y = 0; y < size; y++) {
    const row: number[] = [];
    for (let x = 0; x < size; x++) row.push(code.modules.get(y, x) ? 1 : 0);
    rows.push(row);
  }
  return rows;
}
