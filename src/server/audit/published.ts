/** The server's published data could not be read (unreachable, an error answer, not its JSON). */
export class PublishedError extends Error {}

/** A server's public API, read as any outsider reads it: plain GETs, no cookie. */
export class Published {
  readonly base: string;

  constructor(url: string) {
    this.base = url.replace(/\/+$/, "");
  }

  async json<T>(path: string): Promise<T> {
    let res: Response;
    try {
      res = await fetch(this.base + path, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      throw new PublishedError(`GET ${this.base}${path}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text();
    if (!res.ok) throw new PublishedError(`GET ${this.base}${path} answered ${res.status}: ${text.slice(0, 200)}`);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new PublishedError(`GET ${this.base}${path} did not answer JSON`);
    }
  }

  /**
   * Every item of a newest-first list, page by page (`before` the last item's id), up to `limit`
   * items (all when undefined).
   */
  async all<T>(page: (before: number | undefined) => string, key: string, idOf: (item: T) => number, limit?: number): Promise<T[]> {
    const items: T[] = [];
    let before: number | undefined;
    for (;;) {
      const got = (await this.json<Record<string, T[]>>(page(before)))[key] ?? [];
      for (const item of got) {
        if (limit !== undefined && items.length >= limit) return items;
        items.push(item);
      }
      if (got.length === 0) return items;
      const next = idOf(got[got.length - 1]!);
      if (before !== undefined && next >= before) throw new PublishedError(`${key}: the list does not go back (id ${next} after ${before})`);
      before = next;
    }
  }
}
