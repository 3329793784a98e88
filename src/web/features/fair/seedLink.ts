import { useEffect, useState } from "react";
import { SLOT_PACKAGES } from "../../../engine";

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
        const body = res.ok ? ((await res.json()) as { serverSeed: string }) : null;
        if (!cancelled) setLink((l) => (l ? { ...l, serverSeed: body?.serverSeed ?? "", seedState: body ? "revealed" : "hidden" } : l));
      })
      .catch(() => !cancelled && setLink((l) => (l ? { ...l, seedState: "hidden" } : l)));
    return () => {
      cancelled = true;
    };
  }, [hash, state]);
  return link;
}
