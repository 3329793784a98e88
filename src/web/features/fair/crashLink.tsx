import useSWR from "swr";
import type { CrashFairness } from "../../../shared/api/crash";
import { getJson } from "../../lib/api";

/** A prefilled crash check from the crash page's previous rounds: ?game=crash&hash=&salt=&count=&terminating= */
export interface CrashLink {
  hash: string;
  salt: string;
  count: string;
  terminating: string;
}

/** The crash check a /fair link asks for, or null. */
export function readCrashLink(search: string): CrashLink | null {
  const q = new URLSearchParams(search);
  if (q.get("game") !== "crash") return null;
  const hash = q.get("hash") ?? "";
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) return null;
  return { hash, salt: q.get("salt") ?? "", count: q.get("count") ?? "1", terminating: q.get("terminating") ?? "" };
}

/** The crash chain in use, as the server published it before its first round (GET /api/crash/fairness). */
export function PublishedChain() {
  const { data, error } = useSWR<CrashFairness>("/api/crash/fairness", getJson);
  if (error) return <p className="small muted">The published chain could not be loaded.</p>;
  if (!data) return <p className="small muted">Loading the published chain…</p>;
  return (
    <dl className="small published-chain" data-testid="crash-published">
      <dt>Terminating hash (rounds from #{data.firstRound})</dt>
      <dd className="mono hash-cell">{data.terminatingHash}</dd>
      <dt>Salt</dt>
      <dd className="mono">{data.salt}</dd>
    </dl>
  );
}
