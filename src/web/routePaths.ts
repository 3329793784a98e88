/**
 * Every client-side path the SPA renders, shared by the router and the server
 * (which serves the SPA for each of them; anything else gets the 404 page).
 */
export const CLIENT_PATHS = [
  "/",
  "/games",
  "/fair",
] as const;

/** Paths the SPA answers with its 404 page rather than the server's JSON 404. */
export function isApiPath(path: string): boolean {
  return path.startsWith("/api/") || path === "/api" || path.startsWith("/sandbox/api") || path.startsWith("/ws");
}
