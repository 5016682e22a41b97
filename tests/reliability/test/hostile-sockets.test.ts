import { randomBytes } from 'node:crypto';
import { openTricklingSockets, openSocketCount, waitForOpenSockets, type HostileSocket } from '@runtimectl/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFigures } from '../support/figures';
import { Api } from '../support/http';
import { startRuntimed, type RuntimedProcess } from '../support/processes';

// File-descriptor exhaustion without a token (issue 18): the real daemon, with auth, its default
// connection caps (4,096 in total, 256 per source address) and short request timeouts, against
// thousands of connections that never finish a request. They come from other loopback addresses
// (127.0.0.2 …; the whole 127/8 is loopback on Linux) so the token holder on 127.0.0.1 is not
// sharing their per-address cap. Bounded: 2,600 sockets, a few seconds.
const TOKEN = `hostile-sockets-${randomBytes(24).toString('hex')}`;
const HEADERS_TIMEOUT_MS = 4_000;
const REQUEST_TIMEOUT_MS = 5_000;
const HELD_ADDRESSES = 10;
const HELD_PER_ADDRESS = 200;
const OVER_CAP_SOCKETS = 600;
const PER_ADDRESS_CAP = 256;

let daemon: RuntimedProcess;
let api: Api;
let port: number;
const figures: Record<string, unknown> = { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS, perAddressCap: PER_ADDRESS_CAP };
const stops: Array<() => void> = [];

beforeAll(async () => {
  daemon = await startRuntimed({
    args: ['--provider', 'memory'],
    env: {
      RUNTIMECTL_HTTP_AUTH_BEARER_TOKEN_ENV: 'HOSTILE_TOKEN',
      HOSTILE_TOKEN: TOKEN,
      RUNTIMECTL_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      RUNTIMECTL_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      RUNTIMECTL_LOG_LEVEL: 'warn',
    },
    secrets: [TOKEN],
  });
  api = new Api(daemon.url, TOKEN);
  port = Number(new URL(daemon.url).port);
});

afterAll(async () => {
  for (const stop of stops) stop();
  writeFigures('hostile-sockets', figures);
  if (daemon) expect(await daemon.stop(), 'runtimed exit code').toBe(0);
});

/** The token holder's request, timed: it must be answered (200), its latency is a figure. */
async function authorizedLatencyMs(): Promise<number> {
  const started = performance.now();
  const reply = await api.request('GET', '/api/v1/providers', { timeoutMs: 10_000 });
  expect(reply.status).toBe(200);
  return Math.round(performance.now() - started);
}

async function hold(count: number, localAddress: string, trickle: 'headers' | 'body' | 'silent'): Promise<HostileSocket[]> {
  const opened = await openTricklingSockets(port, { count, localAddress, trickle });
  stops.push(opened.stop);
  return opened.sockets;
}

describe('hostile sockets', () => {
  it(`serves the token holder while ${HELD_ADDRESSES * HELD_PER_ADDRESS} trickling sockets are held, refuses those over the per-address cap at once, and closes the rest within the timeouts`, async () => {
    await authorizedLatencyMs(); // connection set-up and first-call warm-up, not a figure
    const idleLatencyMs = await authorizedLatencyMs();
    const openedAt = performance.now();
    const held: HostileSocket[] = [];
    for (let index = 0; index < HELD_ADDRESSES; index += 1) {
      held.push(...(await hold(HELD_PER_ADDRESS, `127.0.0.${2 + index}`, index % 2 === 0 ? 'headers' : 'silent')));
    }
    const overCap = await hold(OVER_CAP_SOCKETS, `127.0.0.${2 + HELD_ADDRESSES}`, 'headers');
    const overCapOpen = await waitForOpenSockets(overCap, PER_ADDRESS_CAP, 1_000);
    const heldOpen = openSocketCount(held);
    const latencies = [await authorizedLatencyMs(), await authorizedLatencyMs(), await authorizedLatencyMs()];
    const all = [...held, ...overCap];
    const leftOpen = await waitForOpenSockets(all, 0, REQUEST_TIMEOUT_MS + 3_000);
    const allClosedAfterMs = Math.round(performance.now() - openedAt);
    figures.flood = {
      sockets: all.length,
      heldWhileAuthorizedServed: heldOpen + overCapOpen,
      overCapSockets: OVER_CAP_SOCKETS,
      overCapHeld: overCapOpen,
      idleLatencyMs,
      authorizedLatencyMs: latencies,
      allClosedAfterMs,
      leftOpen,
    };
    expect(overCapOpen, 'sockets over the per-address cap').toBeLessThanOrEqual(PER_ADDRESS_CAP);
    expect(leftOpen, 'hostile sockets still open after the timeouts').toBe(0);
    expect(daemon.alive()).toBe(true);
  });

  it('closes each connection after its 401, reading a trickling refused body for at most 2 s first', async () => {
    const refused = await hold(200, '127.0.0.20', 'body');
    const leftOpen = await waitForOpenSockets(refused, 0, 3_500);
    figures.refusedBodies = { sockets: refused.length, leftOpenAfter3500ms: leftOpen, answered401: refused.filter((socket) => socket.received().startsWith('HTTP/1.1 401 ')).length };
    expect(leftOpen).toBe(0);
    for (const socket of refused) expect(socket.received()).toMatch(/^HTTP\/1\.1 401 [\s\S]*connection: close/i);
    await authorizedLatencyMs();
  });
});
