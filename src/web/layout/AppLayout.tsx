import { Suspense, useEffect } from "react";
import { Outlet, useLocation, useNavigationType } from "react-router-dom";
import { Toaster } from "../components/Toaster";
import { WalletConnect } from "../features/wallet/WalletConnect";
import { WalletSigning } from "../features/wallet/WalletSigning";
import { Footer } from "./Footer";
import { Header } from "./Header";
import { MaintenanceDialog } from "./MaintenanceDialog";

/** Shared chrome around every page. */
export function AppLayout() {
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header walletSlot={<WalletConnect />} />
      <main id="main" className="main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
      <Toaster />
      <MaintenanceDialog />
      <WalletSigning />
      <ScrollToTop />
    </div>
  );
}

/** How long a link's #fragment waits for its element (pages load on demand). */
const FRAGMENT_WAIT_MS = 5_000;

/**
 * A new page starts at its top, or at the element its #fragment names once that element is on the page (the
 * browser's own jump happens before a page loaded on demand has drawn it); back and forward leave the
 * browser's own scroll restoration alone.
 */
function ScrollToTop() {
  const { pathname, hash } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    const id = decodeURIComponent(hash.slice(1));
    if (!id) {
      if (type !== "POP") window.scrollTo(0, 0);
      return;
    }
    const jump = () => {
      const el = document.getElementById(id);
      el?.scrollIntoView({ block: "start" });
      return Boolean(el);
    };
    if (jump()) return;
    const watch = new MutationObserver(() => jump() && watch.disconnect());
    watch.observe(document.body, { childList: true, subtree: true });
    const stop = setTimeout(() => watch.disconnect(), FRAGMENT_WAIT_MS);
    return () => {
      watch.disconnect();
      clearTimeout(stop);
    };
  }, [pathname, hash, type]);
  return null;
}

/** The spec's authenticated layout: pages that act for a connected wallet sit inside it. */
export function AuthenticatedLayout() {
  return <Outlet />;
}

export function PageLoading() {
  return (
    <div className="container page-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> Loading…
    </div>
  );
}
