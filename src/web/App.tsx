import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from "react";
import { BrowserRouter, useRoutes, type RouteObject } from "react-router-dom";
import { SWRConfig } from "swr";
import { AppLayout, AuthenticatedLayout } from "./layout/AppLayout";
import LandingPage from "./features/landing/LandingPage";
import NotFoundPage from "./features/NotFoundPage";
import { CLIENT_ROUTES } from "../shared/routes";

/** Pages other than the landing page load on demand, so the first visit downloads only what it shows. */
export const PAGES: Record<string, LazyExoticComponent<ComponentType>> = {
  "/games": lazy(() => import("./features/games/GamesPage")),
  "/games/slots": lazy(() => import("./features/games/slots/SlotsPage")),
  "/games/unicorn-racing": lazy(() => import("./features/games/racing/RacingPage")),
  "/embed/racing": lazy(() => import("./features/games/racing/EmbedRacingPage")),
  "/games/crash": lazy(() => import("./features/games/crash/CrashPage")),
  "/embed/crash": lazy(() => import("./features/games/crash/EmbedCrashPage")),
  "/embed": lazy(() => import("./features/games/embed/EmbedBuilderPage")),
  "/fair": lazy(() => import("./features/fair/FairPage")),
  "/crash/round/:round": lazy(() => import("./features/games/crash/CrashRoundPage")),
  "/racing/race/:round": lazy(() => import("./features/games/racing/RacePage")),
  "/slots/spin/:id": lazy(() => import("./features/games/slots/SpinPage")),
  "/wheel/spin/:id": lazy(() => import("./features/landing/WheelSpinPage")),
  "/oauth/callback": lazy(() => import("./features/wallet/OAuthCallbackPage")),
  "/test-wallet-connect": lazy(() => import("./features/wallet/TestWalletConnectPage")),
  "/marketplace": lazy(() => import("./features/nfts/MarketplacePage")),
  "/nft-minting-status": lazy(() => import("./features/nfts/NftMintingStatusPage")),
  "/nft-status": lazy(() => import("./features/nfts/NftStatusPage")),
  "/admin": lazy(() => import("./features/nfts/AdminPage")),
  "/direct-nft-offer": lazy(() => import("./features/nfts/DirectNftOfferPage")),
  "/test-nft-offers": lazy(() => import("./features/nfts/TestNftOffersPage")),
  "/rewards": lazy(() => import("./features/rewards/RewardsPage")),
  "/dashboard": lazy(() => import("./features/rewards/DashboardPage")),
  "/my-nfts": lazy(() => import("./features/rewards/MyNftsPage")),
  "/history": lazy(() => import("./features/rewards/HistoryPage")),
  "/buy-vvx": lazy(() => import("./features/swap/BuyVvxPage")),
  "/swap": lazy(() => import("./features/swap/BuyVvxPage")),
};

/** The spec's data cache: never stale, no refetch on focus, no polling, no retries. */
export const SWR_OPTIONS = {
  revalidateIfStale: false,
  revalidateOnFocus: false,
  revalidateOnReconnect: false,
  shouldRetryOnError: false,
  dedupingInterval: 2000,
} as const;

export function buildRoutes(): RouteObject[] {
  const page = (path: string) => {
    if (path === "/") return { index: true, element: <LandingPage /> };
    const Page = PAGES[path];
    if (!Page) throw new Error(`No page component for route ${path}`);
    return { path: path.slice(1), element: <Page /> };
  };
  return [
    ...CLIENT_ROUTES.filter((r) => r.bare).map((r) => ({ ...page(r.path), element: <Suspense fallback={null}>{page(r.path).element}</Suspense> })),
    {
      path: "/",
      element: <AppLayout />,
      children: [
        ...CLIENT_ROUTES.filter((r) => !r.authenticated && !r.bare).map((r) => page(r.path)),
        { element: <AuthenticatedLayout />, children: CLIENT_ROUTES.filter((r) => r.authenticated).map((r) => page(r.path)) },
        { path: "*", element: <NotFoundPage /> },
      ],
    },
  ];
}

const ROUTES = buildRoutes();

/** The routes in whatever router surrounds them (the browser's in the app, a memory router in tests). */
export function AppRoutes() {
  return useRoutes(ROUTES);
}

// A component router, not a data router (createBrowserRouter): the page loads no loaders or actions,
// and the data router's code was a fifth of the landing page's script.
export function App() {
  return (
    <SWRConfig value={SWR_OPTIONS}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </SWRConfig>
  );
}
