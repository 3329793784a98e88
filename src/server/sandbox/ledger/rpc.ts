import { RPC_ERRORS, RpcError } from "./codes";
import type { SandboxLedger } from "./ledger";
import { accountMethods } from "./rpc/account";
import { accountCheckMethods } from "./rpc/accountChecks";
import type { Connection, Method, Params } from "./rpc/context";
import { dexMethods } from "./rpc/dex";
import { ledgerMethods } from "./rpc/ledgerMethods";
import { serverMethods } from "./rpc/server";
import { simulateMethods } from "./rpc/simulate";
import { subscribeMethods } from "./rpc/subscribe";
import { txMethods } from "./rpc/txMethods";

export type { Connection } from "./rpc/context";

/** Every rippled method the sandbox answers; others get rippled's unknownCmd. */
const METHODS: Record<string, Method> = { ...serverMethods, ...accountMethods, ...accountCheckMethods, ...ledgerMethods, ...txMethods, ...dexMethods, ...subscribeMethods, ...simulateMethods };

/**
 * rippled's JSON methods over the sandbox ledger. Each returns the `result`
 * object or throws RpcError; `dispatch` wraps both in rippled's envelopes.
 */
export class LedgerRpc {
  constructor(readonly ledger: SandboxLedger) {}

  /** Handles one request object and returns the whole response envelope (later, for a submit whose signature is being checked). */
  dispatch(request: Params, conn: Connection): Record<string, unknown> | Promise<Record<string, unknown>> {
    const apiVersion = typeof request.api_version === "number" ? request.api_version : 1;
    const envelope = (body: Record<string, unknown>) => ({ ...(request.id !== undefined ? { id: request.id } : {}), ...body, type: "response", ...(request.api_version !== undefined ? { api_version: apiVersion } : {}) });
    try {
      if (apiVersion < 1 || apiVersion > 2) throw new RpcError("invalidParams", "Invalid API version.");
      const command = request.command ?? request.method;
      if (command === undefined) throw new RpcError("missingCommand");
      const method = typeof command === "string" && Object.hasOwn(METHODS, command) ? METHODS[command] : undefined;
      if (!method) throw new RpcError("unknownCmd");
      const result = method(request, { ledger: this.ledger, conn, apiVersion, id: request.id });
      if (result instanceof Promise) return result.then((r) => envelope({ result: r, status: "success" }), (err) => failure(err, request, envelope));
      return envelope({ result, status: "success" });
    } catch (err) {
      return failure(err, request, envelope);
    }
  }
}

/** rippled's error envelope for an RpcError; anything else is rethrown (the socket answers it as internal). */
function failure(err: unknown, request: Params, envelope: (body: Record<string, unknown>) => Record<string, unknown>): Record<string, unknown> {
  if (!(err instanceof RpcError)) throw err;
  const { id: _id, ...echo } = request;
  if (err.error === "invalidTransaction") {
    return envelope({ error: "invalidTransaction", error_exception: err.exception, error_message: err.exception, request: echo, status: "error" });
  }
  return envelope({ error: err.error, error_code: RPC_ERRORS[err.error][0], error_message: err.message, request: echo, status: "error" });
}
