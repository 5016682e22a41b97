import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/** How the receiver answers its n-th request: a status, or `hang` (never answers until closed). */
export type Answer = number | 'hang';

/** A real HTTP receiver on 127.0.0.1 that records every request and answers as `answer(n)` says. */
export async function startReceiver(answer: (index: number) => Answer = () => 200) {
  const received: ReceivedRequest[] = [];
  const hanging: ServerResponse[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = received.length;
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const wake of waiters.splice(0)) wake();
      const status = answer(index);
      if (status === 'hang') return void hanging.push(response);
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? `receiver says no (${status}) ${'x'.repeat(2_000)}` : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    /** Resolves once at least `count` requests arrived. */
    async requests(count: number): Promise<void> {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    /** Answers every hanging request now. */
    release(status = 200): void {
      for (const response of hanging.splice(0)) response.writeHead(status).end();
    },
    async close(): Promise<void> {
      for (const response of hanging.splice(0)) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
