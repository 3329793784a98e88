// Histograms of milliseconds keyed in tenths (the capacity bench's and its bare baseline's), kept in a module of their
// own: the bare server's process loads nothing else of the bench.

/** Counts `ms` in `h`, keyed in tenths of a millisecond. */
export function addMs(h: Record<string, number>, ms: number): void {
  const key = Math.round(ms * 10);
  h[key] = (h[key] ?? 0) + 1;
}

/**
 * Counts in `h` the time from now, just after a publish, to the first timer after it. Bun writes a publish to the
 * sockets once the turn that made it has ended (its other work, then the writes to every socket, then timers), so
 * this is what the rest of the turn adds to the message, the writes included.
 */
export function publishToNextTimer(h: Record<string, number>): void {
  const t0 = performance.now();
  setTimeout(() => addMs(h, performance.now() - t0), 0);
}
