/** Which view the sandbox wallet page opens with. */
export type WalletView = { mode: "list" } | { mode: "sign"; uuid: string };

const STYLE = `
*{box-sizing:border-box}
html,body{margin:0;background:#0b0f17;color:#e6e9ef;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:520px;margin:0 auto;padding:16px 14px 48px}
header{display:flex;align-items:center;justify-content:space-between;gap:8px;margin-bottom:14px}
h1{font-size:20px;margin:0}
h2{font-size:15px;text-transform:uppercase;letter-spacing:.06em;color:#8b93a7;margin:22px 0 8px}
.badge{font-size:12px;padding:3px 8px;border-radius:999px;background:#3b2a0b;color:#ffc35c;border:1px solid #6b4b12}
.card{background:#141a26;border:1px solid #232c3d;border-radius:14px;padding:14px;margin:10px 0}
.card.pushed{border-color:#3d7bfd}
.muted{color:#8b93a7;font-size:14px}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all}
select,button,input{font:inherit;color:inherit}
select{width:100%;padding:12px;border-radius:10px;background:#0f1420;border:1px solid #2b3548}
.row{display:flex;gap:8px;margin-top:10px}
.row>*{flex:1}
button{padding:13px 12px;border-radius:10px;border:1px solid #2b3548;background:#1b2333;cursor:pointer;min-height:46px}
button:disabled{opacity:.5;cursor:default}
button.sign{background:#1f6feb;border-color:#1f6feb;color:#fff;font-weight:600}
button.reject{background:#2a1518;border-color:#5c2a30;color:#ff9aa5}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:10px 0 0}
dt{color:#8b93a7;font-size:14px}
dd{margin:0;overflow-wrap:anywhere}
.title{display:flex;justify-content:space-between;gap:8px;align-items:baseline}
.title strong{font-size:17px}
.ok{color:#4ade80}.bad{color:#ff9aa5}.warn{color:#ffc35c}
.empty{text-align:center;color:#8b93a7;padding:22px 8px}
a{color:#7aa7ff}
#toast{position:fixed;left:50%;bottom:18px;transform:translateX(-50%);background:#1b2333;border:1px solid #2b3548;padding:10px 14px;border-radius:10px;max-width:92vw;display:none}
`;

