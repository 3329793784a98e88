import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { convertStringToHex, decode, type TransactionMetadata } from "xrpl";
import { classifyAmount, xrpFromDrops } from "../../ledger/amounts";
import type { LedgerGateway } from "../../ledger/gateway";
import type { DbOrTx, Outbox, OutboxInput, Settlement } from "../../ledger/outbox";
import type { Clock } from "../../platform/clock";
import { first, tablesFor, type Db } from "../../platform/db";
import type { Logger } from "../../platform/log";
import { formatMicroVvx } from "../../../engine/money";
import * as liteTables from "./schema";
const pgTables = (): typeof import("./schema.pg") => require("./schema.pg");

/** Share of a round's confirmed bets that buys VVX to burn: 1 in 100 (floor, in drops). */
export const BURN_DIVISOR = 100n;
/** Outbox purpose of the burn payments. */
export const BURN_PURPOSE = "burn";
/** The outbox owner of the burn payments: the burn's row. */
const BURN_OWNER = "crash-burn";
/** Payment flag: deliver whatever the pool gives for at most SendMax. */
const TF_PARTIAL_PAYMENT = 0x00020000;
/** The Amount asked of a burn payment: more VVX than the pool could ever give (the partial-payment flag delivers what SendMax buys). */
const BURN_ASK_VVX = "1000000000000";

const hex = (text: string) => convertStringToHex(text).toUpperCase();
type BurnRow = typeof liteTables.crashBurns.$inferSelect;

/**
 * The crash game's 1% buyback-and-burn: after each round with bets, one Payment from the treasury to the
 * VVX issuer with SendMax = 1% of the round's bets in XRP and tfPartialPayment. The ledger converts the XRP
 * through the XRP/VVX AMM and delivers VVX to its issuer, which destroys it. One per round (unique round,
 * one outbox key, the next one if the ledger refuses it), recorded with the round's settlement; the VVX burned is the
 * payment's delivered_amount.
 */
export class CrashBurns {
  /** Called after a burn settles (validated or failed): the game pushes the new total to every page. */
  onSettled: (() => void) | undefined;
  private readonly t: typeof liteTables;

  constructor(private readonly deps: { db: Db; clock: Clock; log: Logger; ledger: LedgerGateway; outbox: Outbox }) {
    this.t = tablesFor(deps.db, liteTables, pgTables);
    const { crashBurns } = this.t;
    // The burn row owns its payment: the outbox hands it the settlement; one the ledger refused (no path through the pool,
    // the treasury short) goes again under the next key, the row queued again.
    deps.outbox.owner(BURN_OWNER, {
      resend: [BURN_PURPOSE],
      keyColumns: [liteTables.crashBurns.outboxKey],
      settled: (s) => this.settle(s),
      resent: async ({ db, id }) => (await db.update(crashBurns).set({ status: "queued", settledAt: null }).where(and(eq(crashBurns.id, Number(id)), isNull(crashBurns.txid))).returning({ id: crashBurns.id })).length > 0,
    });
  }

  /** Records the burn of a round inside its settlement transaction; nothing when 1% rounds to 0 drops. */
  async record(db: DbOrTx, round: number, betsDrops: bigint): Promise<BurnRow | undefined> {
    const xrpDrops = betsDrops / BURN_DIVISOR;
    if (xrpDrops <= 0n) return undefined;
    const key = `crash-burn:${round}`;
    const { vvx } = this.deps.ledger;
    // The row first: the outbox entry names it as its owner.
    const { crashBurns } = this.t;
    const row = await first(db.insert(crashBurns).values({ round, betsDrops, xrpDrops, outboxKey: key, status: "queued", createdAt: this.deps.clock.date() }).onConflictDoNothing().returning());
    if (!row) return undefined;
    await this.deps.outbox.record(db, {
      key,
      purpose: BURN_PURPOSE,
      tx: {
        TransactionType: "Payment",
        Destination: vvx.issuer,
        Amount: { currency: vvx.currency, issuer: vvx.issuer, value: BURN_ASK_VVX },
        SendMax: xrpDrops.toString(),
        Flags: TF_PARTIAL_PAYMENT,
        Memos: [{ Memo: { MemoType: hex("vvx/burn"), MemoData: hex(`crash round ${round}: 1% of ${xrpFromDrops(betsDrops)} XRP bet`) } }],
      } as OutboxInput["tx"],
      owner: { name: BURN_OWNER, id: row.id },
    });
    return row;
  }

