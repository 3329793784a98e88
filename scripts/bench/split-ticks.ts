// Whether a tick's burst of writes, split into groups of sockets each published in a turn of its own, reaches a
// crowd sooner than one publish to all: a bare Bun server (lib/bareHub.ts) with --sockets sockets in crowd processes
// of 2,000 (the capacity bench's), ticking every 100 ms for --seconds, once with one publish per tick and once with
// --groups publishes per tick (each with its own serverTime, as a game would stamp the multiplier of its own moment),
// both on a fixed 100 ms beat (a beat missed is skipped, as the game's ticker does), alternated over --rounds with a fresh server and crowd each. Delivery: receipt minus the tick's serverTime, 1 in
// --sample-every sockets timing.
//
//   bun scripts/bench/split-ticks.ts [--sockets 11000] [--groups 4] [--seconds 5] [--rounds 2] [--sample-every 10]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { BareHub } from "./lib/bareHub";
import { Crowd, histogramStats } from "./lib/crowd";
import { raiseFdLimit } from "./lib/fdlimit";

const { values } = parseArgs({ options: { sockets: { type: "string", default: "11000" }, groups: { type: "string", default: "4" }, seconds: { type: "string", default: "5" }, rounds: { type: "string", default: "2" }, "sample-every": { type: "string", default: "10" } } });
const opt = { sockets: Number(values.sockets), groups: Number(values.groups), seconds: Number(values.seconds), rounds: Number(values.rounds), sampleEvery: Number(values["sample-every"]) };
if (!Object.values(opt).every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");
raiseFdLimit();
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`Split ticks: ${opt.sockets} sockets on a bare Bun server, one publish per tick against ${opt.groups} in turn; load average ${load()}`);

async function run(split: boolean) {
  const bare = await BareHub.start(opt.groups);
  const crowds: Crowd[] = [];
  try {
    for (let left = opt.sockets; left > 0; left -= 2_000) crowds.push(await Crowd.start({ bare: { url: bare.url, count: Math.min(2_000, left) }, sampleEvery: opt.sampleEvery }));
    await Bun.sleep(1_000);
    for (const c of crowds) c.tell({ cmd: "record", on: true });
    const { turn, ticks } = await bare.ticks(opt.seconds * 1000, false, split ? opt.groups : 1);
    await Bun.sleep(300);
    const t = histogramStats(await Promise.all(crowds.map(async (c) => (await c.report()).bareTick)));
    const w = histogramStats([turn], 10);
    console.log(`  ${split ? `${opt.groups} publishes` : "one publish"}: tick delivery p50 ${t.p50} ms, p99 ${t.p99} ms, max ${t.max} ms over ${t.n} (${ticks} ticks); the last publish to the first timer after it p50 ${w.p50} / p99 ${w.p99} ms; load ${load()}`);
  } finally {
    await Promise.all(crowds.map((c) => c.close()));
    await bare.stop();
  }
}

for (let r = 0; r < opt.rounds; r++) for (const split of r % 2 ? [true, false] : [false, true]) await run(split);
