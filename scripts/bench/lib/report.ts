// One row of `bun run bench`'s table: what was measured, the product's figure, the bare baseline
// measured in the same run, their ratio and the goal. A bench run with --json prints its rows
// as one JSON line (the runner collects them); without it, as a table.

export interface BenchRow {
  metric: string;
  product: number;
  baseline: number;
  /** product / baseline in the direction where higher is better (the bench says which). */
  ratio: number;
  goal: string;
  /** Undefined for a figure the issue sets no goal for (shown as "-", not counted). */
  met?: boolean;
  unit?: string;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

const num = (n: number) => (Math.abs(n) >= 100 ? Math.round(n).toLocaleString("en-US") : n.toFixed(n >= 10 ? 1 : 2));

export function formatTable(rows: BenchRow[]): string {
  const cells = [["metric", "product", "baseline", "ratio", "goal", "met"], ...rows.map((r) => [r.metric, num(r.product) + (r.unit ? ` ${r.unit}` : ""), num(r.baseline) + (r.unit ? ` ${r.unit}` : ""), r.ratio.toFixed(2), r.goal, r.met === undefined ? "-" : r.met ? "yes" : "NO"])];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => "| " + c.map((s, i) => (i === 0 || i === 4 ? s.padEnd(widths[i]!) : s.padStart(widths[i]!))).join(" | ") + " |";
  return [line(cells[0]!), "|" + widths.map((w, i) => (i === 0 || i === 4 ? "-" : "") + "-".repeat(w + 1) + (i === 0 || i === 4 ? "" : ":") ).join("|") + "|", ...cells.slice(1).map(line)].join("\n");
}

/** The marker line `bun run bench` looks for in a bench's output. */
export const ROWS_MARKER = "BENCH_ROWS ";

export function emitRows(rows: BenchRow[], json: boolean): void {
  process.stdout.write((json ? ROWS_MARKER + JSON.stringify(rows) : formatTable(rows)) + "\n");
}
