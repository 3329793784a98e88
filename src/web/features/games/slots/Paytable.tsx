import { useMemo } from "react";
import { DICE_MYSTERY_MAX, DICE_MYSTERY_MIN, SLOT_MAX_WIN_VVX, SLOT_SYMBOLS, slotRtp, type SlotSymbolName } from "../../../../engine";
import { SymbolImage } from "./symbols";

const fmt = new Intl.NumberFormat("en-US");
const bySymbol = Object.fromEntries(SLOT_SYMBOLS.map((s) => [s.name, s])) as Record<SlotSymbolName, (typeof SLOT_SYMBOLS)[number]>;
/** The pyramid's rows, top (rarest) first. */
const ROWS: SlotSymbolName[][] = [["Diamond"], ["Trophy", "Star"], ["Coin", "Chart", "Rocket"], ["Celebration", "Clover", "Dice", "Skull"]];

function tripleText(name: SlotSymbolName): { pays: string; cap: string } {
  const s = bySymbol[name];
  if (name === "Skull") return { pays: "Loses", cap: "no payout" };
  if (name === "Dice") return { pays: `${DICE_MYSTERY_MIN}x-${DICE_MYSTERY_MAX}x`, cap: "mystery multiple" };
  return { pays: `${fmt.format(s.multiple)}x`, cap: `up to ${fmt.format(s.capVvx ?? SLOT_MAX_WIN_VVX)} VVX` };
}

/** The payout pyramid, the partial payouts and the exact return to player of the paytable. */
export function Paytable() {
  // Exact, by enumeration of every reel combination (the engine's slotRtp); the same at both spin costs.
  const rtp = useMemo(() => slotRtp(1000), []);
  const partials = [...SLOT_SYMBOLS].sort((a, b) => b.partialHundredths - a.partialHundredths);
  return (
    <section className="card slots-paytable" aria-labelledby="paytable-title" data-testid="slots-paytable">
      <h2 id="paytable-title">Payouts</h2>
      <p className="muted small">Three of a kind on the payline pays the symbol's multiple of your spin cost.</p>
      <div className="pyramid" role="list">
        {ROWS.map((row, i) => (
          <div className="pyramid-row" key={i} role="presentation">
            {row.map((name) => {
              const t = tripleText(name);
              return (
                <div className="pyramid-cell" role="listitem" key={name} data-symbol={name}>
                  <div className="pyramid-symbols" aria-hidden="true">
                    <SymbolImage name={name} size={26} />
                    <SymbolImage name={name} size={26} />
                    <SymbolImage name={name} size={26} />
                  </div>
                  <strong>{t.pays}</strong>
                  <span className="muted small">{name}</span>
                  <span className="muted small pyramid-cap">{t.cap}</span>
                </div>
              );
            })}
          </div>
        ))}
      </div>

      <h3>Partial payouts</h3>
      <p className="small">
        When the three symbols are not all the same, each reel still pays its share of the spin cost, and the shares add up:
      </p>
      <ul className="partials">
        {partials.map((s) => (
          <li key={s.name}>
            <SymbolImage name={s.name} size={22} /> {s.name} <strong>{s.partialHundredths / 100}x</strong>
          </li>
        ))}
      </ul>
      <p className="small muted">
        Example: Trophy + Coin + Celebration = 1 + 0.1 + 0.02 = <strong>1.12x</strong>, or 1,120 VVX at a 1,000 VVX spin. Every spin pays at most{" "}
        {fmt.format(SLOT_MAX_WIN_VVX)} VVX.
      </p>

      <div className="rtp" data-testid="slots-rtp">
        <span className="muted">Return to player</span>
        <strong>{(rtp.rtpValue * 100).toFixed(2)}%</strong>
        <span className="muted small">
          Exact, by enumeration of all 1,000 reel combinations weighted by the symbol weights (and the 50 Dice mystery multiples): {rtp.rtp.numerator.toString()}/
          {rtp.rtp.denominator.toString()}. A spin pays something {(rtp.hitRate * 100).toFixed(2)}% of the time. The same at 1,000 and 10,000 VVX per spin.
        </span>
      </div>
    </section>
  );
}
