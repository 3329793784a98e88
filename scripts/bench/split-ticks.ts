// Whether a tick's burst of writes, split into groups of sockets, reaches a crowd sooner than one publish to all, and
// whether every spectator still gets as many ticks: a bare Bun server (lib/bareHub.ts) with --sockets sockets in crowd
// processes of 2,000 (the capacity bench's), ticking on a fixed 100 ms beat for --seconds (a beat the loop missed is
// skipped, as the game's ticker does), each of --shapes in turn with a fresh server and crowd, their order rotated
// over --rounds (lib/bareHub.ts TickShape: one publish; "same": one tick stamped once, to the --groups group topics one
// turn after another; "own": the same turns, each group's tick stamped in its turn; "spread": each group's own tick
// at its own point of the beat). Delivery: receipt minus the tick's serverTime, 1 in --sample-every sockets timing;
// ticks per socket per second: what those timing sockets got (10 when no beat is skipped).
//
//   bun scripts/bench/split-ticks.ts [--sockets 11000] [--groups 4 (or a list: 2,4)] [--seconds 10] [--rounds 2] [--sample-every 10]
//                                    [--shapes one,same,own,spread] [--yield timer|immediate] [--only-group]
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { BareHub, type TickShape } from "./lib/bareHub";
import { Crowd, histogramStats, processCpuMs } from "./lib/crowd";
import { raiseFdLimit } from "./lib/fdlimit";

const { values } = parseArgs({
  options: {
    sockets: { type: "string", default: "11000" },
    groups: { type: "string", default: "4" },
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "2" },
    "sample-every": { type: "string", default: "10" },
    shapes: { type: "string", default: "one,same,own,spread" },
    yield: { type: "string", default: "timer" },
    "only-group": { type: "boolean", default: false },
  },
});
const groupCounts = values.groups.split(",").map(Number);
const opt = { sockets: Number(values.sockets), seconds: Number(values.seconds), rounds: Number(values.rounds), sampleEvery: Number(values["sample-every"]) };
if (![...Object.values(opt), ...groupCounts].every((n) => Number.isInteger(n) && n > 0)) throw new Error("options must be positive whole numbers");
const shapes = values.shapes.split(",") as NonNullable<TickShape["shape"]>[];
if (!shapes.length || shapes.some((s) => !["one", "same", "own", "spread"].includes(s))) throw new Error("--shapes takes one, same, own, spread");
if (values.yield !== "timer" && values.yield !== "immediate") throw new Error("--yield takes timer or immediate");
const yieldBy = values.yield;
/** Each split shape with each group count; one publish once. */
type Variant = { shape: NonNullable<TickShape["shape"]>; groups: number };
const variants = shapes.flatMap((shape): Variant[] => (shape === "one" ? [{ shape, groups: 1 }] : groupCounts.map((groups) => ({ shape, groups }))));
raiseFdLimit();
const load = () => loadavg().map((l) => l.toFixed(2)).join(" ");
console.log(`Split ticks: ${opt.sockets} sockets on a bare Bun server, ${groupCounts.join(" or ")} groups, shapes ${shapes.join(", ")} (turns by ${yieldBy}${values["only-group"] ? ", sockets on their group topic alone" : ""}); load average ${load()}`);

async function run({ shape, groups }: Variant) {
  // One publish on a server whose sockets join one topic (the capacity bench's bare baseline); the split shapes on one
  // whose sockets also join a group topic (as a game's watchers would), or with --only-group that topic alone.
  const bare = shape === "one" ? await BareHub.start(1) : await BareHub.start(groups, values["only-group"]);
  const crowds: Crowd[] = [];
  try {
    for (let left = opt.sockets; left > 0; left -= 2_000) crowds.push(await Crowd.start({ bare: { url: bare.url, count: Math.min(2_000, left) }, sampleEvery: opt.sampleEvery }));
    await Bun.sleep(1_000);
    const loadBefore = load();
    for (const c of crowds) c.tell({ cmd: "record", on: true });
    const cpu = async () => ({ server: await processCpuMs(bare.pid), crowd: (await Promise.all(crowds.map((c) => c.cpuMs()))).reduce((a, b) => a + b, 0) });
    const cpu0 = await cpu();
    const r = await bare.ticks(opt.seconds * 1000, false, { shape, groups, yieldBy });
    const cpu1 = await cpu();
    await Bun.sleep(300);
    const reports = await Promise.all(crowds.map((c) => c.report()));
    const t = histogramStats(reports.map((rep) => rep.bareTick));
    const timed = reports.flatMap((rep) => rep.groups.bare?.bySocket ?? []);
    const perSocket = timed.reduce((n, s) => n + s.n, 0) / timed.length / opt.seconds;
    const [late, burst] = [r.late, r.burst].map((h) => histogramStats([h], 10));
    console.log(
      `  ${(shape === "one" ? shape : `${shape} ${groups}`).padEnd(8)} tick delivery p50 ${t.p50} / p99 ${t.p99} / max ${t.max} ms over ${t.n}; ${perSocket.toFixed(2)} ticks per socket per second (${r.ticks} beats, ${r.publishes} publishes); ` +
        `beat timer late p50 ${late!.p50} / p99 ${late!.p99} ms, beat due -> its writes done p50 ${burst!.p50} / p99 ${burst!.p99} ms; ` +
        `CPU per beat: server ${((cpu1.server - cpu0.server) / r.ticks).toFixed(1)} ms, crowds ${((cpu1.crowd - cpu0.crowd) / r.ticks).toFixed(1)} ms; load ${loadBefore} -> ${load()}`,
    );
  } finally {
    await Promise.all(crowds.map((c) => c.close()));
    await bare.stop();
  }
}

for (let r = 0; r < opt.rounds; r++) for (let i = 0; i < variants.length; i++) await run(variants[(i + r) % variants.length]!);
