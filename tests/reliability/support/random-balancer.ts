import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Set on the answers the balancer makes itself (502 when no node answered), never on a node's. */
export const BALANCER_HEADER = 'x-random-balancer';

/** What the balancer did, for a failing test's report. */
export interface BalancerCounts {
  requests: number;
  /** Connections refused by a node (it was down), after which another node was tried. */
  refusedRetries: number;
  /** Requests answered 502 by the balancer itself: no node accepted the connection. */
  noNode: number;
  /** Answers cut off mid-stream because their node went away. */
  cutAnswers: number;
}

export interface RandomBalancer {
  url: string;
  counts: BalancerCounts;
  close(): Promise<void>;
}

/**
 * "Any load balancer" in front of a fleet: a plain HTTP proxy (node:http) that sends each request
 * to a node chosen at random among `targets()` (read per request, so a test may change the set).
 * Bodies are streamed both ways, never buffered. A node refusing the connection (it is down) is
 * skipped and another one tried — nothing of the request has been read yet then, so retrying is
 * safe; any other failure reaches the client (502 before an answer began, a cut answer after), as
 * it would behind a real balancer. `random` decides the choice (seed it for a replayable run).
 */
export async function startRandomBalancer(targets: () => string[], random: () => number = Math.random): Promise<RandomBalancer> {
  const counts: BalancerCounts = { requests: 0, refusedRetries: 0, noNode: 0, cutAnswers: 0 };

  const forward = (req: IncomingMessage, res: ServerResponse, candidates: string[]): void => {
    if (candidates.length === 0) {
      counts.noNode += 1;
      res.writeHead(502, { 'content-type': 'application/json', [BALANCER_HEADER]: 'no-node' });
      res.end(JSON.stringify({ error: 'no node of the fleet accepted the connection', code: 'bad_gateway' }));
      return;
    }
    const target = candidates[Math.floor(random() * candidates.length)]!;
    const { host } = new URL(target);
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host }, agent: false });
    let connected = false;
    upstream.on('socket', (socket) => {
      socket.once('connect', () => {
        connected = true;
        req.pipe(upstream);
      });
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on('aborted', () => {
        counts.cutAnswers += 1;
        res.destroy();
      });
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && error.code === 'ECONNREFUSED') {
        counts.refusedRetries += 1;
        forward(req, res, candidates.filter((candidate) => candidate !== target));
      } else if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json', [BALANCER_HEADER]: 'node-went-away' });
        res.end(JSON.stringify({ error: `the node went away: ${error.code ?? error.message}`, code: 'bad_gateway' }));
      } else {
        counts.cutAnswers += 1;
        res.destroy();
      }
    });
    // The client gave up: so does the balancer.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
  };

  const server: Server = createServer((req, res) => {
    counts.requests += 1;
    forward(req, res, [...targets()]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
