import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** One client connection and its upstream twin. */
interface Pair {
  client: Socket;
  upstream: Socket;
}

export interface PausableProxy {
  /** The proxy's port on 127.0.0.1 (put it in the database URL instead of the server's). */
  port: number;
  /** Stops moving bytes both ways; connections stay open, new ones are accepted but carry nothing. */
  pause(): void;
  /** Moves bytes again, what was held back first. */
  resume(): void;
  /** Destroys every connection (both sides), as a network failure would; new connections work. */
  cut(): void;
  /** Connections open now. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A TCP proxy (node:net) in front of a server, e.g. PostgreSQL, that a test can stall: a paused
 * proxy keeps every connection but moves no byte, which is what a partitioned or frozen node sees
 * (its queries neither fail nor answer). Used to stall one node's database past its lease.
 */
export async function startPausableProxy(upstreamPort: number, upstreamHost = '127.0.0.1'): Promise<PausableProxy> {
  const pairs = new Set<Pair>();
  let paused = false;

  const flow = (pair: Pair) => {
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
  };
  const hold = (pair: Pair) => {
    pair.client.unpipe(pair.upstream);
    pair.upstream.unpipe(pair.client);
    pair.client.pause();
    pair.upstream.pause();
  };

  const server: Server = createServer((client) => {
    const upstream = connect(upstreamPort, upstreamHost);
    const pair: Pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    if (paused) hold(pair);
    else flow(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    pause: () => {
      paused = true;
      for (const pair of pairs) hold(pair);
    },
    resume: () => {
      paused = false;
      for (const pair of pairs) flow(pair);
    },
    cut: () => {
      for (const pair of [...pairs]) {
        pair.client.destroy();
        pair.upstream.destroy();
        pairs.delete(pair);
      }
    },
    connections: () => pairs.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of pairs) {
          pair.client.destroy();
          pair.upstream.destroy();
        }
        pairs.clear();
        server.close(() => resolve());
      }),
  };
}
