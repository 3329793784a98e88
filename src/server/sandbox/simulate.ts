import type { Config } from "../platform/config";
import { Elysia } from "elysia";
import { SimulatePaymentBody, SimulatePaymentResponse } from "../../shared/api/nfts";
import { CLIENT_COOKIE, clientToken } from "../auth/cookies";
import { actingWallet, walletSession } from "../auth/guard";
import type { AuthService } from "../auth/service";
import { clientIp } from "../platform/http/rateLimit";

/** A purchase started for the test page: its request and the payment's Xaman sign request. */
export interface StartedNftPurchase {
  requestId: string;
  paymentUuid: string;
  qrUrl: string;
  xummUrl: string;
  expiresAt: string;
  /** "250,000 VVX" */
  price: string;
  tierName: string;
}

/** What the product lends the sandbox's test endpoint: sessions, and a way to start an NFT purchase. */
export interface SandboxProductHooks {
  auth: AuthService;
  /**
   * Reserves an NFT for the wallet (or returns its open reservation) from the raw tierId and amount
   * of the request (400 naming the field when they are wrong); returns the payment's sign request.
   */
  startNftPurchase(actor: { wallet: string; clientToken?: string; ip?: string }, tierId: unknown, amount: unknown): Promise<StartedNftPurchase>;
  /** The purchase's status as the API shows it. */
  nftPurchaseStatus(requestId: string): Promise<string>;
}

/**
 * `POST /api/test/simulate-payment` (sandbox only; the test page's "Simulate Payment"): the tier's VVX
 * payment without the purchase dialog. It reserves the NFT and asks for the payment like every other
 * payment: the answer is the Xaman sign request, and nothing moves until the wallet signs it (in the
 * sandbox wallet); the watcher then handles the payment like any other.
 */
export function simulatePaymentRoutes(hooks: SandboxProductHooks, config: Pick<Config, "cookieSecret" | "trustProxy">) {
  return new Elysia({ name: "sandbox-simulate" }).use(walletSession(hooks.auth)).post(
    "/api/test/simulate-payment",
    async ({ body, session, cookies, server, request }) => {
      const wallet = actingWallet(session, body.walletAddress);
      const started = await hooks.startNftPurchase({ wallet, clientToken: clientToken(cookies.get(CLIENT_COOKIE), config), ip: clientIp(server, request, config.trustProxy) }, body.tierId, body.amount);
      return {
        success: true as const,
        requestId: started.requestId,
        uuid: started.paymentUuid,
        qrUrl: started.qrUrl,
        xummUrl: started.xummUrl,
        expiresAt: started.expiresAt,
        price: started.price,
        tierName: started.tierName,
        status: await hooks.nftPurchaseStatus(started.requestId),
        message: `Sign the payment of ${started.price} for the ${started.tierName} NFT in Xaman (the sandbox wallet); nothing is paid until you do`,
      };
    },
    {
      body: SimulatePaymentBody,
      response: SimulatePaymentResponse,
      detail: { summary: "Sandbox only: an NFT's VVX payment without the purchase dialog, as a Xaman sign request the wallet must sign", tags: ["sandbox"] },
    },
  );
}
