// Crash benchmark: one live round with 1,000 WebSocket spectators and 200 bettors on this machine.
//
//   bun scripts/bench/crash.ts [--spectators 1000] [--bettors 200] [--flood-messages 500] [--rounds 3]
//
// The real server runs in-process (sandbox ledger closing every second, as shipped); the sockets
// live in a child process. It reports:
// - 200 bets paid through the sandbox Xaman and ledger: how many ledger closes confirmed them;
// - tick delivery (server publish -> client receipt) p50/p99 over every socket, during the round;
// - cash-out acknowledgement (cashOut sent -> cashOutConfirmed) p50/p99 for the manual half of the bettors;
// - payouts: the sum on the ledger equals the sum of floor(bet x multiplier) the server decided;
// - fan-out throughput: messages/s delivered to every socket when the game channel publishes as fast as it
//   can, against a bare Bun.serve publishing the same JSON with server.publish to the same number of
//   sockets, A/B interleaved over --rounds; the ratio is game / bare (goal >= 0.8).
import { parseArgs } from "node:util";
import { faucet, outsideClient } from "../../src/server/testing/ledgerKit";
import { startTestServer } from "../../src/server/testing/testServer";
import { finishRound, skipToRound } from "../../src/server/testing/crashKit";

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { n: s.length, p50: quantile(s, 0.5), p99: quantile(s, 0.99), max: s.at(-1) ?? 0 };
};

// --- The clients (child process): spectators and bettors on the game, the same count on the bare server ---
interface ClientJob {
  gameUrl: string;
  bareUrl: string;
  origin: string;
  spectators: number;
  bettors: { wallet: string; cookie: string }[];
}

if (process.argv[2] === "--clients") {
  // One JSON line per message on stdin: the job first, then commands.
  const input = console[Symbol.asyncIterator]();
  const job = JSON.parse((await input.next()).value as string) as ClientJob;
  const tickLatency: number[] = [];
  const crashLatency: number[] = [];
  const ackLatency: number[] = [];
  const sentAt = new Map<string, number>();
  let recording = false;
  const flood = { game: 0, bare: 0 };
  let expect: { side: "game" | "bare"; total: number } | undefined;
  const floodSeen = (side: "game" | "bare") => {
    flood[side]++;
    if (expect && expect.side === side && flood[side] === expect.total) console.log(JSON.stringify({ done: side }));
  };
  const open = (url: string, headers: Record<string, string>, onMessage: (text: string) => void) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(url, { headers } as never);
      ws.onopen = () => resolve(ws);
      ws.onerror = () => reject(new Error(`socket to ${url} failed`));
      // 1,200 sockets in one process: only the messages measured are parsed (a real client parses its own).
      ws.onmessage = (e) => onMessage(String(e.data));
    });
  const serverTime = (text: string) => Number(/"serverTime":(\d+)/.exec(text)?.[1]);
  const onGame = (text: string) => {
    if (text.startsWith('{"type":"tick"')) {
      if (recording) tickLatency.push(Date.now() - serverTime(text));
    } else if (text.startsWith('{"type":"flood"')) floodSeen("game");
    else if (recording && text.startsWith('{"type":"gameState","status":"crashed"')) crashLatency.push(Date.now() - serverTime(text));
  };
  const game: WebSocket[] = [];
  for (let i = 0; i < job.spectators; i += 50) {
    game.push(...(await Promise.all(Array.from({ length: Math.min(50, job.spectators - i) }, () => open(job.gameUrl, { origin: job.origin }, onGame)))));
  }
  const bettors = new Map<string, WebSocket>();
  await Promise.all(
    job.bettors.map(async (b) => {
      const ws = await open(job.gameUrl, { origin: job.origin, cookie: b.cookie }, (text) => {
        onGame(text);
        if (text.startsWith('{"type":"cashOutConfirmed"') && text.includes('"txid":null') && sentAt.has(b.wallet)) ackLatency.push(performance.now() - sentAt.get(b.wallet)!);
      });
      ws.send(JSON.stringify({ type: "auth", walletAddress: b.wallet }));
      bettors.set(b.wallet, ws);
    }),
  );
  const total = job.spectators + job.bettors.length;
  const bare: WebSocket[] = [];
  for (let i = 0; i < total; i += 50) {
    bare.push(...(await Promise.all(Array.from({ length: Math.min(50, total - i) }, () => open(job.bareUrl, {}, () => floodSeen("bare"))))));
  }
  console.log(JSON.stringify({ ready: true, sockets: game.length + bettors.size + bare.length }));
  for (let next = await input.next(); !next.done; next = await input.next()) {
    const cmd = JSON.parse(next.value as string) as { cmd: string; wallets?: string[]; on?: boolean; side?: "game" | "bare"; total?: number };
    if (cmd.cmd === "cashout") {
      for (const w of cmd.wallets!) {
        sentAt.set(w, performance.now());
        bettors.get(w)!.send(JSON.stringify({ type: "cashOut", walletAddress: w }));
      }
    } else if (cmd.cmd === "record") {
      recording = cmd.on!;
    } else if (cmd.cmd === "expect") {
      flood.game = flood.bare = 0;
      expect = { side: cmd.side!, total: cmd.total! };
      console.log(JSON.stringify({ expecting: cmd.side }));
    } else if (cmd.cmd === "report") {
      console.log(JSON.stringify({ tick: stats(tickLatency), crash: stats(crashLatency), ack: stats(ackLatency) }));
      process.exit(0);
    }
  }
}

