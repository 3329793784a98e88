/** A client-side route: the server serves the SPA for it, the router renders it. */
export interface ClientRoute {
  path: string;
  /** Shown in the header's dropdown menu when set. */
  menuLabel?: string;
  /** Inside the spec's authenticated layout (wallet context) rather than public. */
  authenticated: boolean;
  /** Rendered without the site's chrome (header, footer): the streamers' embeds. */
  bare?: boolean;
}

/**
 * Every client-side path the SPA renders, shared by the router and the server
 * (which serves the SPA for each of them; anything else gets the 404 page).
 * Routes are added here as their pages are built.
 */
export const CLIENT_ROUTES: ClientRoute[] = [
  { path: "/", authenticated: false },
  { path: "/games", menuLabel: "Games", authenticated: true },
  // Game screens sit outside the authenticated layout (spec part 2, section 2).
  { path: "/games/slots", authenticated: false },
  { path: "/games/unicorn-racing", authenticated: false },
  { path: "/embed/racing", authenticated: false, bare: true },
  { path: "/games/crash", authenticated: false },
  // Chrome-less live views any site may frame (the security headers allow framing for /embed/* only).
  { path: "/embed/crash", authenticated: false, bare: true },
  // The embed builder (a page of the site: it frames the embeds, nobody frames it).
  { path: "/embed", menuLabel: "Stream Embeds", authenticated: false },
  { path: "/fair", menuLabel: "Provably Fair", authenticated: false },
  // One round each, with its seeds, bets and a replay drawn from the seeds (linked from the games' lists).
  { path: "/crash/round/:round", authenticated: false },
  { path: "/racing/race/:round", authenticated: false },
  { path: "/slots/spin/:id", authenticated: false },
  { path: "/wheel/spin/:id", authenticated: false },
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
  // Swap: /buy-vvx is in the main navigation ('Buy VVX'); /swap is the same page.
  { path: "/buy-vvx", authenticated: true },
  { path: "/swap", authenticated: true },
];

export const CLIENT_PATHS = CLIENT_ROUTES.map((r) => r.path);

/** Paths the server answers with JSON, never with the SPA. */
export function isApiPath(path: string): boolean {
  return path.startsWith("/api/") || path === "/api" || path.startsWith("/sandbox/api") || path.startsWith("/ws");
}
