import type { Config } from "./config";
import type { Store } from "./db";
import type { LedgerGateway } from "./ledger/gateway";
import type { Outbox } from "./ledger/outbox";
import type { Logger } from "./log";
import type { NftService } from "./nfts/service";
import type { PaymentWatcher } from "./payments/watcher";
import type { AuthService } from "./auth/service";
import type { SandboxLedger } from "./sandbox/ledger/ledger";
import type { SandboxXumm } from "./sandbox/xumm/service";
import type { SigningService } from "./signing/service";
import type { Hub } from "./ws/hub";

/** Everything a feature module may depend on; built once in main.ts (or a test) and injected. */
export interface AppContext {
  config: Config;
  store: Store;
  log: Logger;
  hub: Hub;
  /** The XRP Ledger connection (sandbox or real network) and the platform wallet. */
  ledger: LedgerGateway;
  /** The platform's own outgoing transactions, exactly once per key. */
  outbox: Outbox;
  /** Payment requests and the watcher that credits or refunds incoming payments. */
  payments: PaymentWatcher;
  /** The NFT marketplace: tiers, purchases, mint -> offer -> accept. */
  nfts: NftService;
  /** Xaman sign requests for every feature (the one xumm-sdk wrapper). */
  signing: SigningService;
  /** Wallet sessions; the guard (auth/guard.ts) reads them. */
  auth: AuthService;
  /** The in-process Xaman stand-in (NETWORK=sandbox only). */
  sandboxXumm?: SandboxXumm;
  /** The in-process XRP Ledger stand-in (NETWORK=sandbox only); the gateway reaches it over its WebSocket. */
  sandboxLedger?: SandboxLedger;
  version: string;
}
