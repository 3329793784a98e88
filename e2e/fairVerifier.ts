import { createHash, createHmac } from "node:crypto";

// A verifier written from /fair's text alone (its "The algorithms, in full" and the constants JSON under
// it), as an outsider would write one: node's own SHA-256 and HMAC, nothing of the product's code.

/** The constants /fair publishes as JSON (only what this verifier reads). */
export interface FairParameters {
  crash: { houseEdgePercent: number; hmacBits: number };
  racing: { unicorns: string[]; winnerFinishMinTick: number; winnerFinishSpread: number; finishGapMin: number; finishGapSpread: number };
  slots: { totalWeight: number; symbols: { name: string; weight: number; multiple: number; partialHundredths: number; capVvx: number | null }[]; diceMystery: { min: number; max: number }; maxWinVvx: number };
  wheel: { segments: { prizeLabel: string; prizeAmount: number }[] };
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest();

/** "Bytes to a number": 4 bytes each, 8 per digest of round 0, 1, ... of HMAC(server seed text, "clientSeed:nonce:round"). */
export function numbers(serverSeed: string, clientSeed: string, nonce: number, count: number): number[] {
  const out: number[] = [];
  for (let round = 0; out.length < count; round++) {
    const d = createHmac("sha256", Buffer.from(serverSeed, "utf8")).update(`${clientSeed}:${nonce}:${round}`, "utf8").digest();
    for (let i = 0; i < 32 && out.length < count; i += 4) out.push(d[i]! / 256 + d[i + 1]! / 256 ** 2 + d[i + 2]! / 256 ** 3 + d[i + 3]! / 256 ** 4);
  }
  return out;
}

/** SHA-256 of the server seed's text, lowercase hex: the hash shown before play. */
export const commitment = (serverSeed: string) => sha256(Buffer.from(serverSeed, "utf8")).toString("hex");

/** Crash: h = HMAC(salt as text, game hash as bytes); r = first 13 hex digits; max(100, floor(99 / (1 - r / 2^52))) hundredths. */
export function crashPoint(p: FairParameters, gameHash: string, salt: string): number {
  const h = createHmac("sha256", Buffer.from(salt, "utf8")).update(Buffer.from(gameHash, "hex")).digest("hex");
  const x = parseInt(h.slice(0, p.crash.hmacBits / 4), 16) / 2 ** p.crash.hmacBits;
  return Math.max(100, Math.floor((100 - p.crash.houseEdgePercent) / (1 - x)));
}

/** A game hash hashed `times` times (as bytes): game n hashed n times is the terminating hash. */
export function hashTimes(gameHash: string, times: number): string {
  let h = Buffer.from(gameHash, "hex");
  for (let i = 0; i < times; i++) h = sha256(h);
  return h.toString("hex");
}

/** Racing: the winner from number 0, the other places from numbers 1-3, the finish ticks from numbers 4-8. */
export function race(p: FairParameters, serverSeed: string, clientSeed: string, nonce: number): { winner: number; order: number[]; finishTicks: number[] } {
  const f = numbers(serverSeed, clientSeed, nonce, 9);
  const r = p.racing;
  const winner = Math.floor(f[0]! * r.unicorns.length);
  const left = r.unicorns.map((_, i) => i).filter((i) => i !== winner);
  const order = [winner];
  for (let i = 1; left.length > 1; i++) order.push(left.splice(Math.floor(f[i]! * left.length), 1)[0]!);
  order.push(left[0]!);
  const finishTicks: number[] = [];
  let tick = r.winnerFinishMinTick + Math.floor(f[4]! * r.winnerFinishSpread);
  finishTicks[winner] = tick;
  for (let place = 1; place < order.length; place++) {
    tick += r.finishGapMin + Math.floor(f[4 + place]! * r.finishGapSpread);
    finishTicks[order[place]!] = tick;
  }
  return { winner, order, finishTicks };
}

/** Slots: reels from numbers 0-2 by the weights, the Dice mystery from number 3, the pay rule in micro-VVX. */
export function slotsSpin(p: FairParameters, serverSeed: string, clientSeed: string, nonce: number, costVvx: number): { reels: string[]; mystery: number; payoutMicro: bigint } {
  const f = numbers(serverSeed, clientSeed, nonce, 4);
  const { symbols, totalWeight, diceMystery, maxWinVvx } = p.slots;
  const reel = (x: number) => {
    let ticket = Math.floor(x * totalWeight);
    return symbols.findIndex((s) => (ticket -= s.weight) < 0);
  };
  const [a, b, c] = [reel(f[0]!), reel(f[1]!), reel(f[2]!)];
  const mystery = diceMystery.min + Math.floor(f[3]! * (diceMystery.max - diceMystery.min + 1));
  const three = a === b && b === c;
  const dice = symbols.findIndex((s) => s.name === "Dice");
  const hundredths = three ? (a === dice ? mystery * 100 : symbols[a]!.multiple * 100) : symbols[a]!.partialHundredths + symbols[b]!.partialHundredths + symbols[c]!.partialHundredths;
  let payout = (BigInt(costVvx) * 1_000_000n * BigInt(hundredths)) / 100n;
  const cap = three && a !== dice ? symbols[a]!.capVvx : null;
  if (cap !== null && payout > BigInt(cap) * 1_000_000n) payout = BigInt(cap) * 1_000_000n;
  if (payout > BigInt(maxWinVvx) * 1_000_000n) payout = BigInt(maxWinVvx) * 1_000_000n;
  return { reels: [a, b, c].map((i) => symbols[i]!.name), mystery, payoutMicro: payout };
}

/** The wheel: number 0 gives one of the segments, equally likely. */
export function wheelSegment(p: FairParameters, serverSeed: string, clientSeed: string, nonce: number): number {
  return Math.floor(numbers(serverSeed, clientSeed, nonce, 1)[0]! * p.wheel.segments.length);
}
