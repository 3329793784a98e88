// The capacity bench's crowd clients side by side, --sockets each, subscribed at the same time to one bare Bun
// server (lib/bareHub.ts) that sends them all the same messages: raw TCP speaking minimal WebSocket
// (lib/rawws.ts) with every socket timing its messages, the same with only every --sample-every-th socket timing
// them and the others reading in batches (what the capacity bench's crowds do), and Bun's WebSocket client.
// Ticks every 100 ms for --seconds (delivery: receipt minus the tick's serverTime), then --flood-messages as fast
// as server.publish goes, over --rounds. Each must count every flood message, their delivery figures should
// agree within the machine's noise, and the crowd process's CPU per message is what the lighter client saves
// (the cores a crowd takes from the server it measures).
//
//   bun scripts/bench/crowd-clients.ts [--sockets 1000] [--sample-every 10] [--seconds 5] [--flood-messages 200] [--rounds 3]
import { parseArgs } from "node:util";
import { loadavg } from "node:os";
import { BareHub } from "./lib/bareHub";
import { Crowd, histogramStats, type CrowdJob } from "./lib/crowd";
import { raiseFdLimit } from "./lib/fdlimit";
import { median } from "./lib/report";

const { values } = parseArgs({ options: { sockets: { type: "string", default: "1000" }, "sample-every": { type: "string", default: "10" }, seconds: { type: "string", default: "5" }, "flood-messages": { type: "string", default: "200" }, rounds: { type: "string", default: "3" } } });
const opt = { sockets: Number(values.sockets), sampleEvery: Number(values["sample-every"]), seconds: Number(values.seconds), flood: Number(values["flood-messages"]), rounds: Number(values.rounds) };
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");
raiseFdLimit();
console.log(`Crowd clients: ${opt.sockets} sockets each on one bare Bun server, load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);

const variants: Record<string, Pick<CrowdJob, "client" | "sampleEvery">> = {
  raw: { client: "raw" },
  [`raw, 1 in ${opt.sampleEvery} timing`]: { client: "raw", sampleEvery: opt.sampleEvery },
  websocket: { client: "websocket" },
};
const bare = await BareHub.start();
const crowds = new Map<string, Crowd>();
try {
  for (const [name, variant] of Object.entries(variants)) crowds.set(name, await Crowd.start({ bare: { url: bare.url, count: opt.sockets }, ...variant }));
  const cpu = async () => new Map(await Promise.all([...crowds].map(async ([name, c]) => [name, await c.cpuMs()] as const)));

  for (const c of crowds.values()) c.tell({ cmd: "record", on: true });
  let before = await cpu();
  const { ticks } = (await bare.ticks(opt.seconds * 1000)) as { ticks: number };
  await Bun.sleep(300);
  for (const c of crowds.values()) c.tell({ cmd: "record", on: false });
  let after = await cpu();
  for (const [name, crowd] of crowds) {
    const t = histogramStats([(await crowd.report()).bareTick]);
    const cpuPerTick = (after.get(name)! - before.get(name)!) / (ticks * opt.sockets);
    console.log(`  ${name.padEnd(20)} ticks: ${t.n} timed of ${ticks * crowd.timingSockets} sent to its ${crowd.timingSockets} timing sockets, p50 ${t.p50} ms, p99 ${t.p99} ms, max ${t.max} ms; crowd CPU ${(cpuPerTick * 1000).toFixed(2)} us per tick received`);
  }

  const floodCpu = new Map<string, number[]>([...crowds.keys()].map((name) => [name, []]));
  for (let r = 0; r < opt.rounds; r++) {
    const dones = await Promise.all([...crowds.values()].map((c) => c.expect("bare", opt.flood * opt.sockets)));
    before = await cpu();
    await bare.flood(opt.flood);
    await Promise.all(dones.map((d) => d()));
    after = await cpu();
    for (const name of crowds.keys()) floodCpu.get(name)!.push((after.get(name)! - before.get(name)!) / (opt.flood * opt.sockets));
  }
  for (const name of crowds.keys()) console.log(`  ${name.padEnd(20)} flood: ${opt.rounds} x ${opt.flood * opt.sockets} messages, every one counted; crowd CPU ${(median(floodCpu.get(name)!) * 1000).toFixed(2)} us per message (median of ${opt.rounds})`);
} finally {
  await Promise.all([...crowds.values()].map((c) => c.close()));
  await bare.stop();
}
