import { connect, type Socket } from 'node:net';
import type { Reply } from './http';

/** Where a raw HTTP/1.1 exchange ended. */
export interface RawOutcome {
  /** Status of the answer, or undefined when the connection closed without one. */
  status?: number;
  /** Response head and body as far as they arrived (bounded). */
  response: string;
  /** Body bytes this side had written when the exchange ended. */
  bytesSent: number;
}

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

function head(url: string, path: string, headers: Record<string, string>): string {
  const host = new URL(url).host;
  const lines = [`POST ${path} HTTP/1.1`, `Host: ${host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Whether `response` holds a whole answer: its head and as many body bytes as Content-Length says. */
function complete(response: string): boolean {
  const end = response.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(response.slice(0, end));
  return length !== null && Buffer.byteLength(response.slice(end + 4), 'latin1') >= Number(length[1]);
}

/** Collects what the server answers until it closes the connection or `timeoutMs` passes (then destroys it). */
function collect(socket: Socket, timeoutMs: number): Promise<string> {
  return new Promise((resolve) => {
    let response = '';
    const done = () => {
      clearTimeout(timer);
      resolve(response);
    };
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      if (response.length < 64 * 1024) response += chunk.toString('latin1');
      if (complete(response)) {
        socket.destroy();
        done();
      }
    });
    socket.on('close', done);
    socket.on('error', () => {});
  });
}

const statusOf = (response: string) => {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(response);
  return match ? Number(match[1]) : undefined;
};

/**
 * Sends `count` requests whose body stops short of their Content-Length, then ends the
 * connection: half of them with a clean half-close, half by destroying the socket.
 */
export async function sendTruncatedOnTheWire(url: string, count: number): Promise<{ runs: number; statuses: Record<string, number>; closedWithoutAnswer: number }> {
  const statuses: Record<string, number> = {};
  let closedWithoutAnswer = 0;
  const body = JSON.stringify({ conversation_id: 'wire', sender_id: 'wire', metadata: { padding: 'p'.repeat(4096) } });
  for (let index = 0; index < count; index += 1) {
    const socket = await open(url);
    const cut = 1 + ((index * 7919) % (body.length - 1));
    const answered = collect(socket, 5_000);
    socket.write(head(url, '/api/v1/runtimes/open', { 'content-type': 'application/json', 'content-length': String(body.length) }));
    socket.write(body.slice(0, cut));
    if (index % 2 === 0) socket.end();
    else setTimeout(() => socket.destroy(), 20);
    const status = statusOf(await answered);
    if (status === undefined) closedWithoutAnswer += 1;
    else statuses[status] = (statuses[status] ?? 0) + 1;
  }
  return { runs: count, statuses, closedWithoutAnswer };
}

/**
 * Declares a body of `declaredBytes` (or streams it chunked when `chunked`) and writes it in
 * 64 KiB chunks, at most `maxSendBytes`, stopping as soon as the server answers. Tells how much
 * was written by then: a server that refuses early answers long before the whole body is sent.
 */
export async function sendOversized(
  url: string,
  path: string,
  options: { declaredBytes?: number; chunked?: boolean; maxSendBytes: number; token?: string },
): Promise<RawOutcome> {
  const socket = await open(url);
  socket.setNoDelay(true);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(options.declaredBytes);
  let answered = false;
  const response = collect(socket, 30_000).then((text) => {
    answered = true;
    return text;
  });
  socket.on('data', () => (answered = true));
  socket.write(head(url, path, headers));
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let bytesSent = 0;
  // Opens a JSON string so the body is plausible JSON for as long as it lasts.
  const opening = Buffer.from('{"conversation_id":"');
  const writeChunk = (data: Buffer) =>
    new Promise<void>((resolve) => {
      const framed = options.chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
      if (socket.destroyed || socket.write(framed)) {
        resolve();
        return;
      }
      // Wait for the kernel buffer to drain, or for the server to close (a closed socket never drains).
      const done = () => {
        socket.off('drain', done);
        socket.off('close', done);
        resolve();
      };
      socket.on('drain', done);
      socket.on('close', done);
    });
  await writeChunk(opening);
  bytesSent += opening.length;
  while (!answered && !socket.destroyed && bytesSent < options.maxSendBytes) {
    await writeChunk(chunk);
    bytesSent += chunk.length;
    // Let socket events run between chunks, so an answer is noticed as soon as it arrives.
    await new Promise((resolve) => setImmediate(resolve));
  }
  const text = await response;
  socket.destroy();
  return { status: statusOf(text), response: text, bytesSent };
}

/** A raw answer as the suite's `Reply` (status, headers, text, parsed JSON body). */
export function replyOf(outcome: RawOutcome): Reply {
  const end = outcome.response.indexOf('\r\n\r\n');
  const headLines = outcome.response.slice(0, end === -1 ? undefined : end).split('\r\n').slice(1);
  const headers = new Headers();
  for (const line of headLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const text = end === -1 ? '' : Buffer.from(outcome.response.slice(end + 4), 'latin1').toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: outcome.status ?? 0, headers, text, json };
}
