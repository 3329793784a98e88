/** The games an audit re-checks. */
export type AuditGame = "chains" | "crash" | "racing" | "slots" | "wheel";

/**
 * What an audit concluded about one round: ok (every check agreed), mismatch (one did not: the server
 * published something its own rules or the ledger contradict), pending (a payout not on the ledger yet),
 * unverifiable (not checkable yet: a seed still secret, a round still being played).
 */
export type Verdict = "ok" | "mismatch" | "pending" | "unverifiable";

export interface Finding {
  game: AuditGame;
  /** The round, as people name it ("crash round #25"). */
  subject: string;
  verdict: Verdict;
  detail: string;
}

const NOUN: Record<AuditGame, string> = { chains: "crash chains", crash: "rounds", racing: "races", slots: "spins", wheel: "wheel spins" };
/** Pending and unverifiable rounds listed by name (the rest are counted). */
const LISTED = 5;

/** Everything one audit found, and the lines it prints. */
export class AuditReport {
  readonly findings: Finding[] = [];
  /** Facts worth a line of their own (each chain's commitment, what was read). */
  readonly notes: string[] = [];
  /** Transactions and ledgers looked up on the ledger. */
  ledgerLookups = 0;

  /** One round: a mismatch when any problem was found, else ok; pending when a payout is not on the ledger yet. */
  round(game: AuditGame, subject: string, problems: string[], pending: string[] = [], okDetail = ""): void {
    if (problems.length) this.findings.push({ game, subject, verdict: "mismatch", detail: problems.join("; ") });
    else if (pending.length) this.findings.push({ game, subject, verdict: "pending", detail: pending.join("; ") });
    else this.findings.push({ game, subject, verdict: "ok", detail: okDetail });
  }

  unverifiable(game: AuditGame, subject: string, detail: string): void {
    this.findings.push({ game, subject, verdict: "unverifiable", detail });
  }

  get mismatches(): Finding[] {
    return this.findings.filter((f) => f.verdict === "mismatch");
  }

  /** The audit as printed: every mismatch in full, a summary line per game, the verdict last. */
  lines(): string[] {
    const out = [...this.notes];
    for (const f of this.mismatches) out.push(`MISMATCH ${f.subject}: ${f.detail}`);
    for (const game of Object.keys(NOUN) as AuditGame[]) {
      const of = this.findings.filter((f) => f.game === game);
      const count = (v: Verdict) => of.filter((f) => f.verdict === v).length;
      out.push(`${game}: ${of.length} ${NOUN[game]} checked, ${count("ok")} agree, ${count("mismatch")} mismatch${count("mismatch") === 1 ? "" : "es"}, ${count("pending")} payouts pending, ${count("unverifiable")} not checkable yet`);
      for (const verdict of ["pending", "unverifiable"] as const) {
        const some = of.filter((f) => f.verdict === verdict);
        for (const f of some.slice(0, LISTED)) out.push(`  ${verdict}: ${f.subject}: ${f.detail}`);
        if (some.length > LISTED) out.push(`  ... and ${some.length - LISTED} more ${verdict}`);
      }
    }
    out.push(`ledger: ${this.ledgerLookups} transactions and ledgers looked up`);
    out.push(this.mismatches.length === 0 ? "verify: 0 mismatches" : `verify: ${this.mismatches.length} mismatch${this.mismatches.length === 1 ? "" : "es"}`);
    return out;
  }
}
