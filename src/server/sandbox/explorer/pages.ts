import { convertHexToString, dropsToXrp, getBalanceChanges, parseNFTokenID } from "xrpl";
import { RIPPLE_EPOCH_OFFSET } from "../ledger/ledger";
import type { LedgerHeader, StoredTx } from "../ledger/state";

/** Server-rendered pages of the sandbox explorer: dark, phone-friendly, no external assets. */

export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const BASE = "/sandbox/explorer";

const STYLE = `
*{box-sizing:border-box}body{margin:0;background:#0d1117;color:#e6edf3;font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif}
header{background:#161b22;border-bottom:1px solid #30363d;padding:12px 16px;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
header a.brand{color:#e6edf3;font-weight:700;text-decoration:none}header .tag{font-size:12px;color:#8b949e;border:1px solid #30363d;border-radius:10px;padding:1px 8px}
form{display:flex;gap:6px;flex:1;min-width:220px}input{flex:1;min-width:0;background:#0d1117;color:#e6edf3;border:1px solid #30363d;border-radius:6px;padding:6px 8px}
button{background:#238636;color:#fff;border:0;border-radius:6px;padding:6px 12px}
main{max-width:1100px;margin:0 auto;padding:16px}h1{font-size:20px;margin:8px 0 16px;word-break:break-all}h2{font-size:16px;margin:24px 0 8px;color:#8b949e}
a{color:#58a6ff}.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;word-break:break-all}
.card{background:#161b22;border:1px solid #30363d;border-radius:8px;padding:12px 16px;margin-bottom:12px}
.kv{display:grid;grid-template-columns:minmax(110px,180px) 1fr;gap:4px 12px}.kv dt{color:#8b949e}.kv dd{margin:0;word-break:break-all}
.table{width:100%;border-collapse:collapse}.table th,.table td{text-align:left;padding:6px 8px;border-bottom:1px solid #21262d;vertical-align:top}
.table th{color:#8b949e;font-weight:500;font-size:13px}.scroll{overflow-x:auto}
.nowrap{white-space:nowrap;word-break:normal}.ok{color:#3fb950}.bad{color:#f85149}.muted{color:#8b949e}.big{font-size:22px;font-weight:600}
pre{background:#0d1117;border:1px solid #30363d;border-radius:6px;padding:10px;overflow-x:auto;font-size:12px}
.clock{display:flex;flex-wrap:wrap;gap:8px;align-items:center;justify-content:space-between;background:#161b22;border-bottom:1px solid #30363d;padding:8px 16px;font-size:14px}
.clock form{flex:0 1 auto;min-width:0;display:flex;gap:6px;flex-wrap:wrap}.clock button{background:#1f6feb;padding:6px 10px}.clock b{font-weight:600}
@media (max-width:600px){.kv{grid-template-columns:1fr}.hide-sm{display:none}}
`;

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)} · Sandbox XRPL Explorer</title><style>${STYLE}</style></head><body>
<header><a class="brand" href="${BASE}">Sandbox XRPL Explorer</a><span class="tag">local sandbox ledger</span>
<form action="${BASE}/search" method="get"><input name="q" placeholder="Address or transaction hash" aria-label="Address or transaction hash"><button type="submit">Go</button></form></header>
<main>${body}</main></body></html>`;
}

/** The sandbox clock's steps offered on every explorer page. */
export const CLOCK_STEPS: readonly { label: string; ms: number }[] = [
  { label: "+1 hour", ms: 3_600_000 },
  { label: "+1 day", ms: 86_400_000 },
  { label: "+30 days", ms: 30 * 86_400_000 },
];

/** "30 d 1 h" from an offset in ms (whole hours; minutes when under an hour). */
export function offsetText(ms: number): string {
  if (ms <= 0) return "none";
  const days = Math.floor(ms / 86_400_000);
  const hours = Math.floor((ms % 86_400_000) / 3_600_000);
  const minutes = Math.floor((ms % 3_600_000) / 60_000);
  const parts = [days ? `${days} d` : "", hours ? `${hours} h` : "", !days && !hours ? `${minutes} min` : ""].filter(Boolean);
  return parts.join(" ");
}

/** The clock bar: the product's time and buttons that move it forward (a form posting to /sandbox/explorer/clock). */
export function clockBar(nowMs: number, offsetMs: number, back: string): string {
  const when = new Date(nowMs).toISOString().replace("T", " ").slice(0, 16) + " UTC";
  const buttons = CLOCK_STEPS.map((s) => `<button type="submit" name="ms" value="${s.ms}">${escapeHtml(s.label)}</button>`).join("");
  return `<div class="clock" data-testid="sandbox-clock"><span>Sandbox time <b data-testid="sandbox-time">${escapeHtml(when)}</b> <span class="muted">(ahead of real time: ${escapeHtml(offsetText(offsetMs))})</span></span>
