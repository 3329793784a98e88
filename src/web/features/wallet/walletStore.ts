import { proxy } from "valtio";
import { errorMessage, getJson, HttpError, sendJson } from "../../lib/api";
import { shortAddress } from "../../lib/format";
import { toast } from "../../state/toast";
import type { AuthStatus, EnvironmentInfo, OAuthInitiated, OAuthProgress, PushAuth, SignRequest } from "./api";
import { isXAppLaunch, startXApp, xAppSdk } from "./xapp";

/** Local storage key of the connected address (the spec's). */
export const WALLET_KEY = "walletAddress";
/** The spec's delays after a successful connection: store the address, then ask for push-to-sign. */
export const STORE_ADDRESS_DELAY_MS = 500;
export const PUSH_TO_SIGN_DELAY_MS = 3000;

export type SigningPurpose = "wallet_connect" | "bet" | "slot" | "payment";

/** A sign request shown in the QR modal. */
export interface SigningRequest {
  uuid: string;
  qrUrl: string;
  xummUrl: string;
  purpose: SigningPurpose;
  betId?: string;
  isPaymentRequest?: boolean;
  title?: string;
}

export const walletState = proxy({
  isConnected: false,
  walletAddress: null as string | null,
  user: null as { walletAddress: string } | null,
  /** True while the session is being checked on load. */
  checking: true,
  connecting: false,
  /** The wallet-connect sign request shown in the QR modal, if any. */
  signing: null as SigningRequest | null,
  environment: null as EnvironmentInfo | null,
  /** Xaman opened the page as an xApp and its SDK is up: sign requests open in Xaman itself. */
  inXApp: false,
});

const storage = () => (typeof localStorage === "undefined" ? null : localStorage);

/** The spec's fallback: mobile from the user agent when environment detection fails. */
export function mobileFromUserAgent(ua: string): boolean {
  return /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(ua);
}

export const isMobile = () => walletState.environment?.isMobile ?? mobileFromUserAgent(navigator.userAgent);

/** Reads the session from the server; on failure falls back to the stored address (as the spec does). */
export async function refreshAuthStatus(): Promise<void> {
  walletState.checking = true;
  try {
    await readSession();
  } finally {
    walletState.checking = false;
  }
}

async function readSession(): Promise<void> {
  try {
    const status = await getJson<AuthStatus>("/api/auth/status");
    if (status.authenticated && status.user?.walletAddress) {
      setConnected(status.user.walletAddress);
    } else {
      // The server's session is the truth: a stored address without a session is stale.
      clearWallet();
    }
  } catch (err) {
    console.warn("auth status check failed; using the stored wallet address", err);
    const stored = storage()?.getItem(WALLET_KEY);
    if (stored) setConnected(stored);
  }
}

/**
 * On load: the session the server knows; inside Xaman (an xApp) then the account Xaman opened the page
 * for, which wins over an older session of another account (the xApp's accountChange, said in a toast).
 */
export async function startSession(): Promise<void> {
  if (!isXAppLaunch(navigator.userAgent, location.search)) return refreshAuthStatus();
  // The connect button reads 'Connecting...' while Xaman's SDK loads and confirms the account (up to XAPP_SDK_WAIT_MS).
  walletState.checking = walletState.connecting = true;
  // The SDK loads (and its wait counts) from now, beside the session's request, not after its answer.
  void xAppSdk();
  try {
    await readSession();
    const account = await startXApp();
    if (!account) return;
    walletState.inXApp = true;
    if (walletState.isConnected && walletState.walletAddress !== account) toast({ title: "Account changed", description: `Xaman opened VVX for ${shortAddress(account)}.`, variant: "info" });
    setConnected(account);
  } catch (err) {
    toast({ title: "Connection Failed", description: errorMessage(err, "Xaman did not confirm your account. Connect with the button instead."), variant: "destructive" });
  } finally {
    walletState.checking = walletState.connecting = false;
  }
}

export async function detectEnvironment(): Promise<void> {
  try {
    walletState.environment = await getJson<EnvironmentInfo>("/api/xumm/environment");
  } catch {
    const ua = navigator.userAgent;
    const mobile = mobileFromUserAgent(ua);
    walletState.environment = { isInXumm: /xumm|xaman/i.test(ua), isMobile: mobile, canUseAutoDelivery: false, userAgent: ua, hasXummHeaders: false };
  }
}

function setConnected(address: string) {
  walletState.isConnected = true;
  walletState.walletAddress = address;
  walletState.user = { walletAddress: address };
  storage()?.setItem(WALLET_KEY, address);
}

function clearWallet() {
  walletState.isConnected = false;
  walletState.walletAddress = null;
  walletState.user = null;
  storage()?.removeItem(WALLET_KEY);
}

/** The links of a sign request as the features' answers carry them (the QR image, the Xaman link, or their refs). */
type SignLinks = Pick<SignRequest, "uuid"> & Partial<Pick<SignRequest, "qrUrl" | "xummUrl" | "refs" | "next">>;

