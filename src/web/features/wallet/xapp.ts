import { useEffect } from "react";
import type { xApp } from "xumm-xapp-sdk";
import { sendJson } from "../../lib/api";
import type { XAppSession } from "./api";

/** How long the page waits for the xApp SDK before it goes on as a plain web page (the spec's 5 s). */
export const XAPP_SDK_WAIT_MS = 5_000;
/** Set on <html> when the page begins that wait: the moment on the page's own clock (performance.now()), for devtools and tests. */
export const XAPP_SDK_WAIT_ATTRIBUTE = "data-xapp-sdk-wait-from";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether Xaman opened this page as an xApp: its in-app browser says so in the user agent
 * ("xumm/xapp:<version> ... ott:<uuid>") and passes the launch's one-time token as ?xAppToken=.
 */
export function isXAppLaunch(userAgent: string, search: string): boolean {
  return /xumm\/xapp:/i.test(userAgent) || new URLSearchParams(search).has("xAppToken");
}

/** The launch's one-time token: the SDK's (read from the user agent), else the URL's. */
export function launchToken(sdkOtt: string, search: string): string | null {
  const token = sdkOtt || new URLSearchParams(search).get("xAppToken") || "";
  return UUID.test(token) ? token : null;
}

let sdk: Promise<xApp | null> | undefined;

/**
 * The xApp SDK (xumm-xapp-sdk, bundled: loaded only inside Xaman, never from a CDN), or null when it
 * did not come within XAPP_SDK_WAIT_MS: the page then goes on in standard mode (QR codes and links).
 */
export function xAppSdk(): Promise<xApp | null> {
  sdk ??= new Promise((resolve) => {
    document.documentElement.setAttribute(XAPP_SDK_WAIT_ATTRIBUTE, String(performance.now()));
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      console.warn(`the xApp SDK did not load within ${XAPP_SDK_WAIT_MS} ms: going on as a web page`);
      resolve(null);
    }, XAPP_SDK_WAIT_MS);
    import("xumm-xapp-sdk")
      .then(({ xApp }) => {
        clearTimeout(timer);
        if (!late) resolve(new xApp());
      })
      .catch((err) => {
        clearTimeout(timer);
        console.warn("the xApp SDK failed to load: going on as a web page", err);
        resolve(null);
      });
  });
  return sdk;
}

/** Whether the SDK is up (the page runs as an xApp): sign requests then open in Xaman itself. */
let active: xApp | null = null;

/**
 * Inside Xaman: loads the SDK, has the server read the launch's token (the account Xaman opened the
 * xApp for gets a session) and tells Xaman the page is ready. Returns that account, or null when the
 * page is not an xApp or goes on in standard mode.
 */
export async function startXApp(): Promise<string | null> {
  if (!isXAppLaunch(navigator.userAgent, location.search)) return null;
  const app = await xAppSdk();
  if (!app) return null;
  const ott = launchToken(app.getEnvironment().ott, location.search);
  if (!ott) return null;
  const res = await sendJson<XAppSession>("POST", "/api/xumm/xapp/session", { ott });
  active = app;
  void app.ready();
  return res.walletAddress;
}

/** Hands a sign request to Xaman (its sign sheet opens over the xApp); false outside an xApp. */
export function openInXaman(uuid: string): boolean {
  if (!active) return false;
  void active.openSignRequest({ uuid });
  return true;
}

/** Opens each new sign request a dialog shows in Xaman when the page runs as an xApp (the QR stays as a fallback). */
export function useOpenInXaman(uuid: string | null | undefined): void {
  useEffect(() => {
    if (uuid) openInXaman(uuid);
  }, [uuid]);
}