const SCRIPT = `
const view = JSON.parse(document.getElementById("view").textContent);
const KEY = "sandboxWalletAccount";
const $ = (sel) => document.querySelector(sel);
let accounts = [];
let busy = false;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else if (k.startsWith("on")) node.addEventListener(k.slice(2), v); else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}
function toast(text) {
  const t = $("#toast"); t.textContent = text; t.style.display = "block";
  clearTimeout(toast.timer); toast.timer = setTimeout(() => (t.style.display = "none"), 3500);
}
async function api(method, path, body) {
  const res = await fetch(path, { method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.message || data.error || res.status + " " + res.statusText);
  return data;
}
const short = (a) => a ? a.slice(0, 6) + "…" + a.slice(-4) : "";
const chosen = () => localStorage.getItem(KEY) || "";
function fmtBalance(a) {
  const parts = [];
  if (a.xrp !== undefined && a.xrp !== null) parts.push(a.xrp + " XRP");
  if (a.vvx !== undefined && a.vvx !== null) parts.push(a.vvx + " VVX");
  return parts.join(" · ");
}
async function loadAccounts() {
  const data = await api("GET", "/sandbox/api/accounts");
  accounts = Array.isArray(data) ? data : (data.accounts || []);
  const sel = $("#account");
  sel.replaceChildren(el("option", { value: "" }, accounts.length ? "Choose an account" : "No accounts yet: create one"));
  for (const a of accounts) sel.append(el("option", { value: a.address, selected: a.address === chosen() }, short(a.address)));
  if (chosen() && !accounts.some((a) => a.address === chosen())) localStorage.removeItem(KEY);
  showChosen();
}
function showChosen() {
  const a = accounts.find((x) => x.address === chosen());
  $("#address").textContent = a ? a.address : "";
  $("#balance").textContent = a ? fmtBalance(a) : "";
}
async function createAccount() {
  const btn = $("#create"); btn.disabled = true;
  try {
    const acc = await api("POST", "/sandbox/api/accounts", { xrp: 1000, vvx: 1000000 });
    localStorage.setItem(KEY, acc.address);
    toast("Created and funded " + short(acc.address));
    await loadAccounts(); await loadPayloads();
  } catch (e) { toast("Could not create an account: " + e.message); }
  finally { btn.disabled = false; }
}
function card(p) {
  const me = chosen();
  const lines = el("dl", {}, p.lines.flatMap((l) => [el("dt", {}, l.label), el("dd", { class: l.label === "Account" || l.label === "Destination" ? "mono" : "" }, l.value)]));
  const wrong = p.mustSignWith && me && p.mustSignWith !== me;
  const canSwitch = p.state === "pending" && p.mustSignWith && p.mustSignWith !== me && accounts.some((a) => a.address === p.mustSignWith);
  const status = p.state === "pending"
    ? el("span", { class: "muted" }, "expires in " + Math.floor(p.expiresInSeconds / 60) + ":" + String(p.expiresInSeconds % 60).padStart(2, "0"))
    : el("span", { class: p.state === "signed" ? "ok" : "bad" }, p.state);
  const node = el("div", { class: "card" + (p.pushed && p.pushedTo === me ? " pushed" : ""), "data-uuid": p.uuid },
    el("div", { class: "title" }, el("strong", {}, p.txType === "SignIn" ? "Sign in" : p.txType), status),
    p.instruction ? el("div", { class: "muted" }, p.instruction) : null,
    p.pushed && p.pushedTo === me ? el("div", { class: "warn" }, "Pushed to you") : null,
    lines,
    wrong ? el("div", { class: "bad" }, "Must be signed by " + p.mustSignWith) : null,
    canSwitch ? el("button", { onclick: () => { localStorage.setItem(KEY, p.mustSignWith); loadAccounts().then(loadPayloads); } }, "Switch to " + short(p.mustSignWith)) : null,
    p.state === "pending" ? el("div", { class: "row" },
      el("button", { class: "reject", onclick: () => act(p, "reject") }, "Reject"),
      el("button", { class: "sign", disabled: !me || wrong, onclick: () => act(p, "sign") }, me ? "Sign" : "Choose an account to sign")) : null,
    p.state === "signed" && p.txid ? el("div", { class: "muted mono" }, "txid " + p.txid + (p.dispatchedResult ? " · " + p.dispatchedResult : "")) : null,
  );
  return node;
}
async function act(p, what) {
  if (busy) return; busy = true;
  document.querySelectorAll("button.sign,button.reject").forEach((b) => (b.disabled = true));
  try {
    const res = await api("POST", "/sandbox/api/payloads/" + p.uuid + "/" + what, what === "sign" ? { account: chosen() } : undefined);
    toast(what === "sign" ? "Signed" + (res.dispatchedResult ? " · " + res.dispatchedResult : "") : "Rejected");
    if (res.returnUrl) { setTimeout(() => (location.href = res.returnUrl), 600); return; }
  } catch (e) { toast(e.message); }
  finally { busy = false; await loadPayloads(); loadAccounts().catch(() => {}); }
}
async function loadPayloads() {
  if (busy) return;
  const me = chosen();
  if (view.mode === "sign") {
    const { payload } = await api("GET", "/sandbox/api/payloads/" + view.uuid);
    const box = $("#requests");
    box.replaceChildren(card(payload));
    if (payload.state === "signed") box.append(el("p", { class: "ok" }, "Signed. You can go back to the app now."));
    else if (payload.state === "rejected" || payload.state === "cancelled") box.append(el("p", { class: "bad" }, "This request was " + payload.state + "."));
    else if (payload.state === "expired") box.append(el("p", { class: "bad" }, "This request expired."));
    return;
  }
  const { payloads } = await api("GET", "/sandbox/api/payloads?state=pending" + (me ? "&account=" + encodeURIComponent(me) : ""));
  const pushed = payloads.filter((p) => p.pushed && p.pushedTo === me);
  const others = payloads.filter((p) => !(p.pushed && p.pushedTo === me));
  const box = $("#requests");
  box.replaceChildren(...[
    pushed.length ? el("h2", {}, "Pushed to you") : null, ...pushed.map(card),
    el("h2", {}, "Pending requests"), ...(others.length ? others.map(card) : [el("div", { class: "empty" }, "No pending sign requests. Scan or open a QR link from the app.")]),
  ].filter(Boolean));
}
$("#account").addEventListener("change", (e) => { if (e.target.value) localStorage.setItem(KEY, e.target.value); else localStorage.removeItem(KEY); showChosen(); loadPayloads(); });
$("#create").addEventListener("click", createAccount);
(async () => {
  try { await loadAccounts(); } catch (e) { toast("Accounts: " + e.message); }
  if (view.mode === "sign") { try { await api("POST", "/sandbox/api/payloads/" + view.uuid + "/open"); } catch {} }
  const tick = () => loadPayloads().catch((e) => toast(e.message));
  await tick();
  setInterval(tick, 2000);
})();
`;

/** The sandbox wallet page: a self-contained dark page that plays the Xaman app on a phone or desktop. */
export function walletPage(view: WalletView): string {
  const viewJson = JSON.stringify(view).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="dark">
<meta name="robots" content="noindex">
<title>${view.mode === "sign" ? "Sign request" : "Sandbox wallet"} · VVX sandbox Xaman</title>
<style>${STYLE}</style>
</head>
<body>
<main>
  <header><h1>Sandbox wallet</h1><span class="badge">SANDBOX</span></header>
  <p class="muted">Plays the Xaman app for the sandbox ledger (test money only): pick a funded account, then sign or reject requests.</p>
  <section class="card">
    <label for="account" class="muted">Account</label>
    <select id="account"><option value="">Loading accounts…</option></select>
    <div id="address" class="muted mono" style="margin-top:6px"></div>
    <div id="balance" style="margin-top:2px"></div>
    <div class="row"><button id="create" type="button">Create funded account</button></div>
  </section>
  <section id="requests"><div class="empty">Loading requests…</div></section>
  ${view.mode === "sign" ? '<p><a href="/sandbox/wallet">All pending requests</a></p>' : ""}
</main>
<div id="toast" role="status"></div>
<script id="view" type="application/json">${viewJson}</script>
<script>${SCRIPT}</script>
</body>
</html>`;
}
