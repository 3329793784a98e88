import { Elysia, t } from "elysia";
import { AdvancingClock } from "../platform/clock";
import { ConfigError, type Config } from "../platform/config";
import { CLOCK_OFFSET_FIELD, type SandboxLedger } from "./ledger/ledger";
import { sandboxWallets, type SandboxWallets } from "./wallets";

/** How long an instance waits for the shared sandbox at start before it refuses to start. */
const REACH_TIMEOUT_MS = 5_000;

const NetworkView = t.Object({
  publicUrl: t.String({ description: "Where browsers reach this sandbox (its PUBLIC_URL): its sign pages and QR images are there" }),
  treasury: t.String({ description: "The platform's treasury account, derived from SANDBOX_SEED" }),
  issuer: t.String({ description: "The VVX issuer, derived from SANDBOX_SEED" }),
  currency: t.String({ description: "The VVX currency code (VVX_CURRENCY)" }),
  offsetMs: t.Number({ description: "How far the sandbox clock is ahead of real time" }),
});
type NetworkView = typeof NetworkView.static;

/**
 * `GET /sandbox/api/network`: who this sandbox is (the accounts its seed makes, its currency) and its clock, read
 * by every instance that uses it through SANDBOX_URL before that instance starts anything.
 */
export function sandboxNetworkRoutes(config: Pick<Config, "vvxCurrency" | "publicUrl">, ledger: Pick<SandboxLedger, "wallets">, clock: AdvancingClock) {
  return new Elysia({ name: "sandbox-network-info" }).get(
    "/sandbox/api/network",
    (): NetworkView => ({ publicUrl: config.publicUrl, treasury: ledger.wallets.treasury.classicAddress, issuer: ledger.wallets.issuer.classicAddress, currency: config.vvxCurrency, offsetMs: clock.offsetMs }),
    { response: NetworkView, detail: { summary: "The sandbox's accounts, currency and clock offset (what instances check at start)", tags: ["sandbox"] } },
  );
}

/**
 * The shared sandbox at SANDBOX_URL, checked before the instance starts anything: its wallets and its clock
 * (at the sandbox's offset). Refused with a ConfigError naming the variable when the sandbox does not answer,
 * or was made from another SANDBOX_SEED or VVX_CURRENCY (the instance would pay from a treasury that ledger
 * does not have).
 */
export async function linkSandbox(config: Pick<Config, "sandboxUrl" | "sandboxSeed" | "vvxCurrency">): Promise<{ wallets: SandboxWallets; clock: AdvancingClock; publicUrl: string }> {
  const url = config.sandboxUrl!;
  const network = await readNetwork(url);
  const wallets = sandboxWallets(config.sandboxSeed);
  if (network.treasury !== wallets.treasury.classicAddress) {
    throw new ConfigError("SANDBOX_SEED", `differs from the sandbox's at SANDBOX_URL ${url} (its treasury is ${network.treasury}, this seed's ${wallets.treasury.classicAddress}): set the same SANDBOX_SEED on the sandbox and every instance`);
  }
  if (network.currency !== config.vvxCurrency) {
    throw new ConfigError("VVX_CURRENCY", `is ${config.vvxCurrency}, the sandbox's at SANDBOX_URL ${url} is ${network.currency}: set the same VVX_CURRENCY on the sandbox and every instance`);
  }
  return { wallets, clock: new AdvancingClock(network.offsetMs), publicUrl: network.publicUrl };
}

/**
 * Moves `clock` to the offset each ledger close of the shared sandbox carries (the ledger stream's
 * CLOCK_OFFSET_FIELD): an advance closes a ledger at once, so every instance has moved when it hears that close.
 */
export function followSandboxClock(clock: AdvancingClock, closed: object): void {
  const offset = (closed as Record<string, unknown>)[CLOCK_OFFSET_FIELD];
  if (typeof offset === "number" && Number.isSafeInteger(offset) && offset > clock.offsetMs) clock.advance(offset - clock.offsetMs);
}

/** The sandbox's GET /sandbox/api/network, or a ConfigError of SANDBOX_URL saying what answered instead. */
async function readNetwork(url: string): Promise<NetworkView> {
  let res: Response;
  try {
    res = await fetch(`${url}/sandbox/api/network`, { signal: AbortSignal.timeout(REACH_TIMEOUT_MS) });
  } catch (err) {
    throw new ConfigError("SANDBOX_URL", `${url} does not answer (${err instanceof Error ? err.message : String(err)}): start the sandbox there (vvx sandbox), or fix the address`);
  }
  const body = (await res.json().catch(() => undefined)) as Partial<NetworkView> | undefined;
  if (!res.ok || typeof body?.treasury !== "string" || typeof body.publicUrl !== "string" || typeof body.currency !== "string" || typeof body.offsetMs !== "number") {
    throw new ConfigError("SANDBOX_URL", `${url} is not a VVX sandbox (GET /sandbox/api/network answered ${res.status}): point it at a running vvx sandbox`);
  }
  return body as NetworkView;
}