  /** A burn's payment settled (inside the settling transaction): the VVX it burned, or failed; the game pushes after the commit. */
  private async settle({ db, id, entry, after }: Settlement): Promise<void> {
    const { crashBurns } = this.t;
    const row = await first(db.select().from(crashBurns).where(eq(crashBurns.id, Number(id))));
    if (!row || row.status !== "queued") return;
    const now = this.deps.clock.date();
    after(() => this.onSettled?.());
    if (entry.status !== "validated") {
      await db.update(crashBurns).set({ status: "failed", settledAt: now }).where(eq(crashBurns.id, row.id));
      this.deps.log.error("crash burn failed", { round: row.round, error: entry.error });
      return;
    }
    const meta = entry.meta as (TransactionMetadata & { delivered_amount?: unknown }) | null;
    let burned = 0n;
    try {
      const amount = classifyAmount(meta?.delivered_amount as never, this.deps.ledger.vvx);
      if (amount.kind === "VVX") burned = amount.microVvx;
    } catch {
      // No VVX delivered (no pool liquidity): the burn is recorded as 0.
    }
    const validated = (await this.deps.outbox.attemptsOf(entry.key)).find((a) => a.hash === entry.hash);
    const spent = xrpSpent(meta, this.deps.ledger.platformAddress, validated ? decode(validated.txBlob).Fee : undefined);
    await db.update(crashBurns).set({ status: "validated", txid: entry.hash, vvxBurnedMicro: burned, xrpSpentDrops: spent, settledAt: now }).where(eq(crashBurns.id, row.id));
    this.deps.log.info("crash burn validated", { round: row.round, txid: entry.hash, vvxBurnedMicro: burned.toString(), xrpSpentDrops: spent?.toString() });
  }

  /** Totals of validated burns: VVX burned (micro and text), XRP spent, how many. */
  async totals() {
    const { crashBurns } = this.t;
    const totals = await first(
      this.deps.db
        .select({ n: sql<number | string>`count(*)`, vvx: sql<number | string>`coalesce(sum(${crashBurns.vvxBurnedMicro}), 0)`, xrp: sql<number | string>`coalesce(sum(${crashBurns.xrpSpentDrops}), 0)` })
        .from(crashBurns)
        .where(eq(crashBurns.status, "validated")),
    );
    return {
      totalVvxBurnedMicro: BigInt(totals?.vvx ?? 0),
      totalVvxBurned: formatMicroVvx(BigInt(totals?.vvx ?? 0)),
      totalXrpSpent: xrpFromDrops(BigInt(totals?.xrp ?? 0)),
      rounds: Number(totals?.n ?? 0),
    };
  }

  /** Totals of validated burns and the latest `limit` burns. */
  async summary(limit = 10) {
    const { crashBurns } = this.t;
    const [totals, latest] = await Promise.all([this.totals(), this.deps.db.select().from(crashBurns).orderBy(desc(crashBurns.round)).limit(limit)]);
    return {
      ...totals,
      latest: latest.map((b) => ({
        round: b.round,
        xrp: xrpFromDrops(b.xrpSpentDrops ?? b.xrpDrops),
        vvxBurned: b.vvxBurnedMicro === null ? null : formatMicroVvx(b.vvxBurnedMicro),
        txid: b.txid,
        status: b.status,
        timestamp: b.createdAt.getTime(),
      })),
    };
  }
}

/** XRP the platform account lost in a transaction, minus the fee (what the burn really spent). */
function xrpSpent(meta: TransactionMetadata | null, account: string, fee: unknown): bigint | null {
  for (const node of meta?.AffectedNodes ?? []) {
    const m = "ModifiedNode" in node ? node.ModifiedNode : undefined;
    if (!m || m.LedgerEntryType !== "AccountRoot" || (m.FinalFields as { Account?: string } | undefined)?.Account !== account) continue;
    const before = (m.PreviousFields as { Balance?: string } | undefined)?.Balance;
    const after = (m.FinalFields as { Balance?: string }).Balance;
    if (before === undefined || after === undefined) return null;
    return BigInt(before) - BigInt(after) - BigInt(typeof fee === "string" ? fee : 0);
  }
  return null;
}
