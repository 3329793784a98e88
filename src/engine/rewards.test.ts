import { describe, expect, test } from "bun:test";
import { parseNFTokenID } from "xrpl";
import {
  ClaimUnavailableError,
  DEFAULT_NFT_TIERS,
  DEFAULT_TOTAL_NFTS,
  accruedTotalMicro,
  claimPayout,
  nextClaimableAtMs,
  claimRewards,
  dailyRewardMicro,
  daysInMonth,
  daysToFullClaim,
  defaultTierById,
  formatMicroVvx,
  groupThousands,
  isLastDayOfMonthUtc,
  monthEndMs,
  monthKey,
  monthName,
  monthStartMs,
  monthlyDistributionMicro,
  nextUtcMonth,
  parseMonthKey,
  utcDayOfDate,
  utcMonthOf,
  nftDisplayName,
  nftNameOfTokenId,
  rewardCapMicro,
  rewardStatus,
  rewardsProgressPercent,
  roiProgressPercent,
  taxonFor,
  taxonOfTokenId,
  tierFromTaxon,
  totalRoiBps,
  utcDateFromMs,
  vvxToMicro,
  type RewardPosition,
} from "./index";

const DAY = 86_400_000;
const GENESIS = defaultTierById(1);
const OASIS = defaultTierById(2);

describe("tiers and taxons", () => {
  test("the spec's default tiers", () => {
    expect(DEFAULT_NFT_TIERS.map((t) => [t.id, t.name, t.priceVvx, t.monthlyRoiBps / 100, t.durationMonths, t.maxSupply, t.fullClaimTargetVvx, t.taxonBase, t.isPopular])).toEqual([
      [1, "Genesis", 500_000, 10, 12, 20, 50_000, 1000, true],
      [2, "Oasis", 250_000, 5, 24, 40, 12_500, 20000, false],
    ]);
    expect(DEFAULT_TOTAL_NFTS).toBe(60);
    expect(totalRoiBps(GENESIS)).toBe(12_000);
    expect(totalRoiBps(OASIS)).toBe(12_000);
    expect(() => defaultTierById(3)).toThrow("tierId");
  });

  test("the taxon rule and the display names", () => {
    expect(tierFromTaxon(999)).toEqual({ tier: "UNKNOWN", number: null });
    expect(tierFromTaxon(1000)).toEqual({ tier: "GENESIS", number: 0 });
    expect(tierFromTaxon(1007)).toEqual({ tier: "GENESIS", number: 7 });
    expect(tierFromTaxon(19_999)).toEqual({ tier: "GENESIS", number: 18_999 });
    expect(tierFromTaxon(20_000)).toEqual({ tier: "OASIS", number: 0 });
    expect(tierFromTaxon(20_040)).toEqual({ tier: "OASIS", number: 40 });
    expect(nftDisplayName(taxonFor("GENESIS", 20))).toBe("Genesis NFT #20");
    expect(nftDisplayName(taxonFor("OASIS", 40))).toBe("Oasis NFT #40");
    expect(nftDisplayName(0)).toBe("Unknown NFT");
    expect(taxonFor("GENESIS", 1)).toBe(1001);
    expect(() => taxonFor("GENESIS", 0)).toThrow("number");
  });

  test("the taxon an NFTokenID carries (unscrambled as rippled scrambles it), and the name it gives", () => {
    // xrpl.js's own example: taxon 1337, sequence 12.
    expect(taxonOfTokenId("000B0539C35B55AA096BA6D87A6E6C965A6534150DC56E5E12C5D09E0000000C")).toBe(1337);
    // Against xrpl.js's parser over ids of many sequences and scrambled taxons.
    for (let i = 0; i < 200; i++) {
      const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, "0").toUpperCase();
      const id = `00080000${"AB".repeat(20)}${hex8(Math.imul(i, 2_654_435_761))}${hex8(i * 7919)}`;
      expect(taxonOfTokenId(id)).toBe(parseNFTokenID(id).Taxon);
    }
    const genesis3 = `00080000${"CD".repeat(20)}${((1003 ^ ((Math.imul(384160001, 5) + 2459) >>> 0)) >>> 0).toString(16).padStart(8, "0")}00000005`;
    expect(nftNameOfTokenId(genesis3)).toBe("Genesis NFT #3");
    expect(taxonOfTokenId("00080000")).toBeNull();
    expect(nftNameOfTokenId("not an id")).toBe("Unknown NFT");
  });

  test("pinned token ids override the taxon rule", () => {
    const pinned = new Map([["000800AB", "Genesis NFT #20"], ["000800CD", "Oasis NFT #40"]]);
    expect(nftDisplayName(0, "000800ab", pinned)).toBe("Genesis NFT #20");
    expect(nftDisplayName(5, "000800CD", pinned)).toBe("Oasis NFT #40");
    expect(nftDisplayName(1003, "000800EE", pinned)).toBe("Genesis NFT #3");
  });
});

