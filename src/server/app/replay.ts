import { backupOrigin, clearBackupOrigin } from "../platform/db/backup";
import { PLAYED_KINDS, type Played, type PlayedMarks } from "../platform/playedMarks";
import type { AppContext } from "./context";

type Games = Pick<AppContext, "store" | "log" | "crash" | "racing" | "slots" | "dailySpin" | "fair">;

/** What the database says was shown: the same marks as DATA_DIR/vvx.played, read from its rows. */
async function shownIn(ctx: Games): Promise<Played> {
  return { crash: await ctx.crash.lastShownRound(), racing: await ctx.racing.lastShownRound(), slots: await ctx.slots.repo.lastSpinId(), wheel: await ctx.dailySpin.repo.lastSpinId() };
}

/**
 * At start, before any game runs: has the database gone back (a restored backup, a copied file)? It has
 * when it is a copy `vvx backup` stamped, or when its rows are behind the marks this folder keeps outside
 * it (DATA_DIR/vvx.played). Then the rounds, races and nonces after its rows may have been shown already,
 * and none of them may be played again: the crash chain is replaced (and the round numbers shown are
 * skipped), the race in progress is voided and the race numbers shown are skipped, and every slots and
 * wheel seed pair is rotated; one warning says why. Returns the reason, or undefined when nothing went back.
 */
export async function guardReplay(ctx: Games, marks: PlayedMarks): Promise<string | undefined> {
  const inDb = await shownIn(ctx);
  const known = marks.found;
  // `vvx backup` copies a SQLite file; a PostgreSQL database goes back by the operator's own tools, found by the marks alone.
  const sqlite = ctx.store.driver === "sqlite" ? ctx.store.sqlite : undefined;
  const origin = sqlite && backupOrigin(sqlite);
  const behind = known ? PLAYED_KINDS.filter((kind) => inDb[kind] < known[kind]) : [];
  if (!origin && behind.length === 0) {
    marks.reset(known ? highest(known, inDb) : inDb);
    return undefined;
  }
  const reasons: string[] = [];
  if (origin) reasons.push(`the database is a copy of a backup taken ${origin.takenAt}`);
  if (behind.length) reasons.push(`its records are behind what this folder already showed (${behind.map((k) => `${k} ${inDb[k]} < ${known![k]}`).join(", ")})`);
  const reason = reasons.join("; ");
  const rotated = await ctx.store.db.transaction(async (tx) => {
    await ctx.crash.skipPast(tx, known?.crash, reason);
    await ctx.racing.skipPast(tx, known?.racing);
    const pairs = await ctx.fair.rotateAll(tx);
    if (sqlite) clearBackupOrigin(sqlite);
    return pairs;
  });
  const after = await shownIn(ctx);
  marks.reset(after);
  ctx.log.warn("the data went back: every game moves past what was already shown", {
    reason,
    crash: `a new chain from round ${(await ctx.crash.bets.repo.lastRoundNumber()) + 1}`,
    racing: `the next race is ${(await ctx.racing.repo.lastRound()) + 1}`,
    seedPairsRotated: rotated,
  });
  return reason;
}

function highest(a: Played, b: Played): Played {
  return { crash: Math.max(a.crash, b.crash), racing: Math.max(a.racing, b.racing), slots: Math.max(a.slots, b.slots), wheel: Math.max(a.wheel, b.wheel) };
}
