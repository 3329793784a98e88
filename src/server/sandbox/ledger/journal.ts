import { closeSync, ftruncateSync, openSync, readFileSync, writeSync } from "node:fs";

/**
 * The open ledger's queue on disk (DATA_DIR/sandbox-open.log): one line per
 * transaction the open ledger took (applied, or held for a sequence gap),
 * appended before the submit is answered, so a process killed before the
 * close loses nothing it accepted. An append is one write(2) into the page
 * cache (a SQLite insert per submit cost as much as applying the
 * transaction). After each close the file keeps only the held transactions;
 * at start every line is submitted again in order, and those a close already
 * took are refused as past sequences (a crash between the close's commit and
 * the rewrite is therefore harmless).
 */
export class OpenJournal {
  private fd: number;

  constructor(readonly path: string) {
    this.fd = openSync(path, "a+", 0o600); // owner-only, like every file in DATA_DIR
  }

  append(hash: string, txBlob: string): void {
    writeSync(this.fd, `${hash} ${txBlob}\n`);
  }

  /** The queued transactions in arrival order, each once; a line torn by a crash mid-write is skipped. */
  entries(): { hash: string; txBlob: string }[] {
    const seen = new Set<string>();
    const out: { hash: string; txBlob: string }[] = [];
    for (const line of readFileSync(this.path, "utf8").split("\n")) {
      const match = /^([0-9A-F]{64}) ([0-9A-F]+)$/.exec(line);
      if (!match || seen.has(match[1]!)) continue;
      seen.add(match[1]!);
      out.push({ hash: match[1]!, txBlob: match[2]! });
    }
    return out;
  }

  /** After a close: only `keep` (the transactions still held) stays queued. */
  reset(keep: { hash: string; txBlob: string }[]): void {
    ftruncateSync(this.fd, 0);
    for (const { hash, txBlob } of keep) this.append(hash, txBlob);
  }

  close(): void {
    closeSync(this.fd);
  }
}
