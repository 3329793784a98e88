import { useEffect, useRef, useState } from "react";
import { pageSocket } from "./socket";

/**
 * Follows one push topic (`wallet:<address>`, `site`, ...) over the page's shared `/ws` connection.
 * `onMessage` gets every message published on it; `connected` says whether messages arrive right
 * now (socket open and topic confirmed), so callers can poll only while it is false. A null topic
 * listens to nothing.
 */
export function useChannel<T = unknown>(topic: string | null, onMessage: (message: T) => void): { connected: boolean } {
  const handler = useRef(onMessage);
  handler.current = onMessage;
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!topic) {
      setConnected(false);
      return;
    }
    const socket = pageSocket();
    const offStatus = socket.onStatus(() => setConnected(socket.isLive(topic)));
    const offTopic = socket.subscribe(topic, (message) => handler.current(message as T));
    setConnected(socket.isLive(topic));
    return () => {
      offTopic();
      offStatus();
      setConnected(false);
    };
  }, [topic]);

  return { connected };
}
