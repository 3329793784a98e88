import { EventEmitter } from "node:events";

/** A node EventEmitter whose event names and payloads are checked by a map type. A throwing listener is logged, never fatal. */
export class TypedEmitter<Events extends { [K in keyof Events]: unknown }> {
  private readonly inner = new EventEmitter();

  constructor(private readonly onListenerError?: (event: string, err: unknown) => void) {
    this.inner.setMaxListeners(100);
  }

  on<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => void): () => void {
    const wrapped = (payload: Events[K]) => {
      try {
        listener(payload);
      } catch (err) {
        this.onListenerError?.(event, err);
      }
    };
    this.inner.on(event, wrapped);
    return () => this.inner.off(event, wrapped);
  }

  once<K extends keyof Events & string>(event: K, listener: (payload: Events[K]) => void): () => void {
    const off = this.on(event, (payload) => {
      off();
      listener(payload);
    });
    return off;
  }

  emit<K extends keyof Events & string>(event: K, payload: Events[K]): void {
    this.inner.emit(event, payload);
  }
}
