import { closeSync, existsSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { DATA_FILE_MODE } from "./dataDir";

/** What the games have shown so far: the highest crash round and race that began, slots and wheel spin ids. */
export type PlayedKind = "crash" | "racing" | "slots" | "wheel";
export type Played = Record<PlayedKind, number>;

export const PLAYED_KINDS: readonly PlayedKind[] = ["crash", "racing", "slots", "wheel"];

/** The file beside the database (DATA_DIR/vvx.played), never inside it: a restored database cannot take it back. */
export const PLAYED_FILE = "vvx.played";
/** The record's fixed size: every write replaces the same bytes in place (no rename, no growing file). */
const RECORD_BYTES = 256;

/** A game's note that it shows an outcome (called after its commit, before anyone sees the outcome). */
export type NotePlayed = (kind: PlayedKind, value: number) => void;

/**
 * The high-water marks of what this data folder has shown players, kept outside the database so that
 * a database that went back (a restored backup, a copied file) is recognised at the next start: its
 * own marks are lower than these. A game notes an outcome after committing it and before sending it;
 * a note is one positioned write of a fixed-size record into an open file (a few microseconds).
 */
export class PlayedMarks {
  private readonly fd: number;
  private marks: Played;

  private constructor(
    readonly path: string,
    readonly found: Played | undefined,
  ) {
    this.marks = { ...(found ?? zero()) };
    this.fd = openSync(path, existsSync(path) ? "r+" : "w+", DATA_FILE_MODE);
  }

  /** Opens DATA_DIR's marks; `found` is what the file held (undefined: none yet, or unreadable). */
  static open(dataDir: string): PlayedMarks {
    const path = join(dataDir, PLAYED_FILE);
    return new PlayedMarks(path, existsSync(path) ? parse(readFileSync(path, "utf8")) : undefined);
  }

  /** Raises one mark (never lowers it) and writes the record when it moved. */
  readonly note: NotePlayed = (kind, value) => {
    if (!(value > this.marks[kind])) return;
    this.marks[kind] = value;
    this.write();
  };

  /** Sets every mark (after a start checked the database against them) and writes the record. */
  reset(marks: Played): void {
    this.marks = { ...marks };
    this.write();
  }

  close(): void {
    closeSync(this.fd);
  }

  private write(): void {
    const text = JSON.stringify(this.marks);
    writeSync(this.fd, Buffer.from(text.padEnd(RECORD_BYTES, " ")), 0, RECORD_BYTES, 0);
  }
}

function zero(): Played {
  return { crash: 0, racing: 0, slots: 0, wheel: 0 };
}

/** The marks of a record; undefined when it is not one (a torn write after a power cut): treated as no marks. */
function parse(text: string): Played | undefined {
  try {
    const value = JSON.parse(text) as Partial<Played>;
    const marks = zero();
    for (const kind of PLAYED_KINDS) {
      const n = value[kind];
      if (!Number.isSafeInteger(n) || n! < 0) return undefined;
      marks[kind] = n!;
    }
    return marks;
  } catch {
    return undefined;
  }
}
