/** Idle keep-alive connections: the emulator must never close one a client may be about to reuse. */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './support/emulator-fixture.js';

const fixture = useEmulator();

/** Sends `GET /health` on `socket` and resolves with the status line, or rejects when the server closed it. */
function health(socket: import('node:net').Socket, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!received.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(received.split('\r\n')[0]!);
    };
    const onClose = () => reject(new Error('the server closed the idle connection'));
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.write(`GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`);
  });
}

describe('idle keep-alive connections', () => {
  it('stay open longer than a fetch client keeps them (undici: 4 s), so a request reusing one under load is never met by a close', async () => {
    const url = new URL(fixture.emulator.apiUrl);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    try {
      expect(await health(socket, url.host)).toBe('HTTP/1.1 200 OK');
      // Node's default server keep-alive is 5 s: a daemon whose event loop lags past its own 4 s idle
      // timer then sends its next request into a socket the emulator is closing ("fetch failed").
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await health(socket, url.host)).toBe('HTTP/1.1 200 OK');
    } finally {
      socket.destroy();
    }
  }, 20_000);
});
