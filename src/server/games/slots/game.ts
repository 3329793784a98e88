import { SlotPayouts } from "./payouts";
import { SlotPurchases } from "./purchases";
import { SlotsService, type SlotsDeps } from "./service";
import { slotsHistory } from "./history";

/** The slots feature as the composition root holds it: sessions and spins, packages, payouts. */
export class SlotsGame {
  readonly sessions: SlotsService;
  readonly purchases: SlotPurchases;
  readonly payouts: SlotPayouts;

  constructor(deps: SlotsDeps) {
    this.sessions = new SlotsService(deps);
    this.purchases = new SlotPurchases(deps, this.sessions.repo, this.sessions);
    this.payouts = new SlotPayouts(deps, this.sessions.repo, this.sessions);
  }

  get repo() {
    return this.sessions.repo;
  }

  /** Rows for the /history page (registered with the history where the app composes it). */
  history() {
    return slotsHistory(this.sessions.repo.db);
  }

  start(): void {
    this.purchases.start();
    this.payouts.start();
  }

  stop(): void {
    this.payouts.stop();
    this.purchases.stop();
  }
}
