import { useEffect, useRef, useState } from "react";
import { CHANNELS, topicOf, type ChannelMessages, type ChannelName } from "../../shared/channels";
import { pageSocket } from "./socket";

/**
 * Follows one push topic over the page's shared `/ws` connection: a channel of shared/channels.ts and
 * its key (`useChannel("wallet", address, ...)`); a null key of a keyed channel listens to nothing.
 * `onMessage` gets every message published on it, typed as the channel carries them; `connected`
 * says whether messages arrive right now (socket open and topic confirmed), so callers can poll
 * only while it is false.
 */
export function useChannel<C extends ChannelName>(channel: C, key: string | null, onMessage: (message: ChannelMessages[C]) => void): { connected: boolean } {
  const topic = CHANNELS[channel].keyed && !key ? null : topicOf(channel, key ?? undefined);
  const handler = useRef(onMessage);
  handler.current = onMessage;
  // A topic another component already follows is live from the first render (a dialog opened on a page that listens polls nothing).
  const [connected, setConnected] = useState(() => topic !== null && pageSocket().isLive(topic));

  useEffect(() => {
    if (!topic) {
      setConnected(false);
      return;
    }
    const socket = pageSocket();
    const offStatus = socket.onStatus(() => setConnected(socket.isLive(topic)));
    const offTopic = socket.subscribe(topic, (message) => handler.current(message as ChannelMessages[C]));
    setConnected(socket.isLive(topic));
    return () => {
      offTopic();
      offStatus();
      setConnected(false);
    };
  }, [topic]);

  return { connected };
}
