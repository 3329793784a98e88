import celebration from "../../../../../assets/games/slots/celebration.svg";
import chart from "../../../../../assets/games/slots/chart.svg";
import clover from "../../../../../assets/games/slots/clover.svg";
import coin from "../../../../../assets/games/slots/coin.svg";
import diamond from "../../../../../assets/games/slots/diamond.svg";
import dice from "../../../../../assets/games/slots/dice.svg";
import rocket from "../../../../../assets/games/slots/rocket.svg";
import skull from "../../../../../assets/games/slots/skull.svg";
import star from "../../../../../assets/games/slots/star.svg";
import trophy from "../../../../../assets/games/slots/trophy.svg";
import { SLOT_SYMBOLS, type SlotSymbolName } from "../../../../engine";

/** The project's own art for each symbol, in the engine's symbol order. */
export const SYMBOL_ART: Record<SlotSymbolName, string> = {
  Skull: skull,
  Clover: clover,
  Celebration: celebration,
  Rocket: rocket,
  Chart: chart,
  Coin: coin,
  Dice: dice,
  Star: star,
  Trophy: trophy,
  Diamond: diamond,
};

/** Art URLs in the engine's symbol order (index = symbol index). */
export const SYMBOL_ART_BY_INDEX = SLOT_SYMBOLS.map((s) => SYMBOL_ART[s.name]);

/** A symbol's index from its name (the API sends names); -1 for an unknown one. */
export const symbolIndex = (name: string) => SLOT_SYMBOLS.findIndex((s) => s.name === name);

/** The symbol's picture as an <img>. */
export function SymbolImage({ name, size = 32 }: { name: string; size?: number }) {
  const src = SYMBOL_ART[name as SlotSymbolName];
  if (!src) return <span>{name}</span>;
  return <img className="slot-symbol-img" src={src} alt={name} title={name} width={size} height={size} loading="lazy" />;
}
