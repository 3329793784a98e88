import type { RefObject } from "react";
import { SLOT_SYMBOLS } from "../../../../engine";
import { connectWallet } from "../../wallet/walletStore";
import type { SlotSession } from "./api";
import { Reels, type ReelsHandle } from "./Reels";
import type { Banner } from "./useSlotSpin";

const fmt = new Intl.NumberFormat("en-US");

/** The machine: the reels, the win banner, SPIN! / SPINNING... and the line under it. */
export function SlotMachine(props: {
  reels: RefObject<ReelsHandle | null>;
  shown: number[];
  banner: Banner | null;
  spinning: boolean;
  onSpin: () => void;
  wallet: string | null;
  session: SlotSession | null;
  sessionState: "loading" | "error" | "ready";
  finished: string | null;
}) {
  const { wallet, session } = props;
  const status = !wallet
    ? "Please connect your wallet to play"
    : props.sessionState === "error"
      ? "Your session could not be checked right now; retrying every 3 seconds."
      : props.sessionState === "loading"
        ? "Checking your session…"
        : session
          ? `${session.remainingSpins} spin${session.remainingSpins === 1 ? "" : "s"} left at ${fmt.format(session.spinCost)} VVX`
          : (props.finished ?? "Payment Required: buy a package to play.");
  return (
    <div className="slots-machine card">
      <Reels ref={props.reels} shown={props.shown} label={`Reels showing ${props.shown.map((i) => SLOT_SYMBOLS[i]?.name).join(", ")}`} />
      <div className="slots-banner-slot" aria-live="polite" data-testid="slots-banner" data-kind={props.banner?.kind ?? ""}>
        {props.banner && (
          <div className={`slots-banner slots-banner-${props.banner.kind}`}>
            <strong>{props.banner.title}</strong> <span>{props.banner.text}</span>
          </div>
        )}
      </div>
      <button className="btn btn-primary btn-lg spin-button" onClick={props.onSpin} disabled={props.spinning} aria-busy={props.spinning} data-testid="spin-button">
        {props.spinning ? "SPINNING..." : "SPIN!"}
      </button>
      <p className="muted small slots-status" data-testid="slots-status">
        {status}
      </p>
      {!wallet && (
        <button className="btn btn-outline" onClick={() => void connectWallet()}>
          Connect Wallet
        </button>
      )}
    </div>
  );
}
