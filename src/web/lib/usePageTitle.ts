import { useEffect } from "react";

const SUFFIX = "VVX | NFT Rewards Platform on the XRP Ledger";

/** Sets document.title to "<title> · VVX | ..." while the page is shown. */
export function usePageTitle(title?: string) {
  useEffect(() => {
    document.title = title ? `${title} · ${SUFFIX}` : SUFFIX;
  }, [title]);
}
