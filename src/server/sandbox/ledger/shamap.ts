
/**
 * The transaction tree root of a ledger (rippled's SHAMap over tx + metadata),
 * computed with the runtime's native SHA-512: the same result as xrpl.js
 * `hashes.hashTxTree`, which is too slow for ledgers with thousands of
 * transactions. A unit test checks the two agree.
 */

const INNER_NODE = Buffer.from("4D494E00", "hex"); // "MIN\0"
const TRANSACTION_ID = Buffer.from("54584E00", "hex"); // "TXN\0"
const TX_NODE = Buffer.from("534E4400", "hex"); // "SND\0"
const ZERO = Buffer.alloc(32);

function sha512Half(...parts: Buffer[]): Buffer {
  const h = new Bun.CryptoHasher("sha512");
  for (const p of parts) h.update(p);
  return h.digest().subarray(0, 32);
}

/** A signed transaction's hash (rippled's transaction ID), as xrpl.js `hashes.hashSignedTx` computes it. */
export function transactionId(txBlobHex: string): string {
  return sha512Half(TRANSACTION_ID, Buffer.from(txBlobHex, "hex")).toString("hex").toUpperCase();
}

/** rippled's variable-length prefix for a blob of `length` bytes. */
export function lengthPrefix(length: number): Buffer {
  if (length <= 192) return Buffer.from([length]);
  if (length <= 12480) {
    const n = length - 193;
    return Buffer.from([193 + (n >>> 8), n & 0xff]);
  }
  if (length <= 918744) {
    const n = length - 12481;
    return Buffer.from([241 + (n >>> 16), (n >>> 8) & 0xff, n & 0xff]);
  }
  throw new RangeError("blob too long for a length prefix");
}

interface Leaf {
  key: string;
  hash: Buffer;
}
type Node = Leaf | Inner;
interface Inner {
  children: (Node | undefined)[];
}

function isLeaf(n: Node): n is Leaf {
  return "key" in n;
}

function insert(node: Inner, leaf: Leaf, depth: number): void {
  const slot = parseInt(leaf.key[depth]!, 16);
  const existing = node.children[slot];
  if (!existing) node.children[slot] = leaf;
  else if (isLeaf(existing)) {
    const inner: Inner = { children: [] };
    insert(inner, existing, depth + 1);
    insert(inner, leaf, depth + 1);
    node.children[slot] = inner;
  } else insert(existing, leaf, depth + 1);
}

function hashNode(node: Node): Buffer {
  if (isLeaf(node)) return node.hash;
  const parts: Buffer[] = [INNER_NODE];
  for (let i = 0; i < 16; i++) parts.push(node.children[i] ? hashNode(node.children[i]!) : ZERO);
  return sha512Half(...parts);
}

/** Root hash of the tree of (tx hash, tx blob, meta blob); all zeros for an empty ledger. */
export function transactionTreeHash(txs: { hash: string; txBlob: string; metaBytes: Buffer }[]): string {
  if (!txs.length) return "0".repeat(64);
  const root: Inner = { children: [] };
  for (const tx of txs) {
    const txBytes = Buffer.from(tx.txBlob, "hex");
    const metaBytes = tx.metaBytes;
    const key = Buffer.from(tx.hash, "hex");
    const hash = sha512Half(TX_NODE, lengthPrefix(txBytes.length), txBytes, lengthPrefix(metaBytes.length), metaBytes, key);
    insert(root, { key: tx.hash.toUpperCase(), hash }, 0);
  }
  return hashNode(root).toString("hex").toUpperCase();
}
