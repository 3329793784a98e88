import { Elysia, t } from "elysia";
import type { ServerWebSocket } from "bun";
import { ValidationError } from "../../platform/errors";
import type { Logger } from "../../platform/log";
import type { SandboxLedger } from "./ledger";
import { newSubscriber } from "./streams";
import { LedgerRpc, type Connection } from "./rpc";

export { SandboxLedger } from "./ledger";

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
export function sandboxLedgerRoutes(ledger: SandboxLedger, log: Logger) {
  const rpc = new LedgerRpc(ledger);
  const connections = new Map<ServerWebSocket<unknown>, Connection>();

  return new Elysia({ name: "sandbox-ledger" })
    .ws(ledger.wsPath, {
      open(ws) {
        const subscriber = newSubscriber(
          (message) => void ws.raw.send(message),
          () => ws.raw.close(1001, "server shutting down"),
        );
        connections.set(ws.raw as ServerWebSocket<unknown>, { subscriber });
        // Registered at once (with no streams) so a shutdown closes every ledger socket, subscribed or not.
        ledger.addSubscriber(subscriber);
      },
      message(ws, message) {
        const conn = connections.get(ws.raw as ServerWebSocket<unknown>);
        if (!conn) return;
        let request: unknown = message;
        if (typeof request === "string" || request instanceof Uint8Array) {
          const text = typeof request === "string" ? request : new TextDecoder().decode(request);
          try {
            request = JSON.parse(text);
          } catch {
            // rippled answers unparsable frames with a jsonInvalid error of type "error".
            ws.raw.send(JSON.stringify({ error: "jsonInvalid", status: "error", type: "error", value: text }));
            return;
          }
        }
        if (!request || typeof request !== "object" || Array.isArray(request)) {
          ws.raw.send(JSON.stringify({ error: "jsonInvalid", status: "error", type: "error", value: JSON.stringify(request) }));
          return;
        }
        let response: Record<string, unknown>;
        try {
          response = rpc.dispatch(request as Record<string, unknown>, conn);
        } catch (err) {
          log.error("sandbox ledger request failed", { error: err instanceof Error ? err.stack ?? err.message : String(err) });
          const { id, ...echo } = request as Record<string, unknown>;
          response = { ...(id !== undefined ? { id } : {}), error: "internal", error_code: 73, error_message: "Internal error.", request: echo, status: "error", type: "response" };
        }
        ws.raw.send(JSON.stringify(response));
      },
      close(ws) {
        const conn = connections.get(ws.raw as ServerWebSocket<unknown>);
        if (conn) {
          ledger.removeSubscriber(conn.subscriber);
          conn.pathFind?.stop();
        }
        connections.delete(ws.raw as ServerWebSocket<unknown>);
      },
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
