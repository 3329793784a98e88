import type { Config } from "../platform/config";
import { Elysia } from "elysia";
import { SimulatePaymentBody, SimulatePaymentResponse } from "../../shared/api/nfts";
import { CLIENT_COOKIE, clientToken } from "../auth/cookies";
import { actingWallet, walletSession } from "../auth/guard";
import type { AuthService } from "../auth/service";
import { AppError, ValidationError } from "../platform/errors";
import { clientIp } from "../platform/http/rateLimit";
import type { SandboxXumm } from "./xumm/service";

/** What the product lends the sandbox's test endpoint: sessions, and a way to start an NFT purchase. */
export interface SandboxProductHooks {
  auth: AuthService;
  /**
   * Reserves an NFT for the wallet (or returns its open reservation) from the raw tierId and amount
   * of the request (400 naming the field when they are wrong); returns the payment's sign request.
   */
  startNftPurchase(actor: { wallet: string; clientToken?: string; ip?: string }, tierId: unknown, amount: unknown): Promise<{ requestId: string; paymentUuid: string; price: string; tierName: string }>;
  /** The purchase's status as the API shows it. */
  nftPurchaseStatus(requestId: string): Promise<string>;
}

/**
 * `POST /api/test/simulate-payment` (sandbox only; the test page's "Simulate Payment"): signs the
 * wallet's NFT purchase payment with the wallet's own sandbox faucet key through the sandbox Xaman,
 * which submits a real VVX payment to the purchase's DestinationTag. The watcher then handles it
 * like any other payment.
 */
export function simulatePaymentRoutes(xumm: SandboxXumm, hooks: SandboxProductHooks, config: Pick<Config, "cookieSecret" | "trustProxy">) {
  return new Elysia({ name: "sandbox-simulate" }).use(walletSession(hooks.auth)).post(
    "/api/test/simulate-payment",
    async ({ body, session, cookies, server, request }) => {
      const wallet = actingWallet(session, body.walletAddress);
      const started = await hooks.startNftPurchase({ wallet, clientToken: clientToken(cookies.get(CLIENT_COOKIE), config), ip: clientIp(server, request, config.trustProxy) }, body.tierId, body.amount);
      const signed = await xumm.sign(started.paymentUuid, { account: wallet }).catch((err) => {
        if (err instanceof AppError && err.status === 400) {
          throw new ValidationError("walletAddress", `Field 'walletAddress': ${wallet} is not a funded sandbox account this server can sign for; pay with the sandbox wallet instead`);
        }
        throw err;
      });
      return {
        success: true as const,
        requestId: started.requestId,
        uuid: started.paymentUuid,
        txid: signed.txid ?? null,
        engineResult: signed.dispatchedResult ?? null,
        status: await hooks.nftPurchaseStatus(started.requestId),
        message: `Paid ${started.price} from ${wallet} on the sandbox ledger; the ${started.tierName} NFT offer follows`,
      };
    },
    {
      body: SimulatePaymentBody,
      response: SimulatePaymentResponse,
      detail: { summary: "Sandbox only: pay for an NFT from the wallet's sandbox account (a real sandbox ledger payment)", tags: ["sandbox"] },
    },
  );
}
