import { eq } from "drizzle-orm";
import { convertStringToHex } from "xrpl";
import { LedgerRequestError } from "../../ledger/errors";
import type { LedgerGateway } from "../../ledger/gateway";
import type { Outbox } from "../../ledger/outbox";
import type { Clock } from "../../platform/clock";
import { first, probeWrite, sqliteOf, tablesFor, type Db, type DbOrTx } from "../../platform/db";
import type { Logger } from "../../platform/log";
import { COMMIT_MEMO_TYPE, SALT_LEDGER_OFFSET } from "../../../shared/fair";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

export { COMMIT_MEMO_TYPE, SALT_LEDGER_OFFSET };

/** The outbox purpose of a chain's commitment (an AccountSet of the treasury). */
export const COMMIT_PURPOSE = "crash-chain-commit";
/** The outbox owner of commitments: the chain's commitment row (it reads its entry when it needs the salt). */
const COMMIT_OWNER = "crash-commitment";
/** MemoFormat of the commitment's memo: its MemoData is JSON (CommitMemo). */
const COMMIT_MEMO_FORMAT = "application/json";
/** Longest wait between two looks at the outbox or the ledger while a commitment settles (a ledger close wakes it sooner). */
const POLL_MS = 1_000;

const hex = (text: string) => convertStringToHex(text).toUpperCase();

export type CommitmentRow = typeof liteTables.crashChainCommitments.$inferSelect;

/** What a chain publishes about itself in its commitment's memo. */
export interface CommitMemo {
  game: "crash";
  terminatingHash: string;
  firstRound: number;
  length: number;
  saltLedgerOffset: number;
}

/** The memo text of a chain's commitment (JSON; the auditor and /fair read the same fields). */
export function commitMemo(chain: { terminatingHash: string; firstRound: number; length: number }): CommitMemo {
  return { game: "crash", terminatingHash: chain.terminatingHash, firstRound: chain.firstRound, length: chain.length, saltLedgerOffset: SALT_LEDGER_OFFSET };
}

/** What CrashChains needs of a commitment (the ledger's, below; chain tests give their own). */
export interface ChainCommitter {
  /** Records the commitment of a new chain inside the transaction that records the chain. */
  record(tx: DbOrTx, chain: { id: number; terminatingHash: string; firstRound: number; length: number }): Promise<void> | void;
  /** Whether the chain has a commitment (chains made before commitments have none). */
  has(chainId: number): Promise<boolean> | boolean;
  /** Resolves with the chain's salt once its commitment and salt ledger are validated; undefined when cancelled first. */
  saltOf(chainId: number, cancelled: () => boolean): Promise<string | undefined>;
}

/**
 * Crash chains committed on the ledger, so the operator can neither change a chain after showing it nor
 * choose its salt: when a chain is made, the treasury sends an AccountSet (through the outbox, exactly
 * once) whose memo carries the chain's terminating hash; once that is validated in ledger L, the salt is
 * the hash of validated ledger L + SALT_LEDGER_OFFSET, unknown to anyone when the chain was fixed. No
 * round of the chain is played before that ledger is validated. The same on the sandbox's ledger.
 */
export class LedgerChainCommitter implements ChainCommitter {
  /** The store's table (SQLite's or PostgreSQL's). */
  private readonly commitments: typeof liteTables.crashChainCommitments;

  constructor(private readonly deps: { db: Db; ledger: LedgerGateway; outbox: Outbox; clock: Clock; log: Logger }) {
    this.commitments = tablesFor(deps.db, liteTables, pgTables).crashChainCommitments;
    // A refused commitment goes again under the outbox's next key; the commitment's record of its key follows.
    deps.outbox.owner(COMMIT_OWNER, { resend: [COMMIT_PURPOSE], keyColumns: [this.commitments.outboxKey] });
  }

  async record(tx: DbOrTx, chain: { id: number; terminatingHash: string; firstRound: number; length: number }): Promise<void> {
    const key = `crash-chain:${chain.id}:commit`;
    await this.deps.outbox.record(tx, {
      key,
      purpose: COMMIT_PURPOSE,
      owner: { name: COMMIT_OWNER, id: chain.id },
      tx: {
        TransactionType: "AccountSet",
        Memos: [{ Memo: { MemoType: hex(COMMIT_MEMO_TYPE), MemoFormat: hex(COMMIT_MEMO_FORMAT), MemoData: hex(JSON.stringify(commitMemo(chain))) } }],
      },
    });
    await tx.insert(this.commitments).values({ chainId: chain.id, outboxKey: key, createdAt: this.deps.clock.date() });
  }

  async has(chainId: number): Promise<boolean> {
    return !!(await this.of(chainId));
  }

