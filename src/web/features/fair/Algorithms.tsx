import {
  CRASH_GROWTH_PER_MS,
  CRASH_HMAC_BITS,
  CRASH_HOUSE_EDGE_PERCENT,
  DICE_MYSTERY_MAX,
  DICE_MYSTERY_MIN,
  RACE_CONFIG,
  RACE_FLOATS,
  SLOT_MAX_WIN_VVX,
  SLOT_PACKAGES,
  SLOT_SYMBOLS,
  SLOT_TOTAL_WEIGHT,
  UNICORNS,
  WHEEL_SEGMENTS,
} from "../../../engine";
import { COMMIT_MEMO_TYPE, SALT_LEDGER_OFFSET } from "../../../shared/fair";

/**
 * Every constant a verifier needs, as JSON under the text (the text says how each is used). Written
 * out from the engine's own tables, so what is published is what the server plays.
 */
export const FAIR_PARAMETERS = {
  floats: { hmac: "HMAC-SHA256", key: "server seed, UTF-8 text", message: "clientSeed:nonce:round (UTF-8 text)", bytesPerFloat: 4, floatsPerDigest: 8 },
  crash: { houseEdgePercent: CRASH_HOUSE_EDGE_PERCENT, hmacBits: CRASH_HMAC_BITS, growthPerMs: CRASH_GROWTH_PER_MS, saltLedgerOffset: SALT_LEDGER_OFFSET, commitMemoType: COMMIT_MEMO_TYPE },
  racing: { unicorns: UNICORNS.map((u) => u.name), floatsPerRace: RACE_FLOATS, ...RACE_CONFIG },
  slots: {
    totalWeight: SLOT_TOTAL_WEIGHT,
    symbols: SLOT_SYMBOLS.map((s) => ({ name: s.name, weight: s.weight, multiple: s.multiple, partialHundredths: s.partialHundredths, capVvx: s.capVvx })),
    diceMystery: { min: DICE_MYSTERY_MIN, max: DICE_MYSTERY_MAX },
    maxWinVvx: SLOT_MAX_WIN_VVX,
    packages: SLOT_PACKAGES.map((p) => ({ index: p.index, name: p.name, spins: p.spins, spinCostVvx: p.spinCostVvx })),
  },
  wheel: { segments: WHEEL_SEGMENTS.map((s) => ({ prizeLabel: s.prizeLabel, prizeAmount: s.prizeAmount })) },
};

const pct = (weight: number) => `${((weight / SLOT_TOTAL_WEIGHT) * 100).toFixed(3)}%`;

