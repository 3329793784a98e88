import { useEffect, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import { errorMessage, getJson, sendJson } from "../../lib/api";
import { usePageTitle } from "../../lib/usePageTitle";
import { WalletConnect } from "./WalletConnect";
import {
  connectWallet,
  disconnectWallet,
  signInWithOAuth,
  toSigningRequest,
  walletState,
  type SigningRequest,
} from "./walletStore";
import type { SignRequest, SignStatus } from "./api";

/** The spec's test-page polling: every 3 s, stopping after 60 s. */
export const TEST_POLL_MS = 3000;
export const TEST_POLL_LIMIT_MS = 60_000;

/**
 * /test-wallet-connect: a log, a direct API test, a hook test and disconnect, for checking the wallet flow by hand.
 * Long because it is a test bench page: four small panels that share the log.
 */
export default function TestWalletConnectPage() {
  usePageTitle("Wallet connection test");
  const wallet = useSnapshot(walletState);
  const [log, setLog] = useState<string[]>([]);
  const [direct, setDirect] = useState<SigningRequest | null>(null);
  const [polling, setPolling] = useState(false);
  const [oauthBusy, setOauthBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setInterval>>(undefined);
  const add = (line: string) => setLog((l) => [`${new Date().toLocaleTimeString()}  ${line}`, ...l].slice(0, 200));

  useEffect(() => () => clearInterval(timer.current), []);
  useEffect(() => {
    add(wallet.isConnected ? `hook: connected as ${wallet.walletAddress}` : "hook: not connected");
  }, [wallet.isConnected, wallet.walletAddress]);

  const directTest = async () => {
    clearInterval(timer.current);
    try {
      add("POST /api/xumm/sign-request {type: wallet_connect}");
      const res = await sendJson<SignRequest>("POST", "/api/xumm/sign-request", { type: "wallet_connect" });
      const request = toSigningRequest(res, "wallet_connect");
      setDirect(request);
      add(`created ${request.uuid}; polling every 3 s for 60 s`);
      const startedAt = Date.now();
      setPolling(true);
      const check = async () => {
        if (Date.now() - startedAt > TEST_POLL_LIMIT_MS) {
          clearInterval(timer.current);
          setPolling(false);
          return add("stopped polling after 60 s");
        }
        try {
          const s = await getJson<SignStatus>(`/api/xumm/status/${request.uuid}`);
          add(`status: signed=${s.signed} account=${s.account ?? "-"} cancelled=${s.cancelled} expired=${s.expired}`);
          if (s.signed || s.cancelled || s.expired) {
            clearInterval(timer.current);
            setPolling(false);
          }
        } catch (err) {
          add(`status check failed: ${errorMessage(err)}`);
        }
      };
      timer.current = setInterval(() => void check(), TEST_POLL_MS);
      void check();
    } catch (err) {
      add(`sign request failed: ${errorMessage(err)}`);
    }
  };

  const oauthTest = async () => {
    setOauthBusy(true);
    add("POST /api/xumm/oauth/initiate; polling the callback every 5 s (up to 60 times)");
    try {
      const wallet = await signInWithOAuth();
      add(`oauth: signed in as ${wallet}`);
    } catch (err) {
      add(`oauth: ${errorMessage(err)}`);
    } finally {
      setOauthBusy(false);
    }
  };

  return (
    <section className="container">
      <header className="page-header">
        <h1>Wallet connection test</h1>
        <p className="muted">Exercise the Xaman sign-in by hand: through the API directly, or through the same code the header button uses.</p>
      </header>
      <div className="grid grid-2">
        <div className="card stack">
          <h2>Hook test</h2>
          <p>
            State: <strong>{wallet.checking ? "checking…" : wallet.isConnected ? "connected" : "not connected"}</strong>
            {wallet.walletAddress && (
              <>
                {" "}
                as <code>{wallet.walletAddress}</code>
              </>
            )}
          </p>
          <div className="row">
            <WalletConnect variant="connect-xumm" />
            <button className="btn btn-outline" onClick={() => void connectWallet().then(() => add("hook: connect() called"))} disabled={wallet.connecting}>
              Call connect()
            </button>
            <button className="btn btn-outline" onClick={() => void oauthTest()} disabled={oauthBusy || wallet.isConnected} aria-busy={oauthBusy}>
              {oauthBusy && <span className="spinner" aria-hidden="true" />}
              OAuth sign-in
            </button>
            <button
              className="btn btn-outline"
              onClick={() => void disconnectWallet().then(() => add("disconnected"))}
              disabled={!wallet.isConnected}
            >
              Disconnect
            </button>
          </div>
        </div>
        <div className="card stack">
          <h2>Direct API test</h2>
          <button className="btn btn-primary" onClick={() => void directTest()}>
            Create sign request
          </button>
          {direct && (
            <div className="stack">
              <img src={direct.qrUrl} alt="QR code of the test sign request" width={200} height={200} className="qr-inline" />
              <a href={direct.xummUrl} target="_blank" rel="noopener noreferrer" className="small">
                Open request {direct.uuid}
              </a>
              <p className="small muted">{polling ? "Polling every 3 s…" : "Not polling."}</p>
            </div>
          )}
        </div>
      </div>
      <div className="card section-gap">
        <div className="section-head">
          <h2>Log</h2>
          <button className="btn btn-ghost small" onClick={() => setLog([])}>
            Clear
          </button>
        </div>
        <pre className="log" data-testid="test-log" aria-live="polite">
          {log.length ? log.join("\n") : "Nothing yet."}
        </pre>
      </div>
    </section>
  );
}
