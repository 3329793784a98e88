import { Elysia, t } from "elysia";
import type { ServerWebSocket } from "bun";
import { RateLimitError, ValidationError } from "../../platform/errors";
import { timingSafeEqual } from "node:crypto";
import { clientIp } from "../../platform/http/rateLimit";
import type { TrustProxy } from "../../platform/http/clientAddress";
import type { Logger } from "../../platform/log";
import type { SandboxLedger } from "./ledger";
import { LedgerSockets, type Peer } from "./sockets";

export { SandboxLedger } from "./ledger";

/** The header the product's own ledger client sends its key in (Sandbox.ledgerClientHeaders). */
export const LEDGER_CLIENT_HEADER = "x-vvx-ledger-client";

const CreateAccountBody = t.Object({
  xrp: t.Optional(t.Number({ minimum: 1, maximum: 100_000_000, description: "XRP to fund the account with (default 1,000)" })),
  vvx: t.Optional(t.Number({ minimum: 0, maximum: 10_000_000_000, description: "VVX to issue to it over a new trust line" })),
  algorithm: t.Optional(t.Union([t.Literal("ed25519"), t.Literal("secp256k1")], { description: "Key type of the new account (default ed25519)" })),
});

/**
 * The sandbox ledger's routes: rippled's WebSocket API at `ledger.wsPath`,
 * the faucet (`/sandbox/api/accounts`) and the on-demand close
 * (`/sandbox/api/ledger/close`). Registered only when NETWORK=sandbox.
 */
export function sandboxLedgerRoutes(ledger: SandboxLedger, log: Logger, options: { trustProxy: TrustProxy; clientKey: string }) {
  const sockets = new LedgerSockets(ledger, log);
  /** Who each upgrade is, from its request (its address by TRUST_PROXY; the product's own client by its key). */
  const peers = new WeakMap<Request, Peer>();
  const productKey = Buffer.from(options.clientKey);
  const isProduct = (request: Request) => {
    const given = Buffer.from(request.headers.get(LEDGER_CLIENT_HEADER) ?? "");
    return given.length === productKey.length && timingSafeEqual(given, productKey);
  };

  return new Elysia({ name: "sandbox-ledger" })
    .ws(ledger.wsPath, {
      // An address past its resource limits is refused before the upgrade, until its balance decays; never the product's own client.
      beforeHandle({ server, request }) {
        const peer: Peer = { address: clientIp(server, request, options.trustProxy), product: isProduct(request) };
        peers.set(request, peer);
        const seconds = peer.product ? undefined : sockets.addresses.refusedFor(peer.address);
        if (seconds !== undefined) throw new RateLimitError(seconds);
      },
      open: (ws) => sockets.open(ws.raw as ServerWebSocket<unknown>, peers.get(ws.data.request) ?? { address: (ws.raw as ServerWebSocket<unknown>).remoteAddress, product: false }),
      message: (ws, message) => sockets.message(ws.raw as ServerWebSocket<unknown>, message),
      drain: (ws) => sockets.drain(ws.raw as ServerWebSocket<unknown>),
      close: (ws) => sockets.close(ws.raw as ServerWebSocket<unknown>),
    })
    .post(
      "/sandbox/api/accounts",
      async ({ body, set }) => {
        const vvx = body?.vvx;
        if (vvx !== undefined && !/^\d+(\.\d{1,6})?$/.test(String(vvx))) throw new ValidationError("vvx", "Invalid body field 'vvx': at most 6 decimal places");
        const xrp = body?.xrp;
        if (xrp !== undefined && !/^\d+(\.\d{1,6})?$/.test(String(xrp))) throw new ValidationError("xrp", "Invalid body field 'xrp': at most 6 decimal places");
        const account = await ledger.createAccount({ xrp, vvx, algorithm: body?.algorithm });
        set.status = 201;
        return account;
      },
      {
        body: t.Optional(CreateAccountBody),
        detail: { summary: "Create a funded sandbox account (faucet)", tags: ["sandbox"] },
      },
    )
    .get(
      "/sandbox/api/accounts",
      () => ({
        accounts: ledger.listAccounts().map(({ address, xrp, vvx, created }) => ({ address, xrp, vvx, created })),
      }),
      { detail: { summary: "Faucet accounts with their XRP and VVX balances", tags: ["sandbox"] } },
    )
    .post(
      "/sandbox/api/ledger/close",
      async () => ({ ledger_index: await ledger.closeLedger() }),
      { detail: { summary: "Close and validate the open sandbox ledger now", tags: ["sandbox"] } },
    );
}
