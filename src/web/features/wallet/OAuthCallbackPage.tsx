import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { errorMessage, HttpError, sendJson } from "../../lib/api";
import type { OAuthComplete } from "./api";
import { usePageTitle } from "../../lib/usePageTitle";
import { connectedViaOAuth } from "./walletStore";

/** The spec's redirect delay after a successful sign-in. */
export const REDIRECT_DELAY_MS = 2000;

type State = { kind: "loading" } | { kind: "success"; wallet: string } | { kind: "error"; message: string };

/** /oauth/callback: Xaman's OAuth2 sign-in returns here with `code` and `state`. */
export default function OAuthCallbackPage() {
  usePageTitle("Signing in");
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ kind: "loading" });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // the code is single-use: never exchange it twice
    started.current = true;
    const error = params.get("error");
    const code = params.get("code");
    if (error) return setState({ kind: "error", message: `Authentication failed: ${params.get("error_description") ?? error}` });
    if (!code) return setState({ kind: "error", message: "No authorization code received from XUMM" });
    sendJson<OAuthComplete>("POST", "/api/auth/callback", { code, state: params.get("state") ?? "" })
      .then((res) => {
        if (!res.success || !res.user?.walletAddress) throw new Error("Authentication failed");
        connectedViaOAuth(res.user.walletAddress);
        setState({ kind: "success", wallet: res.user.walletAddress });
      })
      .catch((err) => setState({ kind: "error", message: err instanceof HttpError ? err.serverMessage ?? "Authentication failed" : errorMessage(err, "Authentication failed") }));
  }, [params]);

  useEffect(() => {
    if (state.kind !== "success") return;
    const timer = setTimeout(() => navigate("/"), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state, navigate]);

  return (
    <section className="container narrow center-page">
      <div className="card" role="status" aria-live="polite">
        {state.kind === "loading" && (
          <>
            <span className="spinner" aria-hidden="true" />
            <h1>Signing you in…</h1>
            <p className="muted">Checking your Xaman sign-in.</p>
          </>
        )}
        {state.kind === "success" && (
          <>
            <h1>Signed in</h1>
            <p>
              Wallet <code>{state.wallet}</code> is connected.
            </p>
            <p className="muted">Redirecting in 2 seconds...</p>
          </>
        )}
        {state.kind === "error" && (
          <>
            <h1>Sign-in failed</h1>
            <p className="error-text">{state.message}</p>
            <Link to="/" className="btn btn-primary">
              Return to Home
            </Link>
          </>
        )}
      </div>
    </section>
  );
}
