// A minimal WebSocket client over raw TCP (Bun.connect) for the capacity bench's crowds, so that thousands of
// client sockets on the server's own cores cost less than the server they measure: the handshake, masked
// client frames, and of the server's frames only their headers and the first bytes of the small ones.
// A message longer than KEEP_BYTES (a first gameState with every player, a batch of joins) is skipped
// unread; every TCP chunk is timestamped once, and the messages it completes carry that time.
// A socket may be set to read in batches (RawWebSocket.batch): it pauses after each chunk until resumed
// (the crowd resumes its batched sockets every so often), so the kernel holds what the server sent to it
// meanwhile and one read takes several messages; the server's writes are the same (on loopback a write lands
// in the receiver's buffer whenever it reads it), only the crowd's reads are fewer.
import type { Socket } from "bun";

/** What a message handler gets: the first bytes of the message (all of it when small) as Latin-1 text, and the chunk's times. */
export type RawMessage = (text: string, wallMs: number, monoMs: number) => void;

/** Messages up to this length are read; longer ones are skipped (none of them is measured). */
const KEEP_BYTES = 1024;
const OP_TEXT = 1;
const OP_CLOSE = 8;
const OP_PING = 9;
const OP_PONG = 10;

interface State {
  handshake: string;
  open: boolean;
  /** Bytes of an unfinished frame (header, or a small payload) carried to the next chunk. */
  pending: Buffer | undefined;
  /** Bytes still to skip of a long message. */
  skip: number;
  onMessage: RawMessage;
  onOpen: (ws: RawWebSocket) => void;
  onFail: (err: Error) => void;
  onClose: () => void;
  ws: RawWebSocket;
  batched: boolean;
}

/** One client socket (see RawWebSocket.connect). */
export class RawWebSocket {
  private constructor(private readonly socket: Socket<State>) {}

  /** Opens `url` (ws://host:port/path) with `headers` (Origin, Cookie); resolves once the server answered 101. */
  static connect(url: string, headers: Record<string, string>, handlers: { onMessage: RawMessage; onClose: () => void }): Promise<RawWebSocket> {
    const { hostname, port, pathname, search } = new URL(url);
    return new Promise((resolve, reject) => {
      const state = { handshake: "", open: false, pending: undefined, skip: 0, batched: false, ...handlers, onOpen: resolve, onFail: reject } as unknown as State;
      Bun.connect<State>({ hostname, port: Number(port), data: state, socket: SOCKET }).then((socket) => {
        state.ws = new RawWebSocket(socket);
        const key = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64");
        const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
        socket.write(`GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`);
      }, reject);
    });
  }

  /** Sends a text message (masked, as a client must). */
  send(text: string): void {
    this.socket.write(frame(OP_TEXT, Buffer.from(text)));
  }

  /** Batched: reads only when resumed (one chunk, then paused again); not batched: reads as data comes. */
  batch(on: boolean): void {
    this.socket.data.batched = on;
    if (!on) this.socket.resume();
  }

  /** A batched socket reads what the kernel holds for it (then pauses again). */
  resume(): void {
    this.socket.resume();
  }

  close(): void {
    this.socket.write(frame(OP_CLOSE, Buffer.alloc(0)));
    this.socket.end();
  }
}

/** A client frame: FIN, `op`, the mask bit and a random mask applied to `payload`. */
function frame(op: number, payload: Buffer): Buffer {
  const n = payload.length;
  const head = n < 126 ? 2 : n < 65_536 ? 4 : 10;
  const out = Buffer.allocUnsafe(head + 4 + n);
  out[0] = 0x80 | op;
  if (n < 126) out[1] = 0x80 | n;
  else if (n < 65_536) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(n, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(n), 2);
  }
  const mask = crypto.getRandomValues(new Uint8Array(4));
  out.set(mask, head);
  for (let i = 0; i < n; i++) out[head + 4 + i] = payload[i]! ^ mask[i & 3]!;
  return out;
}

const SOCKET: Bun.SocketHandler<State> = {
  data(socket, chunk) {
    const wallMs = Date.now();
    const monoMs = performance.now();
    const s = socket.data;
    let buf = chunk as Buffer;
    if (!s.open) {
      s.handshake += buf.toString("latin1");
      const end = s.handshake.indexOf("\r\n\r\n");
      if (end < 0) return;
      if (!s.handshake.startsWith("HTTP/1.1 101")) {
        s.onFail(new Error(`the server refused the upgrade: ${s.handshake.slice(0, s.handshake.indexOf("\r\n"))}`));
        socket.end();
        return;
      }
      s.open = true;
      buf = Buffer.from(s.handshake.slice(end + 4), "latin1");
      s.handshake = "";
      s.onOpen(s.ws);
    }
    if (s.pending) {
      buf = Buffer.concat([s.pending, buf]);
      s.pending = undefined;
    }
    let i = Math.min(s.skip, buf.length);
    s.skip -= i;
    while (i + 2 <= buf.length) {
      const op = buf[i]! & 0x0f;
      let len = buf[i + 1]! & 0x7f;
      let at = i + 2;
      if (len === 126) {
        if (at + 2 > buf.length) break;
        len = buf.readUInt16BE(at);
        at += 2;
      } else if (len === 127) {
        if (at + 8 > buf.length) break;
        len = Number(buf.readBigUInt64BE(at));
        at += 8;
      }
      if (len > KEEP_BYTES && op !== OP_CLOSE && op !== OP_PING) {
        // Skipped unread: the rest of it arrives in later chunks.
        const here = Math.min(len, buf.length - at);
        s.skip = len - here;
        i = at + here;
        continue;
      }
      if (at + len > buf.length) break;
      if (op === OP_TEXT) s.onMessage(buf.toString("latin1", at, at + len), wallMs, monoMs);
      else if (op === OP_PING) socket.write(frame(OP_PONG, buf.subarray(at, at + len)));
      else if (op === OP_CLOSE) socket.end();
      i = at + len;
    }
    // Bun reuses the chunk's memory: what is carried over is copied.
    if (i < buf.length) s.pending = Buffer.from(buf.subarray(i));
    if (s.batched) socket.pause();
  },
  close(socket) {
    const s = socket.data;
    if (!s.open) s.onFail(new Error("the connection closed before the upgrade"));
    else s.onClose();
  },
  error(socket, err) {
    if (!socket.data.open) socket.data.onFail(err);
  },
  connectError(socket, err) {
    socket.data.onFail(err);
  },
};