<form action="${BASE}/clock" method="post" aria-label="Move the sandbox clock forward"><input type="hidden" name="back" value="${escapeHtml(back)}">${buttons}</form></div>`;
}

/** Puts the clock bar right under a page's header. */
export function withClockBar(pageHtml: string, bar: string): string {
  return pageHtml.replace("</header>", `</header>${bar}`);
}

export function notFoundPage(what: string, value: string): string {
  return page("Not found", `<h1>${escapeHtml(what)} not found</h1><div class="card"><p>No ${escapeHtml(what.toLowerCase())} <span class="mono">${escapeHtml(value)}</span> exists on this sandbox ledger.</p><p><a href="${BASE}">Back to the latest ledgers</a></p></div>`);
}

const short = (s: string, n = 10) => (s.length > 2 * n ? `${s.slice(0, n)}…${s.slice(-6)}` : s);
export const accountLink = (a: string) => `<a class="mono" href="${BASE}/account/${escapeHtml(a)}">${escapeHtml(short(a, 12))}</a>`;
export const txLink = (h: string) => `<a class="mono nowrap" href="${BASE}/tx/${escapeHtml(h)}">${escapeHtml(short(h, 6))}</a>`;
export const ledgerLink = (i: number) => `<a href="${BASE}/ledger/${i}">${i}</a>`;

function currencyName(code: string): string {
  if (code.length !== 40) return code;
  if (code.startsWith("03")) return "LP token";
  try {
    return convertHexToString(code).replace(/\0/g, "") || code;
  } catch {
    return code;
  }
}

/** "12.5 XRP" or "1,185 VVX (rIssuer…)". */
export function formatAmount(amount: unknown): string {
  if (typeof amount === "string") return `${escapeHtml(dropsToXrp(amount))} XRP`;
  if (amount && typeof amount === "object") {
    const a = amount as { currency: string; issuer?: string; value: string };
    return `${escapeHtml(a.value)} ${escapeHtml(currencyName(a.currency))}${a.issuer ? ` <span class="muted">(${accountLink(a.issuer)})</span>` : ""}`;
  }
  return "—";
}

function resultBadge(result: string): string {
  return `<span class="${result === "tesSUCCESS" ? "ok" : "bad"}">${escapeHtml(result)}</span>`;
}

function rippleTimeText(t: number): string {
  return new Date((t + RIPPLE_EPOCH_OFFSET) * 1000).toISOString().replace("T", " ").replace(".000Z", " UTC");
}

function txRows(txs: StoredTx[], headerOf: (i: number) => LedgerHeader | undefined): string {
  if (!txs.length) return `<p class="muted">No transactions yet.</p>`;
  const rows = txs
    .map((t) => {
      const tx = t.tx_json;
      const delivered = t.meta.delivered_amount;
      const when = headerOf(t.ledger_index);
      return `<tr><td>${txLink(t.hash)}</td><td>${escapeHtml(tx.TransactionType)}</td><td class="hide-sm">${accountLink(tx.Account)}</td>
