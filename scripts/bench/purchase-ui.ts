// NFT purchase benchmark, the browser half: how long a buyer looks at "Step 1: Pay VVX" after
// signing the payment before the real dialog, in Chromium, shows "Step 2: Accept NFT Offer".
// Runs the real server in-process (sandbox ledger and Xaman) and the real SPA; one funded
// sandbox account connects through the header button and buys Oasis NFTs one after another,
// signing through the sandbox HTTP API exactly as the sandbox wallet page does.
//
//   bun scripts/bench/purchase-ui.ts [--purchases 8] [--ledger-ms 1000]
//
// Per purchase: t_signed = the sandbox wallet's sign call returned (payment submitted);
// t_validated = the payment's transaction is in a validated ledger (polled with `tx` every 25 ms);
// t_step2 = the dialog's title reads "Step 2: Accept NFT Offer". The dialog polls as the spec
// says (signing status every 3 s, then the on-chain check every 3 s, purchase status every 5 s),
// so most of the wait is polling cadence, not server work (scripts/bench/purchase.ts times that).
import { parseArgs } from "node:util";
import type { Page } from "playwright-core";
import { Client } from "xrpl";
import { launchBrowser, openPage, DESKTOP } from "../../e2e/browser";
import { startTestServer } from "../../src/server/testing/testServer";

const { values } = parseArgs({ options: { purchases: { type: "string", default: "8" }, "ledger-ms": { type: "string", default: "1000" } } });
const purchases = Number(values.purchases);
const ledgerMs = Number(values["ledger-ms"]);
if (!(purchases > 0 && purchases <= 40)) throw new Error("--purchases must be 1..40 (the Oasis supply)");
if (!(ledgerMs >= 100)) throw new Error("--ledger-ms must be at least 100");

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

const server = await startTestServer({ SANDBOX_LEDGER_MS: String(ledgerMs) });
const browser = await launchBrowser();
const ledger = new Client(`ws://127.0.0.1:${server.port}/sandbox/ledger`);
try {
  await ledger.connect();
  const post = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const buyer = await post<{ address: string }>("/sandbox/api/accounts", { xrp: 100 + purchases * 5, vvx: purchases * 250_000 });
  const sign = (uuid: string) => post<{ signed: boolean; txid?: string }>(`/sandbox/api/payloads/${uuid}/sign`, { account: buyer.address });

  const context = await browser.newContext({ viewport: DESKTOP });
  const { page, errors } = await openPage(context);
  await page.goto(server.url + "/marketplace");
  await page.getByTestId("wallet-connect").first().click();
  const modal = page.getByTestId("signing-modal");
  await modal.waitFor();
  await sign((await modal.getAttribute("data-uuid"))!);
  await page.getByTestId("wallet-button").first().waitFor({ timeout: 15_000 });
  await modal.waitFor({ state: "detached", timeout: 10_000 });

  const title = (page: Page, text: string, timeout: number) => page.locator("#purchase-title", { hasText: text }).waitFor({ timeout });
  const validated = async (hash: string) => {
    for (;;) {
      const res = await ledger.request({ command: "tx", transaction: hash }).catch(() => null);
      if (res?.result.validated) return performance.now();
      await Bun.sleep(25);
    }
  };

  const signedToStep2: number[] = [];
  const validatedToStep2: number[] = [];
  for (let i = 0; i < purchases; i++) {
    await page.getByTestId("tier-card-2").getByRole("button", { name: "Purchase with VVX" }).click();
    await page.getByRole("button", { name: "Start Purchase" }).click();
    await title(page, "Step 1: Pay VVX", 15_000);
    const uuid = (await page.getByTestId("payment-qr").getAttribute("data-uuid"))!;
    const signed = await sign(uuid);
    const tSigned = performance.now();
    if (!signed.txid) throw new Error("the sandbox wallet returned no txid");
    const tValidated = validated(signed.txid);
    await title(page, "Step 2: Accept NFT Offer", 60_000);
    const tStep2 = performance.now();
    signedToStep2.push(tStep2 - tSigned);
    validatedToStep2.push(tStep2 - (await tValidated));
    // Finish the purchase so the next one starts clean.
    const offerQr = page.getByTestId("offer-qr");
    await offerQr.waitFor({ timeout: 30_000 });
    await sign((await offerQr.getAttribute("data-uuid"))!);
    await title(page, "Purchase Complete!", 30_000);
    await page.getByRole("button", { name: "Done" }).click();
    await page.getByTestId("purchase-dialog").waitFor({ state: "detached" });
    process.stdout.write(`purchase ${i + 1}/${purchases}: signed -> step 2 ${(signedToStep2[i]! / 1000).toFixed(2)} s\n`);
  }
  if (errors.length) throw new Error(`console errors in the page:\n${errors.join("\n")}`);

  const report = (label: string, ms: number[]) => {
    const s = [...ms].sort((a, b) => a - b);
    const f = (v: number) => `${(v / 1000).toFixed(2)} s (${(v / ledgerMs).toFixed(1)} closes)`;
    console.log(`${label.padEnd(38)} median ${f(quantile(s, 0.5))}  p99 ${f(quantile(s, 0.99))}  min ${f(s[0]!)}  max ${f(s.at(-1)!)}`);
  };
  console.log(`\n${purchases} purchases in Chromium, sandbox ledger closing every ${ledgerMs} ms:`);
  report("payment signed -> UI shows step 2", signedToStep2);
  report("payment validated -> UI shows step 2", validatedToStep2);
  await context.close();
} finally {
  await ledger.disconnect().catch(() => undefined);
  await browser.close();
  await server.stop(true);
}
