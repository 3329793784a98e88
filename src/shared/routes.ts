/** A client-side route: the server serves the SPA for it, the router renders it. */
export interface ClientRoute {
  path: string;
  /** Shown in the header's dropdown menu when set. */
  menuLabel?: string;
  /** Inside the spec's authenticated layout (wallet context) rather than public. */
  authenticated: boolean;
}

/**
 * Every client-side path the SPA renders, shared by the router and the server
 * (which serves the SPA for each of them; anything else gets the 404 page).
 * Routes are added here as their pages are built.
 */
export const CLIENT_ROUTES: ClientRoute[] = [
  { path: "/", authenticated: false },
  { path: "/games", menuLabel: "Games", authenticated: true },
  { path: "/fair", menuLabel: "Provably Fair", authenticated: false },
  { path: "/oauth/callback", authenticated: true },
  { path: "/test-wallet-connect", menuLabel: "Wallet Test", authenticated: true },
  // NFTs: the marketplace is in the main navigation; the sandbox test page and the admin page stay out of menus.
  { path: "/marketplace", authenticated: true },
  { path: "/nft-minting-status", menuLabel: "NFT Status", authenticated: true },
  { path: "/nft-status", authenticated: true },
  { path: "/admin", authenticated: true },
  { path: "/direct-nft-offer", authenticated: true },
  { path: "/test-nft-offers", authenticated: true },
  // Holdings and rewards: /rewards is in the main navigation, the others in the menu.
  { path: "/rewards", authenticated: true },
  { path: "/dashboard", menuLabel: "Dashboard", authenticated: true },
  { path: "/my-nfts", menuLabel: "My NFTs", authenticated: true },
  { path: "/history", menuLabel: "History", authenticated: true },
];

export const CLIENT_PATHS = CLIENT_ROUTES.map((r) => r.path);

/** Paths the server answers with JSON, never with the SPA. */
export function isApiPath(path: string): boolean {
  return path.startsWith("/api/") || path === "/api" || path.startsWith("/sandbox/api") || path.startsWith("/ws");
}
