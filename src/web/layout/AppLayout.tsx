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

/** A new page starts at its top; back and forward leave the browser's own scroll restoration alone. */
function ScrollToTop() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type !== "POP") window.scrollTo(0, 0);
  }, [pathname, type]);
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
