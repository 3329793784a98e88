import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import useSWR from "swr";
import { useSnapshot } from "valtio";
import { WHEEL_SEGMENTS } from "../../../engine";
import { errorMessage, getJson, HttpError } from "../../lib/api";
import { useWalletPush } from "../../lib/useWalletPush";
import { toast } from "../../state/toast";
import { walletState } from "../wallet/walletStore";
import { eligibilityUrl, spinWheel, TIER_LABEL, timeLeftText, type Eligibility, type WheelResult } from "./wheelApi";
import "./dailyWheel.css";

/** The spec's wheel timing: a 4 s spin of about 1800 degrees, the result shown at 4.2 s. */
export const WHEEL_SPIN_MS = 4000;
export const WHEEL_RESULT_MS = 4200;
const EXTRA_TURNS_DEG = 1800;
const SEGMENT_DEG = 360 / WHEEL_SEGMENTS.length;
const R = 140;
/** Segment colours by prize (Try Again stays dark). */
const COLOURS: Record<number, string> = { 0: "#1f2547", 1: "#3b82f6", 2: "#8b5cf6", 3: "#22c55e", 5: "#ec4899", 10: "#f59e0b", 20: "#ef4444" };

const polar = (deg: number, r: number) => {
  const rad = ((deg - 90) * Math.PI) / 180;
  return [r * Math.cos(rad), r * Math.sin(rad)] as const;
};

/** The rotation (deg) that brings segment `position` under the pointer, at least EXTRA_TURNS_DEG past `from`. */
export function targetRotation(from: number, position: number): number {
  const want = -(position * SEGMENT_DEG + SEGMENT_DEG / 2);
  const delta = (((want - from) % 360) + 360) % 360;
  return from + EXTRA_TURNS_DEG + delta;
}

/** The segment under the pointer at a rotation (deg): what the wheel shows there. */
export function segmentUnderPointer(rotation: number): number {
  const under = ((((-rotation) % 360) + 360) % 360) / SEGMENT_DEG;
  return Math.floor(under) % WHEEL_SEGMENTS.length;
}

/** The wheel's drawing: 12 segments turned by `rotation` degrees (animated while spinning), the pointer on top. */
export function WheelSvg({ rotation, spinning }: { rotation: number; spinning: boolean }) {
  return (
    <svg className="daily-wheel-svg" viewBox="-150 -158 300 312" role="img" aria-label="Daily spin wheel with 12 segments">
      <g className="daily-wheel-disc" style={{ transform: `rotate(${rotation}deg)`, transition: spinning ? `transform ${WHEEL_SPIN_MS}ms cubic-bezier(0.16, 0.84, 0.2, 1)` : "none" }}>
        {WHEEL_SEGMENTS.map((s, i) => {
          const a0 = i * SEGMENT_DEG;
          const [x0, y0] = polar(a0, R);
          const [x1, y1] = polar(a0 + SEGMENT_DEG, R);
          const [first, ...rest] = s.prizeAmount > 0 ? [String(s.prizeAmount), s.prizeAmount === 1 ? "Spin" : "Spins"] : ["Try", "Again"];
          return (
            <g key={i} data-position={i}>
              <path d={`M0 0 L${x0} ${y0} A${R} ${R} 0 0 1 ${x1} ${y1} Z`} fill={COLOURS[s.prizeAmount] ?? "#1f2547"} stroke="#0b0d17" strokeWidth="2" />
              <g transform={`rotate(${a0 + SEGMENT_DEG / 2}) translate(0 ${-R * 0.7})`}>
                <text className={s.prizeAmount > 0 ? "wheel-label-big" : "wheel-label-try"} textAnchor="middle" y={s.prizeAmount > 0 ? 2 : -2}>
                  {first}
                </text>
                <text className="wheel-label-small" textAnchor="middle" y={s.prizeAmount > 0 ? 16 : 11}>
                  {rest[0]}
                </text>
              </g>
            </g>
          );
        })}
        <circle r={R} fill="none" stroke="#fbbf24" strokeWidth="5" />
        <circle r="30" fill="#0b0d17" stroke="#fbbf24" strokeWidth="4" />
        <text className="wheel-hub" textAnchor="middle" y="6">
          VVX
        </text>
      </g>
      <path d="M-13 -156 L13 -156 L0 -128 Z" fill="#fbbf24" stroke="#0b0d17" strokeWidth="2" />
    </svg>
  );
}

/**
 * Eligibility (with the spec's 'Spin Wheel Unavailable'), the spin (4 s, result at 4.2 s, 'Spin Failed'), and the time left.
 * A spin in another window arrives by push with the eligibility after it, which is shown as it is (no request).
 */
