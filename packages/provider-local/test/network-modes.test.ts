import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEgressHelpers } from '@runtimectl/namespace-sandbox';
import { acceptsOnLoopback } from '@runtimectl/testkit';
import { createBackend, eventually, localProvider, text, useTemporaryDirectories } from './local-fixture';

const exec = { maxOutputBytes: 64 * 1024, timeoutMs: 30_000 };
const helpers = findEgressHelpers(process.env.PATH);
/** The first IPv4 address of this host that is not loopback (where a server egress may reach listens). */
const hostAddress = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

/** A TCP server answering `hello` to every connection. */
async function helloServer(host: string): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.end('hello\n'));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** A command printing `reached` or `refused` for a TCP connection to host:port (bash's /dev/tcp). */
const reach = (host: string, port: number) => `(timeout 5 bash -c 'exec 3<>/dev/tcp/${host}/${port}; cat <&3') 2>/dev/null | grep -q hello && echo reached || echo refused`;

/** A command printing `reached` when a TCP connection to host:port is accepted, else `refused`. */
const connects = (host: string, port: number) => `timeout 5 bash -c 'exec 3<>/dev/tcp/${host}/${port}' 2>/dev/null && echo reached || echo refused`;


// Issue 31, network: in every mode but `host`, no command can reach or bind the host's loopback.
describe('the network of sandboxed commands', () => {
  const temporary = useTemporaryDirectories();
  let loopback: { server: Server; port: number };

  beforeAll(async () => {
    loopback = await helloServer('127.0.0.1');
  });
  afterAll(() => loopback.server.close());

  it('host: a command reaches a server on the host\'s 127.0.0.1 (the mode that shares it, for contrast)', async () => {
    const { provider } = await localProvider(temporary, { network: 'host' });
    const { backend } = await createBackend(provider);
    expect(text((await backend.exec({ ...exec, command: reach('127.0.0.1', loopback.port) })).stdout)).toBe('reached\n');
  });

  for (const mode of ['none', 'egress'] as const) {
    it(`${mode}: a command reaches no server on the host's loopback, whatever address it tries`, async (context) => {
      context.skip(mode === 'egress' && helpers.length === 0, 'egress needs slirp4netns or pasta on the PATH (apt-get install slirp4netns passt)');
      const { provider } = await localProvider(temporary, { network: mode });
      expect(await provider.isolation()).toMatchObject({ mode: 'namespace', network: mode });
      const { backend } = await createBackend(provider);
      const gateway = "$(ip route | awk '/^default/ { print $3 }')";
      const command = [reach('127.0.0.1', loopback.port), reach('localhost', loopback.port), `gw=${gateway}; [ -n "$gw" ] && ${reach('$gw', loopback.port)} || echo refused`].join('; ');
      expect(text((await backend.exec({ ...exec, command })).stdout)).toBe('refused\nrefused\nrefused\n');
    });

    it(`${mode}: a port a command listens on never shows up on the host`, async (context) => {
      context.skip(mode === 'egress' && helpers.length === 0, 'egress needs slirp4netns or pasta on the PATH (apt-get install slirp4netns passt)');
      const { provider } = await localProvider(temporary, { network: mode });
      const { backend } = await createBackend(provider);
      const probe = await helloServer('127.0.0.1');
      const port = probe.port;
      await new Promise((resolve) => probe.server.close(resolve));
      const started = await backend.exec({ ...exec, command: `python3 -m http.server ${port} --bind 0.0.0.0 >/dev/null 2>&1 & sleep 1; ${connects('127.0.0.1', port)}` });
      expect(text(started.stdout)).toBe('reached\n');
      expect(await eventually(() => acceptsOnLoopback(port), 2_500)).toBe(false);
    });
  }

  it.skipIf(helpers.length === 0 || !hostAddress)('egress: a command reaches a server on a host address that is not loopback; none does not', async () => {
    const outside = await helloServer(hostAddress!);
    try {
      const { provider: egress } = await localProvider(temporary, { network: 'egress' });
      const { backend } = await createBackend(egress);
      expect(text((await backend.exec({ ...exec, command: reach(hostAddress!, outside.port) })).stdout)).toBe('reached\n');
      const { provider: none } = await localProvider(temporary, { network: 'none' });
      const { backend: offline } = await createBackend(none);
      expect(text((await offline.exec({ ...exec, command: reach(hostAddress!, outside.port) })).stdout)).toBe('refused\n');
    } finally {
      outside.server.close();
    }
  });

  it('defaults to egress where a helper is on the PATH, else to none with the reason — never to host', async () => {
    const { provider } = await localProvider(temporary);
    const inForce = await provider.isolation();
    if (helpers.length > 0) expect(inForce).toMatchObject({ network: 'egress' });
    else expect(inForce).toMatchObject({ network: 'none', networkReason: expect.stringMatching(/slirp4netns|pasta/) });
  });

  it('without slirp4netns or pasta on the PATH, egress falls back to none and says so', async () => {
    const saved = process.env.PATH;
    process.env.PATH = await temporary('empty-path');
    try {
      const { provider } = await localProvider(temporary, { network: 'egress' });
      expect(await provider.isolation()).toMatchObject({ mode: 'namespace', network: 'none', networkReason: expect.stringMatching(/slirp4netns or pasta/) });
    } finally {
      process.env.PATH = saved;
    }
  });
});
