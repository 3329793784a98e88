import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DATA_DIR_MODE } from "./dataDir";

/**
 * A random secret kept in DATA_DIR/<name>.key (created on first start, readable by the owner
 * only), so what the server signs stays valid across restarts and is unknowable from outside.
 */
export function dataDirSecret(dataDir: string, name: string): string {
  const path = join(dataDir, `${name}.key`);
  if (!existsSync(path)) {
    mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
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

/** Seals secrets kept in the database with a key kept beside it (DATA_DIR/seal.key): a copy of the database alone reveals none. */
export interface Sealer {
  /** `plain` encrypted and authenticated (AES-256-GCM, a fresh IV), as text for a column. */
  seal(plain: string): string;
  /** The plain text of a sealed value; throws when it was sealed with another key (or altered). */
  open(sealed: string): string;
}

const SEALED = "sealed:v1:";

/** Whether `text` is a value `seal` made (anything else in such a column was written before sealing existed). */
export function isSealed(text: string): boolean {
  return text.startsWith(SEALED);
}

/** The sealer of a key: the key file's secret hashed to 32 bytes. */
export function sealerOf(secret: string): Sealer {
  const key = createHash("sha256").update(`vvx-seal:${secret}`).digest();
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
      return `${SEALED}${iv.toString("base64url")}:${body.toString("base64url")}`;
    },
    open(sealed) {
      if (!isSealed(sealed)) throw new Error("not a sealed value");
      const [iv, body] = sealed.slice(SEALED.length).split(":").map((p) => Buffer.from(p, "base64url"));
      if (!iv || !body || body.length < 16) throw new Error("a damaged sealed value");
      const decipher = createDecipheriv("aes-256-gcm", key, iv);
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString("utf8");
    },
  };
}

/** The sealer of DATA_DIR (its seal.key made on first use, 0600, like cookie.key). */
export function dataDirSealer(dataDir: string): Sealer {
  return sealerOf(dataDirSecret(dataDir, "seal"));
}
