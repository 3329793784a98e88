/**
 * Runs async jobs one after another per key (jobs of different keys run side by side); a
 * failed job does not stop the ones queued after it. Keys without jobs keep nothing.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `job` after every earlier job of `key`; resolves or rejects with its result. */
  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(job);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** How many keys have jobs queued or running. */
  get size(): number {
    return this.tails.size;
  }
}
