/**
 * Another process holds a SQLite file with BEGIN EXCLUSIVE until `release()`: what an operator's
 * sqlite3 shell, a backup tool or a stuck script does to the product's database.
 */
export async function holdDatabase(path: string): Promise<{ release(): Promise<void> }> {
  const script = `
    const { Database } = require("bun:sqlite");
    const db = new Database(${JSON.stringify(path)});
    db.exec("PRAGMA busy_timeout = 5000"); // the server's own write of the moment ends first
    db.exec("BEGIN EXCLUSIVE");
    console.log("locked");
    for await (const _ of console) { db.exec("ROLLBACK"); db.close(); console.log("released"); process.exit(0); }`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  const line = new TextDecoder().decode((await reader.read()).value);
  if (!line.includes("locked")) throw new Error(`the lock holder said ${line}`);
  let released: Promise<void> | undefined;
  return {
    release() {
      return (released ??= (async () => {
        proc.stdin.write("release\n");
        proc.stdin.flush();
        await proc.exited;
      })());
    },
  };
}
