import { useEffect, useState } from "react";
import { bytesToHex, hash64ToBytes, sha256Bytes } from "../../../engine";

/** SHA-256 steps taken between two turns of the page (a few milliseconds each). */
const STEPS_PER_SLICE = 20_000;

/**
 * Whether `hash` hashed `steps` times is `terminating` (a crash game's place in its chain), walked in
 * slices so a page stays responsive for a game a million hashes from the end. null while walking.
 */
export function useChainCheck(hash: string | null | undefined, steps: number, terminating: string | null | undefined): boolean | null {
  const [ok, setOk] = useState<boolean | null>(null);
  useEffect(() => {
    setOk(null);
    if (!hash || !terminating) return;
    let cancelled = false;
    let h = hash64ToBytes("hash", hash);
    let done = 0;
    const slice = () => {
      if (cancelled) return;
      const end = Math.min(steps, done + STEPS_PER_SLICE);
      for (; done < end; done++) h = sha256Bytes(h);
      if (done < steps) setTimeout(slice, 0);
      else setOk(bytesToHex(h) === terminating.toLowerCase());
    };
    slice();
    return () => {
      cancelled = true;
    };
  }, [hash, steps, terminating]);
  return ok;
}
