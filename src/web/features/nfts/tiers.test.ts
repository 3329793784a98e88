import { describe, expect, test } from "bun:test";
import { DEFAULT_TIERS, normalizeTier, parseTiers, priceDigits, priceVvx, priceWithoutSuffix, roiLabel, simulatedPaymentAmount, tierFromTaxon, totalReturnPercent, withAvailability } from "./tiers";

describe("tier data", () => {
  test("the built-in tiers are the spec's Genesis and Oasis", () => {
    const [genesis, oasis] = DEFAULT_TIERS;
    expect(genesis).toMatchObject({ id: 1, name: "Genesis", price: "500,000 VVX", roiPercentage: "10%", durationMonths: 12, maxSupply: 20, isPopular: true });
    expect(oasis).toMatchObject({ id: 2, name: "Oasis", price: "250,000 VVX", roiPercentage: "5%", durationMonths: 24, maxSupply: 40, isPopular: false });
    expect(totalReturnPercent(genesis!)).toBe(120);
    expect(totalReturnPercent(oasis!)).toBe(120);
  });

  test("prices: the suffix is removed before sending, the on-chain check keeps only digits", () => {
    expect(priceWithoutSuffix("500,000 VVX")).toBe("500,000");
    expect(priceDigits("500,000")).toBe("500000");
    expect(priceVvx("250,000 VVX")).toBe(250000);
    expect(roiLabel("10%")).toBe("10% monthly");
    expect(roiLabel("5")).toBe("5% monthly");
  });

  test("server tiers are accepted as an array or wrapped, with numeric prices formatted", () => {
    const tiers = parseTiers({ tiers: [{ id: 2, name: "Oasis", tier: "OASIS", price: 250000, roiPercentage: 5, durationMonths: 24, currentSupply: 7, maxSupply: 40 }] });
    expect(tiers[0]).toMatchObject({ price: "250,000 VVX", roiPercentage: "5%", currentSupply: 7, isPopular: false, payoutFrequency: "Monthly" });
    expect(normalizeTier({ id: 1, name: "Genesis", tier: "GENESIS", price: "500,000 VVX" }).isPopular).toBe(true);
    expect(() => parseTiers([])).toThrow("Failed to fetch NFT tiers");
  });

  test("availability overrides the tier's supply figures", () => {
    const live = withAvailability(DEFAULT_TIERS, { genesis: { currentSupply: 0, maxSupply: 20 }, oasis: { currentSupply: 39, maxSupply: 40 } });
    expect(live.map((t) => t.currentSupply)).toEqual([0, 39]);
  });

  test("taxon rule and simulated amounts", () => {
    expect(tierFromTaxon(1001)).toEqual({ tier: "Genesis", number: 1 });
    expect(tierFromTaxon(20040)).toEqual({ tier: "Oasis", number: 40 });
    expect(tierFromTaxon(5)).toEqual({ tier: "Unknown", number: null });
    expect(simulatedPaymentAmount(1)).toBe(500000);
    expect(simulatedPaymentAmount(2)).toBe(250000);
  });
});
