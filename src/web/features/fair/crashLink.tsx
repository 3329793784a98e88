import useSWR from "swr";
import type { CrashFairness } from "../../../shared/api/crash";
import { getJson } from "../../lib/api";
import { Facts, Hash, Tx, When } from "./roundParts";

/** A prefilled crash check from a crash round: ?game=crash&hash=&salt=&count=&terminating=&round= */
export interface CrashLink {
  hash: string;
  salt: string;
  count: string;
  terminating: string;
  /** The round the hash was played in (numbers the rounds before it). */
  round: string;
}

/** The crash check a /fair link asks for, or null. */
export function readCrashLink(search: string): CrashLink | null {
  const q = new URLSearchParams(search);
  if (q.get("game") !== "crash") return null;
  const hash = q.get("hash") ?? "";
  if (!/^[0-9a-fA-F]{64}$/.test(hash)) return null;
  const round = q.get("round") ?? "";
  return { hash, salt: q.get("salt") ?? "", count: q.get("count") ?? "1", terminating: q.get("terminating") ?? "", round: /^\d{1,9}$/.test(round) ? round : "" };
}

/** GET /api/crash/fairness (the chains as published, each before its first round). */
export function useFairness() {
  return useSWR<CrashFairness>("/api/crash/fairness", getJson);
}

const STATUS: Record<CrashFairness["status"], string> = {
  committing: "its commitment is waiting to be validated on the ledger; no round is played yet",
  awaiting_salt: "committed; waiting for the salt's ledger to be validated; no round is played yet",
  ready: "committed and salted; rounds are played",
  uncommitted: "made before on-ledger commitments: its salt was the server's",
};

/** The crash chain in use, as the server published it before its first round: its commitment on the ledger and its salt. */
export function PublishedChain() {
  const { data, error } = useFairness();
  if (error) return <p className="small muted">The published chain could not be loaded.</p>;
  if (!data) return <p className="small muted">Loading the published chain…</p>;
  return (
    <div className="stack" data-testid="crash-published" data-status={data.status}>
      <Facts
        rows={[
          ["Chain", `#${data.id}: rounds from #${data.firstRound}, ${data.chainLength.toLocaleString("en-US")} games; ${STATUS[data.status]}`],
          ["Terminating hash", <Hash value={data.terminatingHash} />],
          [
            "Commitment",
            data.commitment ? (
              <>
                AccountSet <Tx hash={data.commitment.txHash} /> of the treasury in ledger {data.commitment.ledgerIndex}, <When iso={data.commitment.committedAt} />
              </>
            ) : (
              <span className="muted">{data.status === "uncommitted" ? "none" : "not validated yet"}</span>
            ),
          ],
          ["Salt", <>{data.saltLedgerIndex !== null && <span className="small muted">hash of ledger {data.saltLedgerIndex}: </span>}{data.salt ? <Hash value={data.salt} /> : <span className="muted">not known yet</span>}</>],
          ["Treasury", <code className="hash-cell">{data.treasury}</code>],
        ]}
      />
      {data.chains.length > 1 && <p className="small muted">{data.chains.length - 1} earlier chain{data.chains.length === 2 ? "" : "s"}: GET /api/crash/fairness lists them all.</p>}
    </div>
  );
}
