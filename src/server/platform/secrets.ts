import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A random secret kept in DATA_DIR/<name>.key (created on first start, readable by the owner
 * only), so what the server signs stays valid across restarts and is unknowable from outside.
 */
export function dataDirSecret(dataDir: string, name: string): string {
  const path = join(dataDir, `${name}.key`);
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true });
    // Written aside and renamed: a crash never leaves a half-written key.
    const temp = `${path}.${process.pid}.tmp`;
    writeFileSync(temp, randomBytes(32).toString("base64url") + "\n", { mode: 0o600 });
    renameSync(temp, path);
  }
  const secret = readFileSync(path, "utf8").trim();
  if (secret.length < 32) throw new Error(`${path} holds no usable secret; delete it to make a new one`);
  chmodSync(path, 0o600);
  return secret;
}
