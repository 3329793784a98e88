import type { Config } from "./config";
import type { Store } from "./db";
import type { Logger } from "./log";
import type { Hub } from "./ws/hub";

/** Everything a feature module may depend on; built once in main.ts (or a test) and injected. */
export interface AppContext {
  config: Config;
  store: Store;
  log: Logger;
  hub: Hub;
  version: string;
}
