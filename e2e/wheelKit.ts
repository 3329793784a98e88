import { expect } from "bun:test";
import type { Page } from "playwright-core";
import { spinDailyWheel } from "../src/engine";
import type { TestServer } from "../src/server/testing/testServer";

/**
 * Sets a client seed under which the wallet's next wheel spin wins `spins` spins (the test reads the
 * secret server seed; players cannot). The wallet's seed pair is made first if it has none yet.
 */
export async function steerWheelToPrize(live: { server: TestServer }, page: Page, wallet: string, spins = 2) {
  await live.server.ctx.fair.open(wallet);
  const row = (await live.server.ctx.fair.repo.seeds(wallet))!;
  for (let i = 0; ; i++) {
    const clientSeed = `e2e-${i}`;
    const r = spinDailyWheel({ serverSeed: row.serverSeed, clientSeed, nonce: row.nextNonce });
    if (r.prizeAmount !== spins) continue;
    const res = await page.request.post(`${live.server.url}/api/fair/client-seed`, { data: { walletAddress: wallet, clientSeed } });
    expect(res.status()).toBe(200);
    return r;
  }
}
