import { useEffect, useRef } from "react";
import type { WalletMessage } from "../../shared/channels";
import { useChannel } from "./useChannel";

/**
 * A page that shows a wallet's facts read over HTTP and follows their changes on the wallet's private
 * channel: `onMessage` gets each push, `resync` runs each time the channel comes up (what was published
 * while it was down, or before it first came up, is read once). Returns whether pushes arrive: the
 * page polls only while this is false.
 */
export function useWalletPush(wallet: string | null, onMessage: (message: WalletMessage) => void, resync: () => void): boolean {
  const { connected } = useChannel("wallet", wallet, onMessage);
  const again = useRef(resync);
  again.current = resync;
  useEffect(() => {
    if (connected) again.current();
  }, [connected]);
  return connected;
}