<td class="hide-sm">${tx.Destination ? accountLink(tx.Destination) : ""}${delivered ? `<div>${formatAmount(delivered)}</div>` : ""}</td>
<td>${resultBadge(t.meta.TransactionResult)}</td><td>${ledgerLink(t.ledger_index)}${when ? `<div class="muted hide-sm">${escapeHtml(rippleTimeText(when.close_time))}</div>` : ""}</td></tr>`;
    })
    .join("");
  return `<div class="scroll"><table class="table"><thead><tr><th>Hash</th><th>Type</th><th class="hide-sm">Account</th><th class="hide-sm">To / delivered</th><th>Result</th><th>Ledger</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function indexPage(ledgers: LedgerHeader[], txs: StoredTx[], headerOf: (i: number) => LedgerHeader | undefined): string {
  const ledgerRows = ledgers
    .map((l) => `<tr><td>${ledgerLink(l.ledger_index)}</td><td class="mono hide-sm">${escapeHtml(short(l.ledger_hash, 16))}</td><td>${l.tx_count}</td><td>${escapeHtml(rippleTimeText(l.close_time))}</td></tr>`)
    .join("");
  return page(
    "Latest ledgers",
    `<h1>Latest validated ledgers</h1><div class="card scroll"><table class="table"><thead><tr><th>Ledger</th><th class="hide-sm">Hash</th><th>Txs</th><th>Closed</th></tr></thead><tbody>${ledgerRows}</tbody></table></div>
<h2>Latest transactions</h2><div class="card">${txRows(txs, headerOf)}</div>`,
  );
}

export interface AccountView {
  address: string;
  root: Record<string, any>;
  lines: { peer: string; currency: string; balance: string; limit: string; limitPeer: string }[];
  nfts: { NFTokenID: string; URI?: string }[];
  offers: Record<string, any>[];
  txs: StoredTx[];
}

export function accountPage(view: AccountView, headerOf: (i: number) => LedgerHeader | undefined): string {
  const { root } = view;
  const lines = view.lines.length
    ? `<div class="scroll"><table class="table"><thead><tr><th>Currency</th><th>Counterparty</th><th>Balance</th><th class="hide-sm">Limit</th></tr></thead><tbody>${view.lines
        .map((l) => `<tr><td>${escapeHtml(currencyName(l.currency))}</td><td>${accountLink(l.peer)}</td><td>${escapeHtml(l.balance)}</td><td class="hide-sm">${escapeHtml(l.limit)}${l.limitPeer !== "0" ? ` / peer ${escapeHtml(l.limitPeer)}` : ""}</td></tr>`)
        .join("")}</tbody></table></div>`
    : `<p class="muted">No trust lines.</p>`;
  const nfts = view.nfts.length
    ? `<div class="scroll"><table class="table"><thead><tr><th>NFToken</th><th>Taxon</th><th>Serial</th><th class="hide-sm">URI</th></tr></thead><tbody>${view.nfts
        .map((n) => {
          const p = parseNFTokenID(n.NFTokenID);
          let uri = "";
          try {
            uri = n.URI ? convertHexToString(n.URI) : "";
          } catch {
            uri = n.URI ?? "";
          }
          return `<tr><td class="mono">${escapeHtml(short(n.NFTokenID, 12))}</td><td>${p.Taxon}</td><td>${p.Sequence}</td><td class="hide-sm mono">${escapeHtml(uri)}</td></tr>`;
        })
        .join("")}</tbody></table></div>`
    : `<p class="muted">No NFTs.</p>`;
  const offers = view.offers.length
    ? `<ul>${view.offers.map((o) => `<li>${(o.Flags & 1) === 1 ? "Sell" : "Buy"} offer <span class="mono">${escapeHtml(short(o.index))}</span> for ${formatAmount(o.Amount)}${o.Destination ? ` to ${accountLink(o.Destination)}` : ""}</li>`).join("")}</ul>`
    : "";
  return page(
    view.address,
    `<h1 class="mono">${escapeHtml(view.address)}</h1>
<div class="card"><div class="big">${escapeHtml(dropsToXrp(root.Balance))} XRP</div>
<dl class="kv"><dt>Sequence</dt><dd>${root.Sequence}</dd><dt>Owned objects</dt><dd>${root.OwnerCount ?? 0}</dd><dt>Flags</dt><dd>${root.Flags ?? 0}</dd>${root.AMMID ? `<dt>AMM</dt><dd>this account holds an AMM pool</dd>` : ""}</dl></div>
<h2>Trust lines</h2><div class="card">${lines}</div>
<h2>NFTs</h2><div class="card">${nfts}${offers ? `<h2>NFT offers</h2>${offers}` : ""}</div>
<h2>Recent transactions</h2><div class="card">${txRows(view.txs, headerOf)}</div>`,
  );
}