// --- The run ---------------------------------------------------------------------------------------
const { values } = parseArgs({ options: { spectators: { type: "string", default: "1000" }, bettors: { type: "string", default: "200" }, "flood-messages": { type: "string", default: "500" }, rounds: { type: "string", default: "5" } } });
const opt = { spectators: Number(values.spectators), bettors: Number(values.bettors), floodMessages: Number(values["flood-messages"]), rounds: Number(values.rounds) };

const server = await startTestServer({ CRASH_WAIT_MS: "10000", CRASH_PAUSE_MS: "1000", SANDBOX_LEDGER_MS: "1000" });
const { ctx } = server;
const bareServer = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req, s) => (s.upgrade(req) ? undefined : new Response("no", { status: 400 })),
  websocket: {
    open: (ws) => void ws.subscribe("bare"),
    message: () => {},
  },
});
const child = Bun.spawn(["bun", import.meta.path, "--clients"], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
const lines = (async function* () {
  const decoder = new TextDecoder();
  let buf = "";
  for await (const chunk of child.stdout as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk);
    let at: number;
    while ((at = buf.indexOf("\n")) >= 0) {
      yield buf.slice(0, at);
      buf = buf.slice(at + 1);
    }
  }
})();
const nextLine = async () => JSON.parse((await lines.next()).value as string);
const tell = (cmd: Record<string, unknown>) => child.stdin.write(JSON.stringify(cmd) + "\n");

