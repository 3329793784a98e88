import { expect, test } from "bun:test";
import { isValidClassicAddress, Wallet } from "xrpl";
import { isClassicAddress, parseAddress } from "./address";

test("isClassicAddress answers as isValidClassicAddress, asked once or again", () => {
  const valid = Array.from({ length: 5 }, () => Wallet.generate().classicAddress);
  // Each valid address with one character changed: almost all fail the checksum or the alphabet.
  const changed = valid.flatMap((a) => [a.slice(0, 5) + (a[5] === "r" ? "p" : "r") + a.slice(6), a + "x", a.slice(1), a.toLowerCase(), ` ${a}`]);
  for (let round = 0; round < 2; round++) {
    for (const a of [...valid, ...changed, "", "r", "rrrrrrrrrrrrrrrrrrrrrhoLvTp", "X7AcgcsBL6XDcUb289X4mJ8djcdyKaB5hJDWMArnXr61cqZ"]) {
      expect(isClassicAddress(a)).toBe(isValidClassicAddress(a));
    }
  }
  expect(parseAddress(` ${valid[0]} `)).toBe(valid[0]!);
  expect(() => parseAddress(changed[0], "walletAddress")).toThrow("walletAddress");
});
