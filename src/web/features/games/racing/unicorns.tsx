import drop from "../../../../../assets/games/racing/drop.svg";
import flow from "../../../../../assets/games/racing/flow.svg";
import ripple from "../../../../../assets/games/racing/ripple.svg";
import splash from "../../../../../assets/games/racing/splash.svg";
import wave from "../../../../../assets/games/racing/wave.svg";
import type { UnicornName } from "../../../../engine";

/** The project's own unicorn art (assets/games/racing), one drawing per unicorn in its colour. */
export const UNICORN_ART: Record<UnicornName, string> = { Ripple: ripple, Wave: wave, Drop: drop, Flow: flow, Splash: splash };

/** A unicorn's picture as an <img>. */
export function UnicornImage({ name, size = 40 }: { name: UnicornName; size?: number }) {
  return <img className="unicorn-img" src={UNICORN_ART[name]} alt="" width={(size * 4) / 3} height={size} />;
}