try {
  await ctx.ledger.waitConnected(15_000);
  console.log(`Crash benchmark: ${opt.spectators} spectators, ${opt.bettors} bettors (sandbox ledger closes every 1000 ms)`);
  let t0 = performance.now();
  const wallets: Awaited<ReturnType<typeof faucet>>[] = [];
  for (let i = 0; i < opt.bettors; i += 25) wallets.push(...(await Promise.all(Array.from({ length: Math.min(25, opt.bettors - i) }, () => faucet(server.url, { xrp: 200 })))));
  const bettors = await Promise.all(wallets.map(async (w) => ({ wallet: w.classicAddress, cookie: `vvx_session=${(await ctx.auth.createSession(w.classicAddress, "wallet_connect")).token}` })));
  console.log(`setup: ${opt.bettors} funded wallets in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  child.stdin.write(JSON.stringify({ gameUrl: `${server.url.replace("http", "ws")}/ws/games/crash`, bareUrl: `ws://127.0.0.1:${bareServer.port}/`, origin: server.url, spectators: opt.spectators, bettors } satisfies ClientJob) + "\n");
  const ready = await nextLine();
  console.log(`sockets open: ${ready.sockets}`);

  // 200 bets: opened through the kit, signed in the sandbox Xaman (submitted to the ledger), credited by the watcher.
  const client = await outsideClient(server.url);
  // A fresh round (its whole countdown ahead) that flies to 3x at least; then time runs as in production.
  await finishRound(server);
  const round = await skipToRound(server, (c) => c >= 300);
  const bets = await Promise.all(wallets.map((w, i) => ctx.crash.bets.create({ wallet: w.classicAddress, amountDrops: BigInt(1 + (i % 10)) * 1_000_000n, params: { autoCashOut: i % 2 === 0 ? 150 + (i % 7) * 10 : null } })));
  t0 = performance.now();
  // Each wallet signs its bet's payment (the Xaman request's transaction) and all 200 are submitted at once,
  // so they land in one ledger (the sandbox Xaman opens a ledger connection per signature: too slow for a burst).
  const blobs = await Promise.all(
    bets.map(async ({ bet }, j) => {
      const filled = await client.autofill({ TransactionType: "Payment", Account: wallets[j]!.classicAddress, Destination: ctx.ledger.platformAddress, DestinationTag: bet.destinationTag, Amount: bet.amountDrops.toString() });
      return wallets[j]!.sign(filled).tx_blob;
    }),
  );
  t0 = performance.now();
  const submitted = await Promise.all(blobs.map((tx_blob) => client.request({ command: "submit", tx_blob })));
  const refused = submitted.filter((r) => r.result.engine_result !== "tesSUCCESS");
  if (refused.length) throw new Error(`${refused.length} payments refused, e.g. ${refused[0]!.result.engine_result}`);
  const signedMs = performance.now() - t0;
  while ((await Promise.all(bets.map(({ bet }) => ctx.crash.bets.get(bet.id)))).some((b) => b!.status === "awaiting_payment")) await Bun.sleep(20);
  const confirmed = (await Promise.all(bets.map(({ bet }) => ctx.crash.bets.get(bet.id)))).map((b) => b!);
  const ledgers = new Set<number>();
  const notConfirmed = confirmed.filter((b) => b.status !== "confirmed");
  if (notConfirmed.length) throw new Error(`${notConfirmed.length} bets not confirmed: ${JSON.stringify(notConfirmed.slice(0, 3).map((b) => [b.status, b.reason]))}`);
  for (const b of confirmed) ledgers.add((await ctx.payments.incoming(b.paymentTxHash!))!.ledgerIndex);
  const targetRound = confirmed[0]!.round!;
  const closedAt = Math.max(...(await Promise.all(confirmed.map(async (b) => (await ctx.payments.incoming(b.paymentTxHash!))!.processedAt.getTime()))));
  const firstCredit = Math.min(...confirmed.map((b) => b.confirmedAt!.getTime()));
  console.log(`bets: ${confirmed.length}/${bets.length} confirmed for round ${targetRound}: submitted in ${signedMs.toFixed(0)} ms, in ${ledgers.size} ledger(s) [${[...ledgers].join(", ")}], all credited ${((performance.now() - t0 - signedMs) / 1000).toFixed(2)} s after the last submit (first to last credit ${closedAt - firstCredit} ms)`);
  if (targetRound !== round.round) console.log(`note: the bets joined round ${targetRound} (the countdown of round ${round.round} ended first)`);

  // The round runs: the manual half cashes out at 1.3x; ticks reach every socket.
  tell({ cmd: "record", on: true });
  while (ctx.crash.rounds.state().round !== targetRound || ctx.crash.rounds.state().status !== "running" || ctx.crash.rounds.state().currentMultiplier < 1.3) await Bun.sleep(5);
  tell({ cmd: "cashout", wallets: wallets.filter((_, i) => i % 2 === 1).map((w) => w.classicAddress) });
  while (ctx.crash.rounds.state().round === targetRound && ctx.crash.rounds.state().status !== "crashed") await Bun.sleep(20);
  const crashPoint = ctx.crash.rounds.state().crashPoint;
  await Bun.sleep(500);
  tell({ cmd: "record", on: false });

  // Payouts: the ledger's sum equals the sum of floor(bet x multiplier) the server decided.
  const settled = (await Promise.all(bets.map(({ bet }) => ctx.crash.bets.get(bet.id)))).map((b) => b!);
  const expected = settled.filter((b) => b.status === "won").reduce((n, b) => n + (b.amountDrops * BigInt(b.multiplierHundredths!)) / 100n, 0n);
  const winners = settled.filter((b) => b.status === "won");
  t0 = performance.now();
  while ((await Promise.all(winners.map((b) => ctx.crash.bets.get(b.id)))).some((b) => !b!.txid)) await Bun.sleep(50);
  let onLedger = 0n;
  for (const b of winners) {
    const tx = await ctx.ledger.request({ command: "tx", transaction: (await ctx.crash.bets.get(b.id))!.txid! });
    onLedger += BigInt((tx.result.meta as { delivered_amount: string }).delivered_amount);
  }
  const statuses = settled.reduce<Record<string, number>>((acc, b) => ((acc[`${b.status} (round ${b.round})`] = (acc[`${b.status} (round ${b.round})`] ?? 0) + 1), acc), {});
  console.log(`bets settled: ${JSON.stringify(statuses)}`);
  console.log(`round ${targetRound} crashed at ${crashPoint}x: ${winners.length} won, ${settled.filter((b) => b.status === "lost").length} lost; payouts on the ledger ${(Number(onLedger) / 1e6).toFixed(6)} XRP = expected ${(Number(expected) / 1e6).toFixed(6)} XRP: ${onLedger === expected ? "EQUAL" : "DIFFERENT"} (all validated ${((performance.now() - t0) / 1000).toFixed(1)} s after the crash)`);

  // Fan-out throughput: the game channel against bare server.publish, same sockets count, same JSON.
  // M messages published as fast as the loop allows; the clients say when every socket has all of them.
  const sockets = opt.spectators + opt.bettors;
  const floodRun = async (side: "game" | "bare") => {
    tell({ cmd: "expect", side, total: opt.floodMessages * sockets });
    await nextLine();
    const t0 = performance.now();
    for (let sent = 0; sent < opt.floodMessages; sent++) {
      const msg = { type: "flood", round: targetRound, elapsedMs: sent, currentMultiplier: 1.23, serverTime: Date.now() };
      if (side === "game") ctx.crash.channel.publish(msg);
      else bareServer.publish("bare", JSON.stringify(msg));
      if (sent % 20 === 19) await Bun.sleep(0);
    }
    await nextLine();
    const ms = performance.now() - t0;
    return { ms, perSecond: (opt.floodMessages * sockets) / (ms / 1000) };
  };
  const ratios: number[] = [];
  for (let r = 0; r < opt.rounds; r++) {
    const order = r % 2 === 0 ? (["bare", "game"] as const) : (["game", "bare"] as const);
    const res: Record<string, { ms: number; perSecond: number }> = {};
    for (const side of order) res[side] = await floodRun(side);
    ratios.push(res.game!.perSecond / res.bare!.perSecond);
    console.log(`fan-out round ${r + 1}: ${opt.floodMessages} messages to ${sockets} sockets: game ${res.game!.perSecond.toFixed(0)} msg/s (${res.game!.ms.toFixed(0)} ms), bare server.publish ${res.bare!.perSecond.toFixed(0)} msg/s (${res.bare!.ms.toFixed(0)} ms): ratio ${ratios.at(-1)!.toFixed(2)}`);
  }
  tell({ cmd: "report" });
  const report = await nextLine();
  console.log(`tick delivery during the round: p50 ${report.tick.p50} ms, p99 ${report.tick.p99} ms, max ${report.tick.max} ms over ${report.tick.n} deliveries`);
  console.log(`crash delivery: p50 ${report.crash.p50} ms, p99 ${report.crash.p99} ms, max ${report.crash.max} ms to ${report.crash.n} sockets`);
  console.log(`cash-out acknowledgement: p50 ${report.ack.p50.toFixed(1)} ms, p99 ${report.ack.p99.toFixed(1)} ms over ${report.ack.n} cash-outs`);
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`fan-out ratio game/bare (median of ${ratios.length}): ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} (goal >= 0.8)`);
} finally {
  child.kill();
  await bareServer.stop(true);
  await server.stop(true);
}
