import type { ServerWebSocket } from "bun";
import { topicOf, type GameMessage } from "../../../shared/channels";
import type { ErrorCode } from "../../../shared/errorCodes";
import type { Logger } from "../../platform/log";
import { clientAddress, NO_PROXY, type TrustProxy } from "../../platform/http/clientAddress";
import { parseMessage, type Hub, type HubSocket } from "../../platform/ws/hub";
import { sendFailure, SocketConnection, type Cookies, type SocketEndpoint, type SocketWallet } from "../../platform/ws";

/** What a game's socket handler gets with each client message. */
export interface GameSocketContext {
  /** The wallet this socket authenticated as (auth matching its session cookie), or null for a spectator. */
  wallet: string | null;
  /** The cookies the socket was opened with. */
  cookies: Cookies;
  /** Counts one Xaman payload of this socket's wallet and address (429 RATE_LIMITED past the limits): call before making one. */
  limitPayload(): void;
}

/** What a game's socket needs from the server around it. */
export interface GameSocketDeps {
  socketWallet: SocketWallet;
  log: Logger;
  /** The payload limits every route that makes one shares (auth/limits.ts). */
  payloads?: { hit(ip: string, wallet: string | undefined): void };
  trustProxy?: TrustProxy;
}

export interface GameSocketHandlers {
  /** After the socket joined the game's topic: send it the current state. */
  onOpen?(socket: HubSocket): void | Promise<void>;
  /** After `auth` succeeded: send the player's own state. */
  onAuth?(socket: HubSocket, wallet: string): void | Promise<void>;
  /** Any message other than auth/keepalive/ping. Throwing an AppError answers `error` with its code. */
  onMessage(socket: HubSocket, message: GameMessage, ctx: GameSocketContext): void | Promise<void>;
}

/**
 * One game's push channel over the hub (Bun's native pub/sub: a message is serialised once and
 * copied to every subscriber in native code):
 * - `publish(message)`: to everyone watching the game (topic `game:<name>`);
 * - `toPlayer(wallet, message)`: to that wallet's sockets on the game (topic `player:<name>:<wallet>`);
 * - `socket(deps, handlers)`: the socket `/ws/games/<name>`, a route of Bun's router (`socketRoutes`). It
 *   answers `keepalive`/`ping` with `pong`, takes `auth {walletAddress}` (or `?wallet=` on the URL) only
 *   when it matches the session cookie of the upgrade (otherwise the socket stays a spectator and gets
 *   `error`), and passes every other message to the game.
 */
export class GameChannel {
  readonly topic: string;
  readonly path: string;
  private readonly wallets = new Map<object, string>();

  constructor(
    private readonly hub: Hub,
    readonly game: string,
  ) {
    this.topic = topicOf("game", game);
    this.path = `/ws/games/${game}`;
    hub.shareCount(this.topic);
  }

  publish(message: GameMessage): number {
    return this.hub.publish(this.topic, message);
  }

  toPlayer(wallet: string, message: GameMessage): number {
    return this.hub.publish(topicOf("player", `${this.game}:${wallet}`), message);
  }

  send(socket: HubSocket, message: GameMessage): void {
    this.hub.send(socket, message as GameMessage & { type: string });
  }

  /** Sends a message serialized once for many sockets (a cached history), in order with the game's pushes. */
  sendText(socket: HubSocket, text: string): void {
    this.hub.sendText(socket, text);
  }

  error(socket: HubSocket, code: ErrorCode, message: string): void {
    this.hub.sendError(socket, code, message);
  }

  /** How many sockets watch the game now. */
  get watchers(): number {
    return this.hub.subscribers(this.topic);
  }

  /** Whether any socket watches the game: here, or on another instance of a cluster (its count comes through the broker). */
  get watchedAnywhere(): boolean {
    return this.watchers > 0 || this.hub.watchersElsewhere(this.topic) > 0;
  }

