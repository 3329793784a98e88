import { rewardsTextAt, type RewardsText } from "./rewardsJson";
import type { HeldToken } from "./ledgerReads";

/** Most answers kept, and most characters of them (bounds, not tuning knobs): past either the map starts over, as the keyed read models do. */
const MAX_KEPT = 10_000;
const MAX_KEPT_CHARS = 8_000_000;

/** One query's last answer: what it was made from, the instants it holds for, and its text at the last instant asked. */
interface Kept extends RewardsText {
  held: HeldToken[];
  stamp: object;
  fromMs: number;
  nowMs: number;
  text: string;
}

/**
 * The last Rewards answer of each query (wallet, period, page, page size), reused while nothing it was made
 * from changed: the same holdings (the ledger reads' array, replaced after a close with transactions), the
 * same `stamp` (a read model of the rewards tables, a new object after any write to them) and an instant in
 * [made, untilMs), the span in which every amount, flag, date, ROI step and listed claim reads the same
 * (rewardsJson's untilMs). Only `now` moves within it: its text is made once per millisecond asked.
 */
export class RewardsAnswers {
  private kept = new Map<string, Kept>();
  /** Characters kept since the map started (an answer's text and its part after `now`; replaced ones included). */
  private chars = 0;

  /** The answer of `key` at `nowMs` when one kept holds for it, else undefined. */
  take(key: string, held: HeldToken[], stamp: object, nowMs: number): string | undefined {
    const kept = this.kept.get(key);
    if (!kept || kept.held !== held || kept.stamp !== stamp || nowMs < kept.fromMs || nowMs >= kept.untilMs) return undefined;
    if (kept.nowMs !== nowMs) {
      kept.nowMs = nowMs;
      kept.text = rewardsTextAt(kept, nowMs);
    }
    return kept.text;
  }

  /** Keeps `text`, made at `nowMs` from `held` and the tables at `stamp`; returns the answer at `nowMs`. */
  keep(key: string, held: HeldToken[], stamp: object, nowMs: number, text: RewardsText): string {
    if (this.kept.size >= MAX_KEPT || this.chars >= MAX_KEPT_CHARS) {
      this.kept = new Map();
      this.chars = 0;
    }
    const answer = rewardsTextAt(text, nowMs);
    this.chars += answer.length + text.after.length;
    this.kept.set(key, { ...text, held, stamp, fromMs: nowMs, nowMs, text: answer });
    return answer;
  }
}
