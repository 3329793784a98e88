import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * Prometheus' text exposition format (version 0.0.4), written here rather than with prom-client:
 * under Bun 1.4.5 importing prom-client alone took about 30 ms and 17 MiB of resident memory (measured),
 * a fifth of the server's idle footprint, for what is a few counters, gauges and histograms.
 */
type Labels = Record<string, string>;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function labelText(labels: Labels | undefined, extra?: [string, string]): string {
  const pairs = Object.entries(labels ?? {});
  if (extra) pairs.push(extra);
  return pairs.length ? `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(",")}}` : "";
}

/** A number as Prometheus reads it (bigints exactly: money in drops or micro-VVX passes 2^53 in time). */
function valueText(v: number | bigint): string {
  if (typeof v === "bigint") return v.toString();
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "+Inf";
  if (v === -Infinity) return "-Inf";
  return String(v);
}

interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  lines(): string[] | Promise<string[]>;
}

/** Sets a metric's values at each scrape: synchronous, or async (a database read), awaited by render. */
type Collect = (set: (value: number | bigint, labels?: Labels) => void) => void | Promise<void>;

/** A counter or gauge with labels; `collect`, when given, sets its values at each scrape (from the books, the ledger ...). */
export class Metric {
  private readonly values = new Map<string, { labels?: Labels; value: number | bigint }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: "counter" | "gauge",
    private readonly collect?: Collect,
  ) {}

  inc(labels?: Labels, by = 1): void {
    const key = labelText(labels);
    const entry = this.values.get(key);
    if (entry) entry.value = Number(entry.value) + by;
    else this.values.set(key, { labels, value: by });
  }

  set(value: number | bigint, labels?: Labels): void {
    this.values.set(labelText(labels), { labels, value });
  }

  lines(): string[] | Promise<string[]> {
    if (!this.collect) return this.text();
    // The values of this scrape only: a concurrent scrape's collector cannot mix its values into ours.
    const values = new Map<string, string>();
    const set = (value: number | bigint, labels?: Labels) => void values.set(labelText(labels), `${this.name}${labelText(labels)} ${valueText(value)}`);
    const done = this.collect(set);
    return done instanceof Promise ? done.then(() => [...values.values()]) : [...values.values()];
  }

  private text(): string[] {
    return [...this.values.values()].map((e) => `${this.name}${labelText(e.labels)} ${valueText(e.value)}`);
  }
}

/** A histogram with fixed buckets per label set (cumulative buckets, _sum, _count). */
export class Histogram {
  readonly type = "histogram";
  private readonly series = new Map<string, { labels?: Labels; counts: number[]; sum: number; count: number }>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly buckets: number[],
  ) {}

  observe(value: number, labels?: Labels): void {
    const key = labelText(labels);
    let s = this.series.get(key);
    if (!s) this.series.set(key, (s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  lines(): string[] {
    const out: string[] = [];
    for (const s of this.series.values()) {
      this.buckets.forEach((le, i) => out.push(`${this.name}_bucket${labelText(s.labels, ["le", String(le)])} ${s.counts[i]}`));
      out.push(`${this.name}_bucket${labelText(s.labels, ["le", "+Inf"])} ${s.count}`);
      out.push(`${this.name}_sum${labelText(s.labels)} ${s.sum}`);
      out.push(`${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return out;
  }
}

/** The metric families of one server, rendered in registration order. */
export class MetricsRegistry {
  private readonly families: Family[] = [];

  private add<F extends Family>(family: F): F {
    if (!NAME.test(family.name) || this.families.some((f) => f.name === family.name)) throw new Error(`bad or repeated metric name ${family.name}`);
    this.families.push(family);
    return family;
  }

  counter(name: string, help: string, collect?: Collect): Metric {
    return this.add(new Metric(name, help, "counter", collect));
  }

  gauge(name: string, help: string, collect?: Collect): Metric {
    return this.add(new Metric(name, help, "gauge", collect));
  }

  histogram(name: string, help: string, buckets: number[]): Histogram {
    return this.add(new Histogram(name, help, buckets));
  }

  /**
   * The exposition: HELP and TYPE for every family, then its samples; a family whose collector fails is left out
   * (and says so in a comment). The async collectors (database reads) run side by side; the families keep their order.
   */
  async render(): Promise<string> {
    const collected = await Promise.all(
      this.families.map(async (f) => {
        try {
          return { f, lines: await f.lines() };
        } catch (err) {
          return { f, failed: (err instanceof Error ? err.message : String(err)).replace(/\n/g, " ") };
        }
      }),
    );
    const out: string[] = [];
    for (const { f, lines, failed } of collected) {
      if (lines) out.push(`# HELP ${f.name} ${f.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`, `# TYPE ${f.name} ${f.type}`, ...lines);
      else out.push(`# ${f.name} not collected: ${failed}`);
    }
    return out.join("\n") + "\n";
  }
}

/** The event loop's delay, sampled every 20 ms by the runtime (perf_hooks), reset at each read. */
export function eventLoopDelay(): { read(): { meanS: number; maxS: number; p99S: number }; stop(): void } {
  const h = monitorEventLoopDelay({ resolution: 20 });
  h.enable();
  return {
    read() {
      const value = { meanS: (h.mean || 0) / 1e9, maxS: (h.max || 0) / 1e9, p99S: (h.percentile(99) || 0) / 1e9 };
      h.reset();
      return value;
    },
    stop: () => h.disable(),
  };
}