/** Which values are text and which bytes, and how bytes become numbers. */
function Conventions() {
  return (
  <section className="stack" id="conventions">
    <h3>Conventions: text, bytes and numbers</h3>
    <ul>
      <li>SHA-256 and HMAC-SHA256 are the standard ones (FIPS 180-4, RFC 2104). Hex is lowercase unless said otherwise.</li>
      <li>
        <strong>Text</strong> is hashed as its UTF-8 bytes; <strong>bytes</strong> means a 64-hex-digit value decoded to its 32 raw bytes. Which is which:
        <ul>
          <li>Crash game hash: <strong>bytes</strong>, both for the chain step and as the HMAC message.</li>
          <li>Crash salt: <strong>text</strong> (the ledger hash's 64 uppercase hex characters, not decoded) as the HMAC key.</li>
          <li>Server seed (racing, slots, wheel): <strong>text</strong> (64 lowercase hex characters, not decoded) as the HMAC key; its published hash is SHA-256 of that text, in lowercase hex.</li>
          <li>Client seed: <strong>text</strong>. Racing's is a ledger hash exactly as the ledger gives it (64 uppercase hex characters).</li>
          <li>HMAC message of the seeded games: the text <code>clientSeed:nonce:round</code>, nonce and round in decimal without leading zeros (round = 0, 1, 2, ...).</li>
        </ul>
      </li>
      <li>
        <strong>Bytes to a number in [0, 1)</strong>: 4 bytes b0 b1 b2 b3 give b0/256 + b1/256² + b2/256³ + b3/256⁴. Each 32-byte HMAC digest gives 8 numbers in byte order; digest of round r gives numbers 8r to 8r + 7. A game reads them in order, asking for the next round's digest when it needs more.
      </li>
      <li>floor(x) rounds down. Arithmetic on these numbers is IEEE-754 double precision (JavaScript numbers); money is whole drops (XRP × 10⁶) or micro-VVX (VVX × 10⁶).</li>
    </ul>
  </section>
  );
}

/** The chain, its commitment on the ledger, the salt, the crash point, the flight and the payouts. */
function CrashAlgorithm() {
  return (
  <section className="stack" id="crash-algorithm">
    <h3>Crash</h3>
    <ol>
      <li>
        <strong>The chain.</strong> A secret 32-byte seed is game L of a chain of L games; game n − 1's hash is SHA-256 of game n's hash (bytes). The <strong>terminating hash</strong> is SHA-256 of game 1's hash: game n's hash hashed n times. Game n is played as round firstRound + n − 1, so each round's hash, once shown, hashes to the round before it.
      </li>
      <li>
        <strong>The commitment.</strong> Before any game of a chain is played, the treasury sends an AccountSet on the XRP Ledger whose memo has MemoType <code>{COMMIT_MEMO_TYPE}</code> (hex of the text), MemoFormat <code>application/json</code> and MemoData the JSON {"{"}game, terminatingHash, firstRound, length, saltLedgerOffset{"}"}. Say it is validated in ledger C.
      </li>
      <li>
        <strong>The salt</strong> is the hash of validated ledger C + {SALT_LEDGER_OFFSET} (the chain's <code>saltLedgerIndex</code>), 64 uppercase hex characters, used as text. Nobody knew it when the chain was fixed, and no round of the chain is played before that ledger is validated.
      </li>
      <li>
        <strong>The crash point</strong> of game hash H: h = HMAC-SHA256(key = salt, message = H as bytes); r = the first 13 hex digits of h as a whole number (its top {CRASH_HMAC_BITS} bits); X = r / 2^{CRASH_HMAC_BITS}; crash = max(100, floor({100 - CRASH_HOUSE_EDGE_PERCENT} / (1 − X))) hundredths, so max(1.00x, …). The {CRASH_HOUSE_EDGE_PERCENT}% house edge is the {100 - CRASH_HOUSE_EDGE_PERCENT}. This is bustabit's v2 formula.
      </li>
      <li>
        <strong>The flight.</strong> t ms after the start the multiplier is e^({CRASH_GROWTH_PER_MS} t), shown rounded down to hundredths; the round ends at the first whole millisecond where that reaches the crash point.
      </li>
      <li>
        <strong>Payouts.</strong> A cash-out at m hundredths pays floor(bet drops × m / 100) drops; an auto cash-out pays at exactly its target, even when that is the crash point itself. When the riders' combined profit would pass the round's max profit (a share of the bankroll fixed when the round starts), everyone still riding is cashed out at floor(100 × (riding + maxProfit − profit already cashed out) / riding) hundredths (riding = their bets, drops), never below 1.00x. A round cut by a restart is voided: every bet refunded, its hash and the crash point it would have had published like any other.
      </li>
    </ol>
  </section>
  );
}

/** The seeds, every number a race reads in order, the positions of the replay, and the payouts. */
function RacingAlgorithm() {
  return (
  <section className="stack" id="racing-algorithm">
    <h3>Unicorn Racing</h3>
    <ol>
      <li>
        <strong>Seeds.</strong> When a race's countdown starts, its server seed (32 random bytes as 64 lowercase hex characters) is fixed and its SHA-256 shown, with that time and the newest validated ledger then. Betting closes after ledger B; the <strong>client seed</strong> is the hash of validated ledger B + 1; the <strong>nonce</strong> is the race number. The server seed is revealed when the race starts.
      </li>
      <li>
        <strong>The winner</strong>: number 0 → floor(f × 5) in lane order {UNICORNS.map((u, i) => `${u.name} ${i}`).join(", ")}. Every unicorn wins 1 time in 5.
      </li>
      <li>
        <strong>The other places</strong>: numbers 1 to 3. Take the four others in lane order; each number picks floor(f × k) of the k left (removed from the list); the last left finishes last.
      </li>
      <li>
        <strong>Finish times</strong> (in ticks, {RACE_CONFIG.tickRate} a second): number 4 → the winner crosses at {RACE_CONFIG.winnerFinishMinTick} + floor(f × {RACE_CONFIG.winnerFinishSpread}); numbers 5 to 8 → each next finisher {RACE_CONFIG.finishGapMin} + floor(f × {RACE_CONFIG.finishGapSpread}) ticks after the one before.
      </li>
      <li>
        <strong>Pace</strong>: the next {UNICORNS.length * RACE_CONFIG.controlPoints} numbers, {RACE_CONFIG.controlPoints} per unicorn in lane order: pace p_k = {RACE_CONFIG.minPace} + f × {(RACE_CONFIG.maxPace - RACE_CONFIG.minPace).toFixed(2)}. {RACE_FLOATS} numbers in all.
      </li>
      <li>
        <strong>Positions</strong> (the replay): for a unicorn finishing at tick F, d(0) = 0 and d(t) = d(t − 1) + p_k + (p_(k+1) − p_k) × (a − k) with a = (t − 0.5) / {RACE_CONFIG.controlPointEvery}, k = floor(a); its position is 100 × d(t) / d(F) before F and 100 from F on. The leader at each tick from 1 on is the furthest ahead (a tie: the one finishing first); if the leader never changes, the winner's {RACE_CONFIG.controlPoints} paces are taken in reverse order and the positions computed again, kept if the leader then changes. Positions never change who wins.
      </li>
      <li>
        <strong>Payouts</strong>: a bet on the winner pays floor(bet drops × multiple in hundredths / 100) drops (the race's <code>payoutMultiple</code>); others pay nothing.
      </li>
    </ol>
  </section>
  );
}

/** The reels by weight, the Dice mystery, the pay rule and the table of symbols. */
function SlotsAlgorithm() {
  return (
  <section className="stack" id="slots-algorithm">
    <h3>VVX Slots</h3>
    <ol>
      <li>
        <strong>Seeds.</strong> Each wallet has a server seed (its SHA-256 shown first, with that time), its own client seed and one nonce sequence shared with the daily wheel, back to 0 when the server seed is rotated (which reveals it).
      </li>
      <li>
        <strong>Reels</strong>: numbers 0, 1, 2 are the reels left to right. A reel's ticket is floor(f × {SLOT_TOTAL_WEIGHT}); walk the table below in order, subtracting each weight; the reel shows the first symbol where the ticket falls below 0. The strips drawn on screen show each symbol once and are decoration: only the payline symbol is the result.
      </li>
      <li>
        <strong>Dice mystery</strong>: number 3, drawn on every spin: {DICE_MYSTERY_MIN} + floor(f × {DICE_MYSTERY_MAX - DICE_MYSTERY_MIN + 1}), so {DICE_MYSTERY_MIN}x to {DICE_MYSTERY_MAX}x equally likely; it pays only on three Dice.
      </li>
      <li>
        <strong>Pay rule</strong> (multiples of the spin cost, in hundredths): three of a kind pays the symbol's multiple (three Skulls pay 0, three Dice the mystery multiple); anything else pays the sum of the three reels' partial payouts. Payout in micro-VVX = floor(spin cost micro-VVX × hundredths / 100), then at most the symbol's cap for a three of a kind, then at most {SLOT_MAX_WIN_VVX.toLocaleString("en-US")} VVX.
      </li>
    </ol>
    <div className="table-wrap">
      <table className="table stack-table" data-testid="slots-weights">
        <thead>
          <tr>
            <th scope="col">Symbol</th>
            <th scope="col">Weight</th>
            <th scope="col">Per reel</th>
            <th scope="col">Three of a kind</th>
            <th scope="col">Partial per reel</th>
            <th scope="col">Cap (VVX)</th>
          </tr>
        </thead>
        <tbody>
          {SLOT_SYMBOLS.map((s) => (
            <tr key={s.name}>
              <td data-label="Symbol">{s.name}</td>
              <td data-label="Weight" className="mono">{s.weight}</td>
              <td data-label="Per reel" className="mono">{pct(s.weight)}</td>
              <td data-label="Three of a kind" className="mono">{s.name === "Dice" ? "mystery 1-50x" : `${s.multiple}x`}</td>
              <td data-label="Partial per reel" className="mono">{(s.partialHundredths / 100).toFixed(2)}x</td>
              <td data-label="Cap (VVX)" className="mono">{s.capVvx === null ? "max win" : s.capVvx.toLocaleString("en-US")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    <p className="small muted">Spin costs: {SLOT_PACKAGES.map((p) => `${p.name} ${p.spinCostVvx.toLocaleString("en-US")} VVX`).join(", ")}; daily-wheel spins cost 1,000 VVX.</p>
  </section>
  );
}

/** The segment of the seeds. */
function WheelAlgorithm() {
  return (
  <section className="stack" id="wheel-algorithm">
    <h3>Daily wheel</h3>
    <p>
      Number 0 of the wallet's seeds (the nonce sequence it shares with the slots) gives segment floor(f × {WHEEL_SEGMENTS.length}), each equally likely, in this order from the top clockwise:{" "}
      {WHEEL_SEGMENTS.map((s, i) => `${i + 1}. ${s.prizeLabel}`).join(", ")}.
    </p>
  </section>
  );
}

/** /fair's full statement of every algorithm: enough to write an independent verifier from this text alone. */
export function Algorithms() {
  return (
    <article className="card section-gap stack fair-algorithms" id="algorithms" aria-labelledby="algorithms-title" data-testid="fair-algorithms">
      <h2 id="algorithms-title">The algorithms, in full</h2>
      <p className="muted">Everything needed to re-compute any round without our code. The standalone verifier and the API follow this text exactly.</p>

      <Conventions />

      <CrashAlgorithm />

      <RacingAlgorithm />

      <SlotsAlgorithm />

      <WheelAlgorithm />

      <details className="stack">
        <summary>The same constants as JSON (for a program)</summary>
        <pre className="mono small fair-json" data-testid="fair-parameters">
          {JSON.stringify(FAIR_PARAMETERS, null, 2)}
        </pre>
      </details>
    </article>
  );
}