describe("calendar", () => {
  test("UTC dates by integer arithmetic agree with the platform's dates", () => {
    for (let day = -800_000; day < 800_000; day += 997) {
      const ms = day * DAY + 12_345_678;
      const d = new Date(ms);
      expect(utcDateFromMs(ms)).toEqual({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
    }
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2100, 2)).toBe(28);
    expect(daysInMonth(2000, 2)).toBe(29);
    expect(isLastDayOfMonthUtc(Date.UTC(2026, 1, 28, 23, 59))).toBe(true);
    expect(isLastDayOfMonthUtc(Date.UTC(2028, 1, 28, 12))).toBe(false);
    expect(isLastDayOfMonthUtc(Date.UTC(2026, 11, 31))).toBe(true);
  });

  test("months: start and end instants, keys, names, the next month across a year", () => {
    // From year 327 (Date.UTC reads years 0-99 as 1900-1999).
    for (let day = -600_000; day < 800_000; day += 997) {
      const d = new Date(day * DAY);
      expect(utcDayOfDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate())).toBe(day);
      const m = utcMonthOf(day * DAY + 5);
      expect(monthStartMs(m)).toBe(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
      expect(monthEndMs(m)).toBe(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
    }
    const december = utcMonthOf(Date.UTC(2026, 11, 31, 23, 59, 59, 999));
    expect([monthKey(december), monthName(december)]).toEqual(["2026-12", "December 2026"]);
    expect(monthEndMs(december)).toBe(Date.UTC(2027, 0, 1));
    expect(nextUtcMonth(december)).toEqual({ year: 2027, month: 1 });
    expect(utcMonthOf(Date.UTC(2027, 0, 1))).toEqual({ year: 2027, month: 1 });
    expect(parseMonthKey("2027-01")).toEqual({ year: 2027, month: 1 });
    expect([parseMonthKey("2027-13"), parseMonthKey("2027-1"), parseMonthKey("x")]).toEqual([null, null, null]);
  });
});

describe("VVX text", () => {
  /** The plain bigint formatting, digit by digit. */
  const reference = (micro: bigint) => {
    const abs = micro < 0n ? -micro : micro;
    const fraction = (abs % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
    return `${micro < 0n ? "-" : ""}${abs / 1_000_000n}${fraction ? "." + fraction : ""}`;
  };

  test("number arithmetic below 2^53 writes what bigint arithmetic writes, at the edges and at random", () => {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    const edges = [0n, 1n, 10n, 100_000n, 999_999n, 1_000_000n, 1_000_001n, 1_666_666_666n, 8_999_999_999_999_999n, max - 1n, max, max + 1n, 10n ** 30n + 7n];
    const random = Array.from({ length: 20_000 }, (_, i) => BigInt(Math.floor(Math.random() * 10 ** (1 + (i % 16)))));
    for (const micro of [...edges, ...random]) {
      expect([micro, formatMicroVvx(micro)]).toEqual([micro, reference(micro)]);
      expect([-micro, formatMicroVvx(-micro)]).toEqual([-micro, reference(-micro)]);
    }
    expect([formatMicroVvx(1_120_000_000n), formatMicroVvx(-500n), formatMicroVvx(123_450_000n)]).toEqual(["1120", "-0.0005", "123.45"]);
  });

  test("thousands separators are toLocaleString(\"en-US\")'s, whole part only", () => {
    const random = Array.from({ length: 5_000 }, (_, i) => BigInt(Math.floor(Math.random() * 10 ** (1 + (i % 16)))));
    for (const n of [0n, 1n, 999n, 1_000n, 999_999n, 1_000_000n, 10n ** 30n + 7n, ...random]) {
      for (const v of [n, -n]) expect(groupThousands(v.toString())).toBe(v.toLocaleString("en-US"));
      expect(groupThousands(`${n}.123456`)).toBe(`${n.toLocaleString("en-US")}.123456`);
    }
  });
});

describe("monthly distribution", () => {
  const bought = Date.UTC(2026, 11, 1, 15);
  const end = Date.UTC(2027, 0, 1);
  const position = (settledMicro: bigint): RewardPosition => ({ terms: GENESIS, purchasedAtMs: bought, lastClaimAtMs: null, settledMicro });

  test("pays what accrued in whole days by the month's end and no claim settled, in full", () => {
    // 1 Dec 15:00 to 1 Jan 00:00: 30 whole days.
    expect(monthlyDistributionMicro(position(0n), end)).toBe(vvxToMicro(50_000));
    // An early claim on day 10 settled 16,666.666666 (half paid, half forfeited): only the rest is paid.
    const early = claimRewards(position(0n), "early", bought + 10 * DAY);
    expect(monthlyDistributionMicro(early.position, end)).toBe(vvxToMicro(50_000) - early.position.settledMicro);
    expect(early.payoutMicro + early.forfeitedMicro + monthlyDistributionMicro(early.position, end)).toBe(vvxToMicro(50_000));
    // Claimed past the month's end (a day more than the month's end had): nothing left for it.
    expect(monthlyDistributionMicro(position(accruedTotalMicro(GENESIS, bought, end + DAY)), end)).toBe(0n);
    // Bought after the month's end, or less than a day before it: nothing accrued.
    expect(monthlyDistributionMicro({ ...position(0n), purchasedAtMs: end - DAY + 1 }, end)).toBe(0n);
    expect(monthlyDistributionMicro({ ...position(0n), purchasedAtMs: end + 1 }, end)).toBe(0n);
    // Never past the cap.
    expect(monthlyDistributionMicro(position(0n), end + 400 * DAY)).toBe(rewardCapMicro(GENESIS));
  });
});

describe("accrual", () => {
  const bought = Date.UTC(2026, 0, 1);

  test("daily = price x monthly ROI / 30, accrued per whole day, capped at price x ROI x months", () => {
    expect(formatMicroVvx(dailyRewardMicro(GENESIS))).toBe("1666.666666");
    expect(formatMicroVvx(dailyRewardMicro(OASIS))).toBe("416.666666");
    expect(accruedTotalMicro(GENESIS, bought, bought + DAY - 1)).toBe(0n);
    expect(accruedTotalMicro(GENESIS, bought, bought + DAY)).toBe(1_666_666_666n);
    expect(accruedTotalMicro(GENESIS, bought, bought + 30 * DAY)).toBe(vvxToMicro(50_000));
    expect(accruedTotalMicro(GENESIS, bought, bought + 360 * DAY)).toBe(vvxToMicro(600_000));
    expect(accruedTotalMicro(GENESIS, bought, bought + 5000 * DAY)).toBe(vvxToMicro(600_000));
    expect(rewardCapMicro(GENESIS)).toBe(vvxToMicro(600_000));
    expect(rewardCapMicro(OASIS)).toBe(vvxToMicro(300_000));
    expect(accruedTotalMicro(OASIS, bought, bought + 720 * DAY)).toBe(vvxToMicro(300_000));
    expect(accruedTotalMicro(GENESIS, bought, bought - DAY)).toBe(0n);
  });

  test("days to full claim = target / daily rounded up", () => {
    expect(daysToFullClaim(GENESIS)).toBe(30);
    expect(daysToFullClaim(OASIS)).toBe(30);
    expect(daysToFullClaim({ ...GENESIS, fullClaimTargetVvx: 50_001 })).toBe(31);
  });
});

describe("accrual boundaries (golden values, micro-VVX)", () => {
  const bought = Date.UTC(2026, 2, 3, 17, 45, 12, 345); // any time of day: whole days count from the purchase itself
  const at = (days: number, extraMs = 0) => bought + days * DAY + extraMs;

  test("Genesis: day 0, 1, 29, 30 and around the cap (day 359, 360, 361)", () => {
    const golden: [number, bigint][] = [
      [0, 0n],
      [1, 1_666_666_666n],
      [29, 48_333_333_333n],
      [30, 50_000_000_000n],
      [359, 598_333_333_333n],
      [360, 600_000_000_000n],
      [361, 600_000_000_000n],
    ];
    for (const [days, micro] of golden) expect([days, accruedTotalMicro(GENESIS, bought, at(days))]).toEqual([days, micro]);
    // Whole days of 24 h: one millisecond short of a day adds nothing.
    expect(accruedTotalMicro(GENESIS, bought, at(30, -1))).toBe(48_333_333_333n);
    expect(accruedTotalMicro(GENESIS, bought, at(1, -1))).toBe(0n);
  });

  test("Oasis: day 1 and 30, and its cap of price x ROI x months = 300,000 VVX at day 720", () => {
    expect(accruedTotalMicro(OASIS, bought, at(1))).toBe(416_666_666n);
    expect(accruedTotalMicro(OASIS, bought, at(29))).toBe(12_083_333_333n);
    expect(accruedTotalMicro(OASIS, bought, at(30))).toBe(12_500_000_000n);
    expect(accruedTotalMicro(OASIS, bought, at(719))).toBe(299_583_333_333n);
    expect(accruedTotalMicro(OASIS, bought, at(720))).toBe(300_000_000_000n);
    expect(accruedTotalMicro(OASIS, bought, at(2000))).toBe(300_000_000_000n);
  });

  test("floored once over the total, never per day (30 days are exactly 50,000, not 30 x 1,666.666666)", () => {
    expect(dailyRewardMicro(GENESIS) * 30n).toBe(49_999_999_980n);
    expect(accruedTotalMicro(GENESIS, bought, at(30))).toBe(50_000_000_000n);
    expect(accruedTotalMicro(GENESIS, bought, at(3))).toBe(5_000_000_000n);
  });
});

describe("last UTC day of the month", () => {
  test("Feb 28 in common years, Feb 29 in leap years, 30 and 31 otherwise", () => {
    const cases: [number, boolean][] = [
      [Date.UTC(2026, 1, 28, 0, 0), true],
      [Date.UTC(2027, 1, 28, 23, 59, 59, 999), true],
      [Date.UTC(2028, 1, 28, 12), false],
      [Date.UTC(2028, 1, 29, 0, 0), true],
      [Date.UTC(2100, 1, 28, 6), true],
      [Date.UTC(2000, 1, 29, 6), true],
      [Date.UTC(2026, 3, 30, 6), true],
      [Date.UTC(2026, 3, 29, 23, 59, 59, 999), false],
      [Date.UTC(2026, 4, 31, 6), true],
      [Date.UTC(2026, 4, 30, 6), false],
      [Date.UTC(2026, 5, 1, 0, 0), false],
    ];
    for (const [ms, last] of cases) expect([new Date(ms).toISOString(), isLastDayOfMonthUtc(ms)]).toEqual([new Date(ms).toISOString(), last]);
  });

  test("a full claim below the target opens on Feb 29 of a leap year, not on Feb 28", () => {
    const position: RewardPosition = { terms: GENESIS, purchasedAtMs: Date.UTC(2028, 1, 10, 8), lastClaimAtMs: null, settledMicro: 0n };
    expect(rewardStatus(position, Date.UTC(2028, 1, 28, 20)).canClaimFull).toBe(false);
    const leapDay = rewardStatus(position, Date.UTC(2028, 1, 29, 0, 0, 1)); // 18 whole days since 10 Feb 08:00
    expect([leapDay.canClaimFull, leapDay.accruedSinceLastClaimMicro]).toEqual([true, 30_000_000_000n]);
    expect(rewardStatus(position, Date.UTC(2028, 2, 1, 0, 0)).canClaimFull).toBe(false);
    const common: RewardPosition = { ...position, purchasedAtMs: Date.UTC(2027, 1, 10, 8) };
    expect(rewardStatus(common, Date.UTC(2027, 1, 28, 20)).canClaimFull).toBe(true);
  });
});

describe("claims", () => {
  const bought = Date.UTC(2026, 0, 15, 10);
  const fresh: RewardPosition = { terms: GENESIS, purchasedAtMs: bought, lastClaimAtMs: null, settledMicro: 0n };

  test("an early claim pays 50% and forfeits the rest; the next claim waits 24 h", () => {
    expect(claimPayout("early", 1_001n)).toEqual({ payoutMicro: 500n, forfeitedMicro: 501n });
    const at = bought + 10 * DAY;
    const first = claimRewards(fresh, "early", at);
    expect(first.payoutMicro).toBe(8_333_333_333n);
    expect(first.forfeitedMicro).toBe(8_333_333_333n);
    expect(first.position.settledMicro).toBe(16_666_666_666n);
    expect(() => claimRewards(first.position, "early", at + DAY - 1)).toThrow(ClaimUnavailableError);
    const status = rewardStatus(first.position, at + DAY - 1);
    expect([status.canClaimEarly, status.canClaimFull, status.nextClaimAtMs]).toEqual([false, false, at + DAY]);
    expect(claimRewards(first.position, "early", at + DAY).payoutMicro).toBe(833_333_333n);
  });

  test("a full claim opens at the target or on the last day of the month, and pays 100%", () => {
    const day10 = bought + 10 * DAY; // 25 January
    expect(rewardStatus(fresh, day10).canClaimFull).toBe(false);
    try {
      claimRewards(fresh, "full", day10);
      throw new Error("claim should be refused");
    } catch (error) {
      expect((error as ClaimUnavailableError).reason).toBe("FULL_CLAIM_NOT_AVAILABLE");
    }
    const lastDay = Date.UTC(2026, 0, 31, 12); // day 16: below target, but the last day of January
    expect(rewardStatus(fresh, lastDay).canClaimFull).toBe(true);
    expect(claimRewards(fresh, "full", lastDay).payoutMicro).toBe(26_666_666_666n);
    const day30 = bought + 30 * DAY; // 14 February: target reached
    const status = rewardStatus(fresh, day30);
    expect([status.canClaimFull, status.accruedSinceLastClaimMicro]).toEqual([true, vvxToMicro(50_000)]);
    expect(claimRewards(fresh, "full", day30)).toMatchObject({ payoutMicro: vvxToMicro(50_000), forfeitedMicro: 0n });
  });

  test("a claim 23 h 59 min after the last is refused; at 24 h it goes through", () => {
    const first = claimRewards(fresh, "early", bought + 12 * DAY);
    const soon = bought + 12 * DAY + 23 * 3_600_000 + 59 * 60_000;
    try {
      claimRewards(first.position, "early", soon);
      throw new Error("claim should be refused");
    } catch (error) {
      expect((error as ClaimUnavailableError).reason).toBe("TOO_SOON");
    }
    expect(rewardStatus(first.position, soon).canClaimEarly).toBe(false);
    expect(claimRewards(first.position, "early", bought + 13 * DAY).payoutMicro).toBe(833_333_333n);
  });

  test("the next claimable time: the first accrued day, then 24 h after a claim, never once the cap is settled", () => {
    expect(nextClaimableAtMs(fresh)).toBe(bought + DAY);
    expect(rewardStatus(fresh, bought).nextClaimableAtMs).toBe(bought + DAY);
    const claimedAt = bought + 10 * DAY + 5 * 3_600_000;
    const after = claimRewards(fresh, "early", claimedAt).position;
    expect(nextClaimableAtMs(after)).toBe(claimedAt + DAY);
    // Claimed exactly on a day boundary: the 24 h wait and the next accrued day end together.
    const onBoundary = claimRewards(fresh, "early", bought + 10 * DAY).position;
    expect(nextClaimableAtMs(onBoundary)).toBe(bought + 11 * DAY);
    // Claimed right after day 30 but with days of accrual skipped: the next accrued day decides.
    const late = claimRewards(fresh, "full", bought + 30 * DAY).position;
    expect(nextClaimableAtMs(late)).toBe(bought + 31 * DAY);
    expect(nextClaimableAtMs({ ...fresh, settledMicro: rewardCapMicro(GENESIS) })).toBeNull();
  });

  test("nothing accrued means no claim; the status gives the estimate of the full claim", () => {
    try {
      claimRewards(fresh, "early", bought + 1000);
      throw new Error("claim should be refused");
    } catch (error) {
      expect((error as ClaimUnavailableError).reason).toBe("NOTHING_ACCRUED");
    }
    const status = rewardStatus(fresh, bought + 3 * DAY);
    expect(status.estimatedFullClaimAtMs).toBe(bought + 30 * DAY);
    expect(status.daysToFullClaim).toBe(30);
    expect(status.fullClaimTargetMicro).toBe(vvxToMicro(50_000));
    const nearlyDone = { ...fresh, settledMicro: vvxToMicro(560_000) };
    expect(rewardStatus(nearlyDone, bought).estimatedFullClaimAtMs).toBeNull();
  });

  test("the whole term pays exactly the cap through full claims", () => {
    let position = fresh;
    let paid = 0n;
    for (let day = 30; day <= 360; day += 30) {
      const claim = claimRewards(position, "full", bought + day * DAY);
      paid += claim.payoutMicro;
      position = claim.position;
    }
    expect(paid).toBe(vvxToMicro(600_000));
  });
});

describe("progress", () => {
  const minted = Date.UTC(2026, 0, 1);

  test("ROI progress from mint time and duration, clamped to 0..100", () => {
    expect(roiProgressPercent(minted, 12, minted - DAY)).toBe(0);
    expect(roiProgressPercent(minted, 12, minted + 180 * DAY)).toBe(50);
    expect(roiProgressPercent(minted, 12, minted + 720 * DAY)).toBe(100);
    expect(roiProgressPercent(minted, 24, minted + 180 * DAY)).toBe(25);
  });

  test("rewards progress = total earned / (price + price x ROI x months)", () => {
    expect(rewardsProgressPercent(vvxToMicro(600_000), GENESIS)).toBe(54.54);
    expect(rewardsProgressPercent(vvxToMicro(110_000), GENESIS)).toBe(10);
    expect(rewardsProgressPercent(0n, OASIS)).toBe(0);
  });
});
