import { crashRtp, probabilityCrashAtLeast } from "./crash";
import { RACING_DEFAULT_PAYOUT_MULTIPLE, racingRtp } from "./racing";
import { SLOT_PACKAGES, slotRtp } from "./slots";
import { wheelExpectedPrizeSpins } from "./wheel";

/** Configuration the RTP table depends on. */
export interface RtpOptions {
  /** Racing payout multiple (default 5). */
  racingPayoutMultiple?: number;
}

/** One row of the RTP table the /fair page and `bun run verify rtp` show. */
export interface RtpRow {
  game: "crash" | "racing" | "slots" | "wheel";
  /** What the row is about, for people. */
  label: string;
  /** Return to player as a fraction (0.99 = 99%); null for the free daily wheel. */
  rtp: number | null;
  /** How it is computed, in a line. */
  detail: string;
}

/** The RTP of every game under the given configuration, computed exactly (no simulation). */
export function rtpTable(options: RtpOptions = {}): RtpRow[] {
  const multiple = options.racingPayoutMultiple ?? RACING_DEFAULT_PAYOUT_MULTIPLE;
  const rows: RtpRow[] = [
    {
      game: "crash",
      label: "Crash (cash out at 2.00x)",
      rtp: crashRtp(200),
      detail: `P(crash >= 2.00x) = ${probabilityCrashAtLeast(200).toFixed(6)}, P(crash = 1.00x) = ${(1 - probabilityCrashAtLeast(101)).toFixed(6)}; 99% at any target above 1.00x`,
    },
    {
      game: "racing",
      label: `Unicorn Racing (${multiple}x)`,
      rtp: racingRtp(multiple),
      detail: `5 equally likely unicorns, winner paid ${multiple}x: ${multiple} / 5`,
    },
  ];
  for (const pkg of SLOT_PACKAGES) {
    const result = slotRtp(pkg.spinCostVvx);
    rows.push({
      game: "slots",
      label: `Slots ${pkg.name} (${pkg.spinCostVvx.toLocaleString("en-US")} VVX per spin)`,
      rtp: result.rtpValue,
      detail: `exact over 10^3 reel combinations (weights / 261^3), Dice mystery averaged over 1..50, caps applied: ${result.rtp.numerator}/${result.rtp.denominator}; hit rate ${(result.hitRate * 100).toFixed(2)}%`,
    });
  }
  const wheel = wheelExpectedPrizeSpins();
  rows.push({
    game: "wheel",
    label: "Daily spin wheel (free)",
    rtp: null,
    detail: `expected prize ${wheel.numerator}/${wheel.denominator} = ${wheel.value.toFixed(4)} slot spins per spin; 9 of 12 segments win`,
  });
  return rows;
}