export function txPage(tx: StoredTx, header: LedgerHeader): string {
  const t = tx.tx_json;
  const meta = tx.meta;
  let changes = "";
  try {
    const balanceChanges = getBalanceChanges(meta as never);
    changes = balanceChanges
      .map((c) => `<tr><td>${accountLink(c.account)}</td><td>${c.balances.map((b) => `${escapeHtml(b.value)} ${escapeHtml(currencyName(b.currency))}`).join("<br>")}</td></tr>`)
      .join("");
  } catch {
    changes = "";
  }
  const nodes = (meta.AffectedNodes as Record<string, any>[])
    .map((n) => {
      const [kind, node] = Object.entries(n)[0] as [string, Record<string, any>];
      return `<li>${escapeHtml(kind.replace("Node", ""))} ${escapeHtml(node.LedgerEntryType)} <span class="mono muted">${escapeHtml(short(node.LedgerIndex))}</span></li>`;
    })
    .join("");
  const extras = [
    meta.delivered_amount !== undefined ? `<dt>Delivered</dt><dd>${formatAmount(meta.delivered_amount)}</dd>` : "",
    meta.nftoken_id ? `<dt>NFToken</dt><dd class="mono">${escapeHtml(meta.nftoken_id)}</dd>` : "",
    meta.offer_id ? `<dt>Offer</dt><dd class="mono">${escapeHtml(meta.offer_id)}</dd>` : "",
  ].join("");
  return page(
    `${t.TransactionType} ${tx.hash}`,
    `<h1>${escapeHtml(t.TransactionType)} <span class="mono muted">${escapeHtml(tx.hash)}</span></h1>
<div class="card"><dl class="kv"><dt>Result</dt><dd>${resultBadge(meta.TransactionResult)}</dd><dt>Ledger</dt><dd>${ledgerLink(tx.ledger_index)} (validated)</dd>
<dt>Closed</dt><dd>${escapeHtml(rippleTimeText(header.close_time))}</dd><dt>Account</dt><dd>${accountLink(t.Account)}</dd>
${t.Destination ? `<dt>Destination</dt><dd>${accountLink(t.Destination)}${t.DestinationTag !== undefined ? ` tag ${escapeHtml(t.DestinationTag)}` : ""}</dd>` : ""}
${t.Amount !== undefined ? `<dt>Amount</dt><dd>${formatAmount(t.Amount)}</dd>` : ""}${extras}
<dt>Fee</dt><dd>${formatAmount(t.Fee)}</dd><dt>Sequence</dt><dd>${t.Sequence}</dd></dl></div>
${changes ? `<h2>Balance changes</h2><div class="card scroll"><table class="table"><tbody>${changes}</tbody></table></div>` : ""}
<h2>Affected ledger objects</h2><div class="card"><ul>${nodes}</ul></div>
<h2>Transaction fields</h2><pre>${escapeHtml(JSON.stringify(t, null, 2))}</pre>
<h2>Metadata</h2><pre>${escapeHtml(JSON.stringify(meta, null, 2))}</pre>`,
  );
}

export function ledgerPage(header: LedgerHeader, txs: StoredTx[]): string {
  return page(
    `Ledger ${header.ledger_index}`,
    `<h1>Ledger ${header.ledger_index}</h1><div class="card"><dl class="kv"><dt>Hash</dt><dd class="mono">${escapeHtml(header.ledger_hash)}</dd>
<dt>Parent</dt><dd class="mono">${header.ledger_index > 1 ? `<a href="${BASE}/ledger/${header.ledger_index - 1}">${escapeHtml(header.parent_hash)}</a>` : escapeHtml(header.parent_hash)}</dd>
<dt>Closed</dt><dd>${escapeHtml(rippleTimeText(header.close_time))}</dd><dt>Transactions</dt><dd>${header.tx_count}</dd><dt>Total XRP</dt><dd>${escapeHtml(dropsToXrp(header.total_coins))}</dd></dl></div>
<h2>Transactions</h2><div class="card">${txRows(txs, () => header)}</div>`,
  );
}