/** Turns a sign-request response into what the QR modal needs, or throws the spec's errors. */
export function toSigningRequest(res: SignLinks, purpose: SigningPurpose, extra: Partial<SigningRequest> = {}): SigningRequest {
  const qrUrl = res.qrUrl ?? res.refs?.qr_png;
  if (!qrUrl) throw new Error("No QR code URL found in XUMM response");
  return { uuid: res.uuid, qrUrl, xummUrl: res.xummUrl ?? res.next?.always ?? "", purpose, ...extra };
}

/** Starts a wallet connection: creates a SignIn request and opens the QR modal. */
export async function connectWallet(): Promise<void> {
  if (walletState.connecting) return;
  walletState.connecting = true;
  try {
    let res: SignRequest;
    try {
      res = await sendJson<SignRequest>("POST", "/api/xumm/sign-request", { type: "wallet_connect" });
    } catch (err) {
      const statusText = err instanceof HttpError ? err.serverMessage ?? err.message : errorMessage(err);
      throw new Error(`Error generating XUMM sign request: ${statusText}`);
    }
    walletState.signing = toSigningRequest(res, "wallet_connect", { title: "Connect your wallet" });
  } catch (err) {
    console.error(err);
    walletState.connecting = false;
    toast({ title: "Connection Failed", description: "Unable to connect to your wallet. Please try again.", variant: "destructive" });
  }
}

/** Called by the QR modal when the SignIn was signed (the status call has set the session cookie). */
export function onWalletSigned(account: string): void {
  walletState.connecting = false;
  setTimeout(() => {
    setConnected(account);
    setTimeout(() => void requestPushToSign(account), PUSH_TO_SIGN_DELAY_MS);
  }, STORE_ADDRESS_DELAY_MS);
}

export function onWalletSigningEnded(): void {
  walletState.connecting = false;
  walletState.signing = null;
}

/** The spec's automatic push-to-sign request after connecting; a returned deep link opens in a new tab; failure is ignored. */
async function requestPushToSign(walletAddress: string): Promise<void> {
  if (walletState.walletAddress !== walletAddress) return;
  try {
    const res = await sendJson<PushAuth>("POST", "/api/auth/oauth-request", { walletAddress });
    if (res.deepLink) window.open(res.deepLink, "_blank", "noopener");
  } catch (err) {
    console.warn("push-to-sign request failed (ignored)", err);
  }
}

/** Ends the session on the server and forgets the address here. */
export async function disconnectWallet(): Promise<void> {
  try {
    await sendJson("POST", "/api/auth/logout");
  } catch (err) {
    console.warn("logout failed; clearing the wallet locally", err);
  }
  clearWallet();
}

/** Sets the connected wallet after an OAuth sign-in (the server has set the session cookie). */
export function connectedViaOAuth(address: string): void {
  setConnected(address);
}

/** The spec's OAuth sign-in polling: every 5 s, at most 60 times (5 minutes). */
export const OAUTH_POLL_MS = 5000;
export const OAUTH_POLL_TRIES = 60;

/**
 * Signs in through Xaman's OAuth2 page instead of a QR code: on a phone or inside the
 * Xaman app the page navigates to the sign-in link, elsewhere it opens in a new tab; this
 * page then polls until the sign-in completes. Resolves with the wallet or rejects with the
 * spec's message ('Failed to initiate OAuth', 'OAuth initiation failed', 'OAuth sign-in timed out').
 */
export async function signInWithOAuth(pollMs = OAUTH_POLL_MS, tries = OAUTH_POLL_TRIES): Promise<string> {
  let started: OAuthInitiated;
  try {
    started = await sendJson<OAuthInitiated>("POST", "/api/xumm/oauth/initiate");
  } catch (err) {
    throw new Error(err instanceof HttpError ? err.serverMessage ?? "Failed to initiate OAuth" : "Failed to initiate OAuth");
  }
  if (!started.success || !started.signInUrl) throw new Error(started.message ?? "OAuth initiation failed");
  const env = walletState.environment;
  if (env?.isInXumm || isMobile()) window.location.href = started.deepLink ?? started.signInUrl;
  else window.open(started.signInUrl, "_blank", "noopener");

  for (let i = 0; i < tries; i++) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    let progress: OAuthProgress;
    try {
      progress = await getJson<OAuthProgress>(`/api/xumm/oauth/callback/${encodeURIComponent(started.uuid)}`);
    } catch (err) {
      throw new Error(errorMessage(err, "OAuth initiation failed"));
    }
    if (progress.signed && progress.walletAddress) {
      // The callback page has set the session cookie (same browser); confirm it with the server.
      await refreshAuthStatus();
      if (!walletState.isConnected) connectedViaOAuth(progress.walletAddress);
      return progress.walletAddress;
    }
    if (!progress.success) throw new Error(progress.message ?? "OAuth initiation failed");
  }
  throw new Error("OAuth sign-in timed out");
}
