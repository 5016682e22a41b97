import { createConnection } from 'node:net';

/** Whether anything on this host accepts a TCP connection on 127.0.0.1:`port` (for tests that a sandbox's port never shows up here). */
export function acceptsOnLoopback(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