  of(chainId: number): Promise<CommitmentRow | undefined> {
    return first(this.deps.db.select().from(this.commitments).where(eq(this.commitments.chainId, chainId)));
  }

  /** Every commitment, by chain id. */
  async all(): Promise<Map<number, CommitmentRow>> {
    return new Map((await this.deps.db.select().from(this.commitments)).map((r) => [r.chainId, r]));
  }

  async saltOf(chainId: number, cancelled: () => boolean): Promise<string | undefined> {
    await this.sendAgainIfGivenUp(chainId);
    this.deps.outbox.kick();
    let loggedWait = false;
    let lastProblem = "";
    while (!cancelled()) {
      try {
        const row = await this.of(chainId);
        if (!row) throw new Error(`crash chain ${chainId} has no commitment`);
        const saltLedger = row.saltLedgerIndex ?? (await this.settleCommit(row));
        const salt = saltLedger === undefined ? undefined : await this.validatedHash(saltLedger);
        if (salt) {
          this.deps.log.info("crash chain salted", { chain: chainId, commitTx: row.txHash, saltLedger });
          return salt;
        }
        if (!loggedWait && saltLedger !== undefined) this.deps.log.info("crash chain committed; waiting for its salt ledger", { chain: chainId, saltLedger });
        loggedWait ||= saltLedger !== undefined;
      } catch (err) {
        // The ledger is away, the database busy, the commitment refused: the next ledger close or poll tries again (said once).
        const problem = err instanceof Error ? err.message : String(err);
        if (problem !== lastProblem) this.deps.log.warn("crash chain commitment waits", { chain: chainId, error: problem });
        lastProblem = problem;
      }
      await this.nextLedgerOrPoll();
    }
    return undefined;
  }

  /**
   * A commitment the outbox gave up on (the ledger refused it on every try, e.g. a treasury without the
   * fee) goes again under a new key when the chain is loaded: an operator who fixed the cause restarts
   * the server. It never moved money and was never validated, so sending it again commits nothing twice.
   */
  private async sendAgainIfGivenUp(chainId: number): Promise<void> {
    const row = await this.of(chainId);
    const entry = row && (await this.deps.outbox.get(row.outboxKey));
    if (!entry || entry.status !== "failed" || entry.nextKey !== "") return;
    const again = await this.deps.outbox.startAgain(entry.key);
    if (again) this.deps.log.warn("crash chain commitment sent again after the ledger refused it", { chain: chainId, failed: entry.key, key: again.key, result: entry.result ?? entry.error });
  }

  /** Once the commitment's AccountSet is validated: records where (ledger, hash, close time); returns its salt ledger. */
  private async settleCommit(row: CommitmentRow): Promise<number | undefined> {
    const entry = await this.deps.outbox.get(row.outboxKey);
    if (entry?.status === "failed" && entry.nextKey === "") throw new Error(`the ledger refused the commitment (${entry.result ?? entry.error}); no round is played until it is validated: fix the cause (a treasury that can pay the fee) and restart the server`);
    if (!entry || entry.status !== "validated" || entry.ledgerIndex === null || !entry.hash) return undefined;
    const tx = await this.deps.ledger.request({ command: "tx", transaction: entry.hash });
    const closeIso = (tx.result as { close_time_iso?: string }).close_time_iso;
    const saltLedgerIndex = entry.ledgerIndex + SALT_LEDGER_OFFSET;
    // A lock held elsewhere: no write that would wait out the busy timeout; the next ledger close tries again.
    const sqlite = sqliteOf(this.deps.db);
    const locked = sqlite && probeWrite(sqlite);
    if (locked) throw new Error(`database not writable: ${locked}`);
    const { hash, ledgerIndex } = entry;
    await this.deps.db.transaction((tx) =>
      tx
        .update(this.commitments)
        .set({ txHash: hash, ledgerIndex, saltLedgerIndex, committedAt: closeIso ? new Date(closeIso) : this.deps.clock.date() })
        .where(eq(this.commitments.chainId, row.chainId)),
    );
    return saltLedgerIndex;
  }

  /** The hash of ledger `index` once it is validated (undefined before). */
  private async validatedHash(index: number): Promise<string | undefined> {
    try {
      const res = await this.deps.ledger.request({ command: "ledger", ledger_index: index });
      return res.result.validated ? res.result.ledger_hash.toUpperCase() : undefined;
    } catch (err) {
      if (err instanceof LedgerRequestError && err.ledgerError === "lgrNotFound") return undefined;
      throw err;
    }
  }

  private nextLedgerOrPoll(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        off();
        resolve();
      };
      const timer = setTimeout(done, POLL_MS);
      const off = this.deps.ledger.on("ledgerClosed", done);
    });
  }
}