function useDailyWheel(wallet: string | null) {
  const { data, error, mutate, isLoading } = useSWR<Eligibility>(wallet ? eligibilityUrl(wallet) : null, getJson);
  useWalletPush(wallet, (message) => message.type === "wheel.spin" && void mutate({ success: true, ...message.eligibility }, { revalidate: false }), () => void mutate());
  const [rotation, setRotation] = useState(0);
  const [spinning, setSpinning] = useState(false);
  const [result, setResult] = useState<WheelResult | null>(null);
  const [, setTick] = useState(0);
  const fetchedAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    if (data) fetchedAt.current = Date.now();
  }, [data]);
  useEffect(() => {
    if (!error) return;
    const reason = error instanceof HttpError ? error.serverMessage : undefined;
    toast({ title: "Spin Wheel Unavailable", description: reason ?? "Unable to check spin eligibility", variant: "destructive" });
  }, [error]);
  useEffect(() => {
    // The time left counts down on screen; every half minute is plenty for "h min".
    if (!data || data.canSpin) return;
    const id = setInterval(() => setTick((t) => t + 1), 30_000);
    return () => clearInterval(id);
  }, [data]);
  useEffect(() => setResult(null), [wallet]);

  const spin = async () => {
    if (!wallet || spinning) return;
    setSpinning(true);
    setResult(null);
    try {
      const res = await spinWheel(wallet);
      setRotation((from) => targetRotation(from, res.result.position));
      timer.current = setTimeout(() => {
        setSpinning(false);
        setResult(res.result);
        void mutate();
      }, WHEEL_RESULT_MS);
    } catch (err) {
      setSpinning(false);
      toast({ title: "Spin Failed", description: err instanceof HttpError ? (err.serverMessage ?? "Unable to perform spin") : errorMessage(err, "An unexpected error occurred"), variant: "destructive" });
      void mutate();
    }
  };

  // Time left by the server's clock: its "now" at fetch time, plus what passed here since.
  const leftMs = data ? Date.parse(data.nextSpinAvailable) - (Date.parse(data.now) + (Date.now() - fetchedAt.current)) : 0;
  return { data, error, isLoading, rotation, spinning, result, spin, leftMs };
}

function ResultLine({ result }: { result: WheelResult }) {
  const check = `/fair?${new URLSearchParams({ game: "wheel", clientSeed: result.clientSeed, nonce: String(result.nonce), hash: result.serverSeedHash })}#verify`;
  return (
    <p className={`wheel-result ${result.prizeAmount > 0 ? "wheel-result-win" : ""}`}>
      {result.prizeAmount > 0 ? (
        <>
          <strong>You won {result.prizeLabel}!</strong> {result.creditedTo === "existing" ? "They were added to your active Standard session." : "They wait for you as a Bonus session."}{" "}
          <Link to="/games/slots">Play them in VVX Slots</Link>
        </>
      ) : (
        <>
          <strong>Try Again</strong> - no prize this time.
        </>
      )}{" "}
      <Link className="small" to={`/wheel/spin/${result.spinId}`}>
        This spin's page
      </Link>{" "}
      ·{" "}
      <Link className="small" to={check}>
        Check this spin
      </Link>
    </p>
  );
}

/** The daily wheel: eligibility, the spin, the result, the time left and the streak. */
export default function DailyWheel() {
  const { walletAddress, isConnected } = useSnapshot(walletState);
  const wallet = isConnected ? walletAddress : null;
  const { data, error, isLoading, rotation, spinning, result, spin, leftMs } = useDailyWheel(wallet);
  const canSpin = Boolean(wallet && data?.canSpin && !spinning);
  const holdersOnly = data?.eligible === false;
  const label = !wallet ? "Connect Wallet to Spin" : spinning ? "Spinning..." : isLoading ? "Checking…" : data?.canSpin ? "Spin the Wheel" : holdersOnly ? "For holders and players" : "Come back tomorrow";
  const tier = data ? TIER_LABEL[data.streakTier] : "";

  return (
    <div className="daily-wheel" data-testid="daily-wheel" data-can-spin={Boolean(data?.canSpin)}>
      <div className="daily-wheel-stage">
        <WheelSvg rotation={rotation} spinning={spinning} />
      </div>
      <div className="daily-wheel-side stack">
        <button className="btn btn-primary btn-lg" onClick={() => void spin()} disabled={!canSpin} aria-busy={spinning} data-testid="wheel-spin">
          {label}
        </button>
        <div aria-live="polite" data-testid="wheel-result">
          {result && <ResultLine result={result} />}
        </div>
        {!wallet && <p className="muted small">Connect your wallet to spin once a day for free slot spins.</p>}
        {wallet && error && <p className="error-text small">Unable to check spin eligibility.</p>}
        {wallet && holdersOnly && (
          <p className="small" data-testid="wheel-holders-only">
            {data.reason}
          </p>
        )}
        {wallet && data && !data.canSpin && !holdersOnly && !spinning && (
          <p className="small" data-testid="wheel-tomorrow">
            You have spun today. Come back tomorrow: next spin in <strong>{timeLeftText(leftMs)}</strong>.
          </p>
        )}
        {wallet && data && (
          <p className="small muted" data-testid="wheel-streak">
            Streak: <strong>{data.currentStreak}</strong> day{data.currentStreak === 1 ? "" : "s"}
            {tier && <span className={`badge streak-${data.streakTier}`}>{tier}</span>} · longest {data.longestStreak} · {data.totalSpins} spin{data.totalSpins === 1 ? "" : "s"} in all
          </p>
        )}
        <p className="muted small">
          Prizes are VVX Slots spins at 1,000 VVX each, paid out in real VVX: added to your active Standard session, or a Bonus session of their own. Each
          spin is <Link to="/fair#verify">provably fair</Link>.
        </p>
      </div>
    </div>
  );
}
