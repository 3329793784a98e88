/**
 * On PostgreSQL, what SQLite's triggers do for the read models (readModels.ts): a counter per table, kept in
 * memory, raised after each commit that wrote the table, by this instance (the store sees which tables a
 * transaction's builders wrote) or by another (its "tables changed" notice through the broker, `apply`).
 * A read model built from tables whose counters moved is built again. An instance cut off from the broker
 * misses the others' notices meanwhile: its caches may then lag until the next local write to the table.
 */
export class TableVersions {
  private readonly versions = new Map<string, number>();
  private readonly listeners: ((tables: readonly string[]) => void)[] = [];

  /** The sum of the counters of `tables` (changes exactly when one of them does: each only grows). */
  sum(tables: readonly string[]): number {
    let sum = 0;
    for (const table of tables) sum += this.versions.get(table) ?? 0;
    return sum;
  }

  /** This instance committed writes to `tables`: raised, and told to the listeners (the broker's relay). */
  committed(tables: Iterable<string>): void {
    const changed = this.raise(tables);
    if (changed.length) for (const listener of this.listeners) listener(changed);
  }

  /** Another instance committed writes to `tables`. */
  apply(tables: Iterable<string>): void {
    this.raise(tables);
  }

  /** Calls `listener` after each local commit with the tables it wrote. */
  onCommitted(listener: (tables: readonly string[]) => void): void {
    this.listeners.push(listener);
  }

  private raise(tables: Iterable<string>): string[] {
    const raised: string[] = [];
    for (const table of tables) {
      this.versions.set(table, (this.versions.get(table) ?? 0) + 1);
      raised.push(table);
    }
    return raised;
  }
}