  /**
   * Calls `fn` when a socket opens on the game here, and when one of another instance begins watching it while none
   * there did (a leader's idle loop wakes for either: the hub's onWatched); returns its off.
   */
  onWatched(fn: () => void): () => void {
    return this.hub.onWatched(this.topic, fn);
  }

  /** The wallet a socket authenticated as (null: spectator). */
  walletOf(socket: HubSocket): string | null {
    return this.wallets.get(socket.data) ?? null;
  }

  socket(deps: GameSocketDeps, handlers: GameSocketHandlers): SocketEndpoint {
    const { hub, topic } = this;
    const channel = this;

    class GameConnection extends SocketConnection {
      constructor(
        cookieHeader: string | null,
        forwardedFor: string | null,
        /** `?wallet=` of the socket URL: counts as auth when it is the session's wallet (else the socket just watches). */
        private readonly wanted: string | null,
      ) {
        super(cookieHeader, forwardedFor);
      }

      async open(ws: ServerWebSocket<SocketConnection>) {
        try {
          hub.add(ws);
          hub.subscribe(ws, "keepalive");
          // Runs the channel's watched listeners (a leader's idle loop wakes): inside the try, as the handlers are.
          hub.subscribe(ws, topic);
          hub.welcome(ws);
          await handlers.onOpen?.(ws);
          const session = this.wanted ? await deps.socketWallet(this.cookies) : null;
          if (this.wanted && session && this.wanted === session) await channel.auth(ws, this.wanted, session, handlers);
        } catch (err) {
          sendFailure(hub, ws, err, deps.log, channel.path);
        }
      }

      async message(ws: ServerWebSocket<SocketConnection>, raw: string | Buffer) {
        if (ws.readyState !== 1) return;
        if (!hub.admit(ws)) return ws.close(1008, "too many messages");
        try {
          const msg = parseMessage(raw);
          if (!msg) return hub.sendError(ws, "BAD_MESSAGE", "Messages must be JSON objects with a type");
          if (msg.type === "keepalive" || msg.type === "ping") return hub.send(ws, { type: "pong", timestamp: Date.now() });
          if (msg.type === "auth") return await channel.auth(ws, msg.walletAddress, await deps.socketWallet(this.cookies), handlers);
          const wallet = channel.walletOf(ws);
          const limitPayload = () => deps.payloads?.hit(clientAddress(ws.remoteAddress, this.forwardedFor, deps.trustProxy ?? NO_PROXY), wallet ?? undefined);
          await handlers.onMessage(ws, msg, { wallet, cookies: this.cookies, limitPayload });
        } catch (err) {
          sendFailure(hub, ws, err, deps.log, channel.path);
        }
      }

      close(ws: ServerWebSocket<SocketConnection>) {
        channel.wallets.delete(ws.data);
        hub.remove(ws);
      }
    }

    return { path: this.path, connect: (request) => new GameConnection(request.headers.get("cookie"), request.headers.get("x-forwarded-for"), wantedWallet(request.url)) };
  }

  private async auth(ws: HubSocket, walletAddress: unknown, sessionWallet: string | null, handlers: GameSocketHandlers): Promise<void> {
    if (typeof walletAddress !== "string" || !sessionWallet || walletAddress !== sessionWallet) {
      return this.hub.sendError(ws, "FORBIDDEN", "Field 'walletAddress': connect this wallet first; watching as a spectator");
    }
    const previous = this.wallets.get(ws.data);
    if (previous && previous !== sessionWallet) this.hub.unsubscribe(ws, topicOf("player", `${this.game}:${previous}`));
    this.wallets.set(ws.data, sessionWallet);
    this.hub.subscribe(ws, topicOf("player", `${this.game}:${sessionWallet}`), () => sessionWallet);
    this.hub.send(ws, { type: "authenticated", walletAddress: sessionWallet });
    await handlers.onAuth?.(ws, sessionWallet);
  }
}

/** The `wallet` parameter of a socket URL's query (null: none). */
function wantedWallet(url: string): string | null {
  const q = url.indexOf("?");
  return q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get("wallet") || null;
}
