import { Elysia } from "elysia";
import { topicOf, type GameMessage } from "../../../shared/channels";
import type { ErrorCode } from "../../../shared/errorCodes";
import { CrossSiteRequestError, isCrossSite } from "../../platform/http/requestGuard";
import { KEEPALIVE_MS, parseMessage, type Hub, type HubSocket } from "../../platform/ws/hub";
import type { SocketWallet } from "../../platform/ws";

/** What a game's socket handler gets with each client message. */
export interface GameSocketContext {
  /** The wallet this socket authenticated as (auth matching its session cookie), or null for a spectator. */
  wallet: string | null;
}

export interface GameSocketHandlers {
  /** After the socket joined the game's topic: send it the current state. */
  onOpen?(socket: HubSocket): void;
  /** After `auth` succeeded: send the player's own state. */
  onAuth?(socket: HubSocket, wallet: string): void;
  /** Any message other than auth/keepalive/ping. Throwing an AppError answers `error` with its code. */
  onMessage(socket: HubSocket, message: GameMessage, ctx: GameSocketContext): void | Promise<void>;
}

/**
 * One game's push channel over the hub (Bun's native pub/sub: a message is serialised once and
 * copied to every subscriber in native code):
 * - `publish(message)`: to everyone watching the game (topic `game:<name>`);
 * - `toPlayer(wallet, message)`: to that wallet's sockets on the game (topic `player:<name>:<wallet>`);
 * - `routes(handlers)`: the socket `/ws/games/<name>`. It answers `keepalive`/`ping` with `pong`, takes
 *   `auth {walletAddress}` only when it matches the session cookie of the upgrade (otherwise the socket
 *   stays a spectator and gets `error`), and passes every other message to the game.
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

  error(socket: HubSocket, code: ErrorCode, message: string): void {
    this.hub.sendError(socket, code, message);
  }

  /** How many sockets watch the game now. */
  get watchers(): number {
    return this.hub.subscribers(this.topic);
  }

  /** The wallet a socket authenticated as (null: spectator). */
  walletOf(socket: HubSocket): string | null {
    return this.wallets.get(socket.data) ?? null;
  }

  routes(deps: { socketWallet: SocketWallet; publicUrl: string }, handlers: GameSocketHandlers) {
    const publicOrigin = new URL(deps.publicUrl).origin;
    return new Elysia({ name: `ws-${this.game}` }).ws(this.path, {
      // Another site's page must not act with a visitor's cookie (the embed page is ours, so its socket is same-origin).
      beforeHandle({ request }) {
        if (isCrossSite(request, publicOrigin)) throw new CrossSiteRequestError();
      },
      open: (ws) => {
        this.hub.add(ws);
        this.hub.subscribe(ws, "keepalive");
        this.hub.subscribe(ws, this.topic);
        this.hub.send(ws, { type: "welcome", keepaliveMs: KEEPALIVE_MS });
        handlers.onOpen?.(ws);
        // `?wallet=` on the socket URL counts as auth when it is the session's wallet (else the socket just watches).
        const wanted = (ws.data as { query?: Record<string, string | undefined> }).query?.wallet;
        const session = wanted ? deps.socketWallet(ws.data.cookie as never) : null;
        if (wanted && session && wanted === session) this.auth(ws, wanted, session, handlers);
      },
      message: async (ws, raw) => {
        if (ws.readyState !== 1) return;
        if (!this.hub.admit(ws)) return ws.close(1008, "too many messages");
        const msg = parseMessage(raw);
        if (!msg) return this.hub.sendError(ws, "BAD_MESSAGE", "Messages must be JSON objects with a type");
        if (msg.type === "keepalive" || msg.type === "ping") return this.hub.send(ws, { type: "pong", timestamp: Date.now() });
        if (msg.type === "auth") return this.auth(ws, msg.walletAddress, deps.socketWallet(ws.data.cookie as never), handlers);
        try {
          await handlers.onMessage(ws, msg, { wallet: this.walletOf(ws) });
        } catch (err) {
          const e = err as { code?: ErrorCode; message?: string; status?: number };
          // AppErrors are for the player; anything else is ours (logged by the caller's handler), answered generically.
          if (e?.code && typeof e.status === "number" && e.status < 500) return this.hub.sendError(ws, e.code, e.message ?? "Refused");
          this.hub.sendError(ws, "INTERNAL_ERROR", "Something went wrong on the server; please try again.");
        }
      },
      close: (ws) => {
        this.wallets.delete(ws.data);
        this.hub.remove(ws);
      },
    });
  }

  private auth(ws: HubSocket, walletAddress: unknown, sessionWallet: string | null, handlers: GameSocketHandlers): void {
    if (typeof walletAddress !== "string" || !sessionWallet || walletAddress !== sessionWallet) {
      return this.hub.sendError(ws, "FORBIDDEN", "Field 'walletAddress': connect this wallet first; watching as a spectator");
    }
    const previous = this.wallets.get(ws.data);
    if (previous && previous !== sessionWallet) this.hub.unsubscribe(ws, topicOf("player", `${this.game}:${previous}`));
    this.wallets.set(ws.data, sessionWallet);
    this.hub.subscribe(ws, topicOf("player", `${this.game}:${sessionWallet}`), () => sessionWallet);
    this.hub.send(ws, { type: "authenticated", walletAddress: sessionWallet });
    handlers.onAuth?.(ws, sessionWallet);
  }
}
