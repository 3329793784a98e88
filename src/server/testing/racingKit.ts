import type { Client } from "xrpl";
import type { PlayerView, RaceStateView } from "../../shared/api/racing";
import { eventually } from "./ledgerKit";
import { signPayload } from "./nftKit";
import type { TestBrowser } from "./testBrowser";

/** Test helpers for Unicorn Racing against a running server (in this process or another): only its URL is used. */
type Server = { url: string };

export async function raceState(server: Server): Promise<{ raceState: RaceStateView; players: PlayerView[] }> {
  const res = await fetch(`${server.url}/api/racing/state`);
  if (!res.ok) throw new Error(`racing state answered ${res.status}`);
  return (await res.json()) as { raceState: RaceStateView; players: PlayerView[] };
}

/** Moves the sandbox clock forward (the race loop's deadlines follow it). */
export async function advanceClock(server: Server, ms: number): Promise<void> {
  const res = await fetch(`${server.url}/sandbox/api/clock/advance`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ms: Math.max(1, Math.ceil(ms)) }) });
  if (!res.ok) throw new Error(`clock advance answered ${res.status}`);
}

/**
 * Waits until race `round` reaches `status` ("closed" = waiting with betting closed), moving the
 * sandbox clock over countdowns and races instead of waiting them out.
 */
export async function raceReaches(server: Server, round: number, status: "open" | "closed" | "racing" | "finished", timeoutMs = 30_000): Promise<RaceStateView> {
  return eventually(
    async () => {
      const { raceState: s } = await raceState(server);
      const now = s.serverTime;
      const here = s.roundNumber > round ? "past" : s.roundNumber < round ? "before" : s.status === "waiting" ? (s.bettingOpen ? "open" : "closed") : s.status;
      if (here === status) return s;
      if (here === "past") throw new Error(`race ${round} is over already (now round ${s.roundNumber})`);
      // Jump to the next deadline (never past a step that still waits for the ledger).
      const next = here === "open" || here === "before" ? (s.roundNumber < round ? s.nextRaceTime : s.betsCloseTime) : here === "closed" ? s.nextRaceTime : here === "racing" ? s.endTime! : s.nextRaceTime;
      if (next > now) await advanceClock(server, next - now + 5);
      return undefined;
    },
    `race ${round} to be ${status}`,
    timeoutMs,
    100,
  );
}

/** The number of a race whose betting stays open at least `minOpenMs` more (the clock moves on to the next countdown otherwise). */
export async function raceTakingBets(server: Server, minOpenMs = 12_000): Promise<number> {
  return eventually(
    async () => {
      const s = (await raceState(server)).raceState;
      if (s.bettingOpen && s.betsCloseTime - s.serverTime >= minOpenMs) return s.roundNumber;
      await advanceClock(server, Math.max(1, s.nextRaceTime - s.serverTime + 5));
      return undefined;
    },
    "a race taking bets",
    30_000,
    100,
  );
}

/** Initiates a bet through the API (the browser's session) and signs it in the sandbox Xaman. */
export async function betAndSign(server: Server, browser: TestBrowser, seed: string, unicornName: string, betAmount: number) {
  const res = await browser.json("/api/unicorn-bet/initiate", { method: "POST", json: { walletAddress: undefined, betAmount, unicornName } });
  if (res.status !== 200) throw new Error(`initiate answered ${res.status}: ${JSON.stringify(res.body)}`);
  await signPayload(server as never, res.body.uuid, { seed });
  return res.body as { betId: string; uuid: string; round: number; destinationTag: number };
}

/** Validated XRP payments from the platform to `wallet` whose memo type is `memoType`, as the ledger has them. */
export async function xrpPaymentsTo(client: Client, platform: string, wallet: string, memoType: string): Promise<{ hash: string; drops: bigint; memo: string }[]> {
  const res = await client.request({ command: "account_tx", account: wallet, ledger_index_min: -1, ledger_index_max: -1, limit: 400 });
  const out: { hash: string; drops: bigint; memo: string }[] = [];
  for (const t of res.result.transactions) {
    const tx = t.tx_json as Record<string, any> | undefined;
    const meta = t.meta as { TransactionResult?: string; delivered_amount?: unknown } | undefined;
    if (!tx || tx.TransactionType !== "Payment" || tx.Account !== platform || tx.Destination !== wallet || meta?.TransactionResult !== "tesSUCCESS") continue;
    const type = Buffer.from(String(tx.Memos?.[0]?.Memo?.MemoType ?? ""), "hex").toString();
    if (type !== memoType) continue;
    out.push({ hash: String((t as { hash?: string }).hash), drops: BigInt(meta.delivered_amount as string), memo: Buffer.from(String(tx.Memos?.[0]?.Memo?.MemoData ?? ""), "hex").toString() });
  }
  return out;
}
