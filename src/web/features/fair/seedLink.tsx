import { useEffect, useState } from "react";
import { SLOT_PACKAGES } from "../../../engine";
import type { RevealedView } from "../../../shared/api/fair";

/** What a prefilled /fair link carries (from the slots spin list or the wheel): ?game=&serverSeed=&clientSeed=&nonce=&hash=&spinCost= */
export interface SeedLink {
  game: "race" | "slots" | "wheel";
  serverSeed: string;
  clientSeed: string;
  nonce: string;
  /** The commitment the player was shown, to compare with the seed's SHA-256. */
  hash: string | null;
  /** Package index whose spin cost matches the link's spinCost. */
  pkg: string;
  /** loading: the seed is being looked up by its hash; hidden: not revealed yet. */
  seedState: "given" | "loading" | "revealed" | "hidden" | "none";
}

function readLink(search: string): SeedLink | null {
  const q = new URLSearchParams(search);
  const game = q.get("game");
  if (game !== "slots" && game !== "wheel" && game !== "race") return null;
  const cost = Number(q.get("spinCost") ?? "1000");
  const pkg = Math.max(0, SLOT_PACKAGES.findIndex((p) => p.spinCostVvx === cost));
  const serverSeed = q.get("serverSeed") ?? "";
  const hash = q.get("hash");
  return {
    game,
    serverSeed,
    clientSeed: q.get("clientSeed") ?? "",
    nonce: q.get("nonce") ?? "0",
    hash: hash && /^[0-9a-f]{64}$/i.test(hash) ? hash.toLowerCase() : null,
    pkg: String(pkg),
    seedState: serverSeed ? "given" : hash ? "loading" : "none",
  };
}

/**
 * The seeds of a prefilled /fair link. When the link has only the commitment (the seed was not
 * revealed when the link was made), the revealed seed is looked up by its hash; the browser checks
 * it against the hash itself.
 */
export function useSeedLink(): SeedLink | null {
  const [link, setLink] = useState<SeedLink | null>(() => (typeof window === "undefined" ? null : readLink(window.location.search)));
  const hash = link?.hash;
  const state = link?.seedState;
  useEffect(() => {
    if (state !== "loading" || !hash) return;
    let cancelled = false;
    fetch(`/api/fair/revealed/${hash}`, { headers: { accept: "application/json" } })
      .then(async (res) => {
        const body = res.ok ? ((await res.json()) as typeof RevealedView.static) : null;
        if (!cancelled) setLink((l) => (l ? { ...l, serverSeed: body?.serverSeed ?? "", seedState: body ? "revealed" : "hidden" } : l));
      })
      .catch(() => !cancelled && setLink((l) => (l ? { ...l, seedState: "hidden" } : l)));
    return () => {
      cancelled = true;
    };
  }, [hash, state]);
  return link;
}

/** Once a link's seed is known, puts it in the form and runs the check. */
export function useLinkedCheck(link: SeedLink | null, setServerSeed: (seed: string) => void, check: () => void): void {
  const [run, setRun] = useState(false);
  const state = link?.seedState;
  useEffect(() => {
    if (state !== "given" && state !== "revealed") return;
    setServerSeed(link!.serverSeed);
    setRun(true);
  }, [state]); // eslint-disable-line react-hooks/exhaustive-deps -- once, when the seed is known
  useEffect(() => {
    if (!run) return;
    setRun(false);
    check();
  }, [run]); // eslint-disable-line react-hooks/exhaustive-deps -- runs the check the link asked for
}

/** What the form says about a link whose seed is being looked up or not revealed yet. */
export function SeedLinkNotice({ link }: { link: SeedLink | null }) {
  if (link?.seedState === "loading") return <p className="muted small">Looking up the server seed of this {link.game === "wheel" ? "wheel spin" : "spin"}…</p>;
  if (link?.seedState !== "hidden") return null;
  return (
    <p className="alert alert-warning" data-testid="seed-hidden">
      This server seed is still in use, so it is not revealed yet. Rotate your seed pair (VVX Slots, Provably fair card) to reveal it, then open this link again.
      Its SHA-256 is <code className="hash-cell">{link.hash}</code>.
    </p>
  );
}

/** Whether the checked seed hashes to the commitment the link carries. */
export function CommitmentCheck({ link, serverSeed, commitment }: { link: SeedLink | null; serverSeed: string; commitment: string }) {
  if (!link?.hash || serverSeed !== link.serverSeed) return null;
  const ok = commitment === link.hash;
  return (
    <p className={ok ? "success-text small" : "error-text small"} data-testid="seed-commitment-check">
      {ok ? "It matches the commitment shown before the spin." : "It does NOT match the commitment shown before the spin."}
    </p>
  );
}
