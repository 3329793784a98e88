import type { Socket } from "bun";

/** A loopback TCP relay in front of a server, so a test can cut live connections the way a network failure does. */
export interface TcpProxy {
  port: number;
  /** Cuts every live connection abruptly (no WebSocket close frame: the client sees an abnormal close). */
  dropAll(): void;
  /** While down, new connections are accepted and cut at once (the server looks unreachable). */
  setDown(down: boolean): void;
  close(): void;
}

interface Pipe {
  peer?: Socket<Pipe>;
  /** Bytes waiting for the peer to connect or drain. */
  backlog: Uint8Array[];
}

function flush(from: Pipe, to: Socket<Pipe>): void {
  while (from.backlog.length) {
    const chunk = from.backlog[0];
    const written = to.write(chunk);
    if (written < chunk.length) {
      from.backlog[0] = chunk.subarray(Math.max(written, 0));
      return;
    }
    from.backlog.shift();
  }
}

/** Starts a relay on a free loopback port forwarding to 127.0.0.1:targetPort. */
export function startTcpProxy(targetPort: number): TcpProxy {
  const live = new Set<Socket<Pipe>>();
  let down = false;

  const server = Bun.listen<Pipe>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open(client) {
        client.data = { backlog: [] };
        if (down) {
          client.terminate();
          return;
        }
        live.add(client);
        void Bun.connect<Pipe>({
          hostname: "127.0.0.1",
          port: targetPort,
          socket: {
            open(upstream) {
              upstream.data = { peer: client, backlog: [] };
              client.data.peer = upstream;
              live.add(upstream);
              // Bytes the client sent before the upstream was ready.
              flush(client.data, upstream);
            },
            data(upstream, chunk) {
              upstream.data.backlog.push(new Uint8Array(chunk));
              flush(upstream.data, client);
            },
            drain(upstream) {
              flush(client.data, upstream);
            },
            close(upstream) {
              live.delete(upstream);
              client.end();
            },
            error(upstream) {
              live.delete(upstream);
              client.terminate();
            },
          },
        }).catch(() => client.terminate());
      },
      data(client, chunk) {
        client.data.backlog.push(new Uint8Array(chunk));
        if (client.data.peer) flush(client.data, client.data.peer);
      },
      drain(client) {
        const upstream = client.data.peer;
        if (upstream) flush(upstream.data, client);
      },
      close(client) {
        live.delete(client);
        client.data.peer?.end();
      },
      error(client) {
        live.delete(client);
        client.data.peer?.terminate();
      },
    },
  });

  return {
    port: server.port,
    dropAll() {
      for (const socket of [...live]) socket.terminate();
      live.clear();
    },
    setDown(value: boolean) {
      down = value;
    },
    close() {
      this.dropAll();
      server.stop(true);
    },
  };
}
