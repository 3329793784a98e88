import { useRef, useState } from "react";
import type { KeyedMutator } from "swr";
import { SLOT_SYMBOLS } from "../../../../engine";
import { HttpError } from "../../../lib/api";
import { toast } from "../../../state/toast";
import { fetchActiveSession, spin, type ActiveSession, type SlotSession, type Spin } from "./api";
import type { ReelsHandle } from "./Reels";
import { REELS } from "./ReelsView";
import { symbolIndex } from "./symbols";

const fmt = new Intl.NumberFormat("en-US", { maximumFractionDigits: 6 });
/** The spec's text for a session that is gone. */
export const SESSION_EXPIRED = "Your session has expired. Please purchase new spins to continue playing.";
/** What the reels show before the first spin. */
const RESTING = ["Star", "Diamond", "Star"].map((n) => SLOT_SYMBOLS.findIndex((s) => s.name === n));

/** The win or partial-win banner of a spin. */
export type Banner = { kind: "win" | "partial" | "none"; title: string; text: string };

export function bannerFor(s: Spin): Banner {
  if (s.isWin) {
    const title = s.winType === "mystery" ? `MYSTERY DICE ${s.mysteryMultiple}x!` : `THREE ${s.reels[0]!.toUpperCase()}S!`;
    return { kind: "win", title, text: `You win ${fmt.format(s.winAmount)} VVX (${s.multiplier}x your spin)` };
  }
  if (s.partialPayout > 0) return { kind: "partial", title: "Partial win", text: `+${fmt.format(s.partialPayout)} VVX (${s.multiplier}x your spin)` };
  return { kind: "none", title: "No win", text: "Three Skulls pay nothing. Spin again!" };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * One press of SPIN!: the spec's checks (wallet, session, spins left), the session rechecked, the
 * spin asked of the server while the reels turn, the reels stopped on its symbols at 1.0/1.4/1.8 s
 * and the result shown at 2.2 s; 403 is 'Session Expired', anything else 'Failed to process spin'.
 */
export function useSlotSpin(opts: { wallet: string | null; session: SlotSession | null; refreshSession: KeyedMutator<ActiveSession>; onSpun: () => void; onNeedPackage?: () => void }) {
  const reels = useRef<ReelsHandle>(null);
  const [spinning, setSpinning] = useState(false);
  const [banner, setBanner] = useState<Banner | null>(null);
  const [shown, setShown] = useState<number[]>(RESTING);
  const [finished, setFinished] = useState<string | null>(null);

  const run = async (wallet: string) => {
    const started = performance.now();
    reels.current?.spin();
    const current = (await fetchActiveSession(wallet)).session;
    if (!current) {
      reels.current?.halt();
      toast({ title: "Session Expired", description: SESSION_EXPIRED, variant: "destructive" });
      await opts.refreshSession({ success: true, session: null }, { revalidate: true });
      return;
    }
    const res = await spin(current.sessionId, wallet);
    const targets = res.spin.reels.map(symbolIndex);
    await Promise.all([reels.current?.land(targets), wait(started + REELS.resultMs - performance.now())]);
    setShown(targets);
    const next = bannerFor(res.spin);
    setBanner(next);
    if (next.kind !== "none") reels.current?.highlight();
    if (res.sessionStatus === "completed") setFinished(`Session complete: you won ${fmt.format(res.totalWinnings)} VVX in this session. Buy another package to keep playing.`);
    const updated = res.sessionStatus === "completed" ? null : { ...current, remainingSpins: res.remainingSpins, totalWinnings: res.totalWinnings };
    await opts.refreshSession((prev) => (prev?.session?.sessionId === current.sessionId ? { success: true, session: updated } : prev), { revalidate: true });
    opts.onSpun();
  };

  const press = async () => {
    const { wallet, session } = opts;
    if (spinning) return;
    if (!wallet) return void toast({ title: "Wallet Required", description: "Please connect your wallet to play", variant: "destructive" });
    // No spins: the toast says so and the page brings its package chooser into view (below the reels on a phone).
    if (!session) return void (toast({ title: "Payment Required", description: "Buy a spin package to play.", variant: "destructive" }), opts.onNeedPackage?.());
    if (session.remainingSpins <= 0) return void (toast({ title: "No Spins Left", description: "Buy another package to keep playing.", variant: "destructive" }), opts.onNeedPackage?.());
    setSpinning(true);
    setBanner(null);
    try {
      await run(wallet);
    } catch (err) {
      reels.current?.halt();
      if (err instanceof HttpError && err.status === 403) {
        toast({ title: "Session Expired", description: SESSION_EXPIRED, variant: "destructive" });
        void opts.refreshSession();
      } else {
        console.error("spin failed", err);
        toast({ title: "Error", description: "Failed to process spin", variant: "destructive" });
      }
    } finally {
      setSpinning(false);
    }
  };

  /** Forgets the last result (another wallet, a new package). */
  const reset = () => {
    setBanner(null);
    setFinished(null);
  };

  return { reels, spinning, banner, shown, finished, press, reset };
}
