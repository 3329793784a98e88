import { DROPS_PER_XRP } from "../../../engine/money";

/** One line of "what this request will do", for people. */
export interface PayloadLine {
  label: string;
  value: string;
}


/** Drops as an exact XRP decimal ("12.5"), never through a float. */
export function dropsToXrp(drops: string): string {
  if (!/^\d+$/.test(drops)) return drops;
  const n = BigInt(drops);
  const whole = n / DROPS_PER_XRP;
  const frac = (n % DROPS_PER_XRP).toString().padStart(6, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole.toString();
}

/** A 40-hex currency code as its ASCII name when printable ("VVX"), else unchanged. */
export function currencyName(code: string): string {
  if (!/^[0-9A-Fa-f]{40}$/.test(code)) return code;
  const text = Buffer.from(code, "hex").toString("latin1").replace(/\0+$/, "");
  return /^[\x20-\x7e]+$/.test(text) ? text : code;
}

/** An XRPL Amount (drops string or issued-currency object) for people: "10 XRP", "500000 VVX". */
export function formatAmount(amount: unknown): string {
  if (typeof amount === "string") return `${dropsToXrp(amount)} XRP`;
  if (amount && typeof amount === "object") {
    const a = amount as { currency?: string; value?: string; issuer?: string };
    if (a.currency === "XRP" && a.value) return `${a.value} XRP`;
    if (a.currency && a.value !== undefined) return `${a.value} ${currencyName(a.currency)}`;
  }
  return JSON.stringify(amount);
}

/** The facts a signer needs before signing: type, amounts, destination, tag, memo. */
export function describeTransaction(tx: Record<string, unknown>): PayloadLine[] {
  const lines: PayloadLine[] = [{ label: "Type", value: String(tx.TransactionType) }];
  const add = (label: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== "") lines.push({ label, value: String(value) });
  };
  switch (tx.TransactionType) {
    case "SignIn":
      add("Action", "Sign in: proves you own the account; nothing is sent to the ledger");
      break;
    case "Payment":
      add("Amount", formatAmount(tx.Amount ?? tx.DeliverMax));
      if (tx.SendMax !== undefined) add("Send at most", formatAmount(tx.SendMax));
      break;
    case "TrustSet":
      add("Trust line", formatAmount(tx.LimitAmount));
      break;
    case "OfferCreate":
      add("You pay", formatAmount(tx.TakerGets));
      add("You get", formatAmount(tx.TakerPays));
      break;
    case "NFTokenAcceptOffer":
      add("Sell offer", tx.NFTokenSellOffer);
      add("Buy offer", tx.NFTokenBuyOffer);
      break;
    case "NFTokenCreateOffer":
      add("NFT", tx.NFTokenID);
      add("Amount", tx.Amount === undefined ? undefined : formatAmount(tx.Amount));
      break;
    default:
      if (tx.Amount !== undefined) add("Amount", formatAmount(tx.Amount));
  }
  add("Account", tx.Account);
  add("Destination", tx.Destination);
  add("Destination tag", tx.DestinationTag);
  const memos = Array.isArray(tx.Memos) ? tx.Memos : [];
  for (const m of memos as { Memo?: { MemoData?: string } }[]) {
    const data = m.Memo?.MemoData;
    if (typeof data === "string" && /^[0-9A-Fa-f]+$/.test(data)) {
      const text = Buffer.from(data, "hex").toString("utf8");
      if (/^[\x20-\x7e]*$/.test(text)) add("Memo", text);
    }
  }
  return lines;
}
